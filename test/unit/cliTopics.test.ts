// spot-import validate and import with the project's topic definitions (test/fixtures/topics/
// project: spot-topics/7.topic.json and 8.topic.json, and three documents), as a real child
// process: every format carries the rule and the severity; a broken definition file is reported
// against its own path (exit 1) without stopping the documents' base checks; import refuses a
// document with a topic error (nothing sent) and still imports one with warnings.
import * as assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { ROOT, ensureCliBuilt, jsonLines, runCli, scratch, sandboxEnv } from './helpers/cliProcess';
import { validateJsonLine, validateSarif } from './helpers/cliSchemas';

const PROJECT = join(ROOT, 'test', 'fixtures', 'topics', 'project');

describe('spot-import and topic definitions', function () {
  let folder: ReturnType<typeof scratch> | undefined;
  let sandbox: RunningSandbox | undefined;
  before(() => ensureCliBuilt());
  afterEach(async () => {
    folder?.cleanup();
    folder = undefined;
    await sandbox?.close();
    sandbox = undefined;
  });

  it('validate: text, json, sarif, github and junit carry each topic rule and its severity', async () => {
    const text = await runCli(['validate', 'spots'], { cwd: PROJECT });
    assert.equal(text.code, 1, text.stderr);
    assert.match(text.stdout, /^spots\/problems\.spot\.json:11:18: Height \(m\) \(fld_7_2\) must be between 0 and 120; it is 130\.$/m);
    assert.match(text.stdout, /^spots\/other-topic\.spot\.json:\d+:\d+: warning: latitde is sent as a topic field; did you mean latitude\?$/m);
    assert.doesNotMatch(text.stdout, /oak\.spot\.json/);
    assert.match(text.stderr, /3 spot documents checked: 1 invalid, 2 valid\./);

    const json = await runCli(['validate', 'spots', '--format', 'json'], { cwd: PROJECT });
    const records = jsonLines(json.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    const byFile = new Map(records.map((record) => [record.file, record]));
    assert.equal(byFile.get('spots/oak.spot.json')?.status, 'valid');
    assert.equal(byFile.get('spots/other-topic.spot.json')?.status, 'valid');
    const problems = byFile.get('spots/problems.spot.json')!.problems as Array<{ rule: string; severity: string; pointer: string }>;
    const rules = new Set(problems.map((p) => `${p.rule}/${p.severity}`));
    for (const expected of [
      'topic.outOfRange/error',
      'topic.categoryLabel/error',
      'topic.invalidGallery/error',
      'topic.undefinedField/warning',
      'spot.misspeltMember/warning',
    ]) {
      assert.ok(rules.has(expected), `${expected} in ${[...rules].join(', ')}`);
    }

    const sarif = await runCli(['validate', 'spots', '--format', 'sarif'], { cwd: PROJECT });
    const log = JSON.parse(sarif.stdout);
    assert.deepEqual(validateSarif(log), []);
    const run = log.runs[0];
    const outOfRange = run.results.find((r: { ruleId: string }) => r.ruleId === 'topic.outOfRange');
    assert.equal(outOfRange.level, 'error');
    assert.equal(run.tool.driver.rules[outOfRange.ruleIndex].id, 'topic.outOfRange');
    assert.equal(run.results.find((r: { ruleId: string }) => r.ruleId === 'spot.misspeltMember').level, 'warning');

    const github = await runCli(['validate', 'spots', '--format', 'github'], { cwd: PROJECT });
    assert.match(github.stdout, /^::error file=spots\/problems\.spot\.json,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=topic\.outOfRange::/m);
    assert.match(
      github.stdout,
      /^::warning file=spots\/other-topic\.spot\.json,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=spot\.misspeltMember::latitde/m,
    );

    const junit = await runCli(['validate', 'spots', '--format', 'junit'], { cwd: PROJECT });
    assert.match(junit.stdout, /<testsuite name="spot-import validate" tests="3" failures="1" errors="0" skipped="0"/);
  });

  it('a broken definition file is reported against its own path (exit 1); documents are still checked by the base rules', async () => {
    folder = scratch();
    cpSync(PROJECT, folder.dir, { recursive: true });
    folder.write('defs/7.topic.json', '{ "topic_id": 7, "name": "Broken", "fields": { "fld_7_1": { "type": "colour" } } }\n');
    folder.write('spot-import.json', JSON.stringify({ topicsFolder: 'defs' }));
    const result = await runCli(['validate', 'spots', '--format', 'json'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    const records = jsonLines(result.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    assert.deepEqual([records[0].type, records[0].file, records[0].status], ['topicDefinition', 'defs/7.topic.json', 'invalid']);
    assert.equal(records.find((r) => r.file === 'spots/oak.spot.json')?.status, 'valid', 'topic 7 has no usable definition: base rules only');
    assert.match(String(records.pop()?.message), /3 spot documents checked: all valid; 1 topic definition file broken \(not used\)\./);

    const flag = await runCli(['validate', 'spots', '--topics-folder', 'spot-topics'], { cwd: folder.dir });
    assert.equal(flag.code, 1, 'the flag wins over spot-import.json: the good definitions apply');
    assert.match(flag.stdout, /problems\.spot\.json/);
    const missing = await runCli(['validate', 'spots', '--topics-folder', 'nowhere'], { cwd: folder.dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nowhere .*does not exist/);
  });

  it('a topic definition file named on the command line is reported once, as a definition, never checked as a spot document', async () => {
    folder = scratch();
    cpSync(PROJECT, folder.dir, { recursive: true });
    folder.write('spot-topics/9.topic.json', '{ "topic_id": 9, "fields": { "fld_9_1": { "label": "Broken" "type": "text" } } }\n');
    folder.write('elsewhere/5.topic.json', JSON.stringify({ topic_id: 5, fields: {} }));
    const named = ['spot-topics/9.topic.json', 'spot-topics/7.topic.json', 'elsewhere/5.topic.json', 'spots/oak.spot.json'];
    // The broken definition's one syntax problem, once; the good one and the one outside the
    // topics folder are no spot documents ("data is required").
    const syntax = /^spot-topics\/9\.topic\.json:1:\d+: Not valid JSON: comma expected\.\n$/;
    const validate = await runCli(['validate', ...named], { cwd: folder.dir });
    assert.equal(validate.code, 1, validate.stderr);
    assert.match(validate.stdout, syntax);
    assert.match(
      validate.stderr,
      /^elsewhere\/5\.topic\.json: passed over, a topic definition file is not a spot document; this run's topic definitions are those of \S*spot-topics \(--topics-folder names another folder\)\.$/m,
    );
    assert.match(validate.stderr, /^1 spot document checked: all valid; 1 topic definition file broken \(not used\)\.$/m);

    const json = await runCli(['validate', '--format', 'json', ...named], { cwd: folder.dir });
    const records = jsonLines(json.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    assert.deepEqual(
      records.map((record) => [record.type, record.file, record.status]),
      [
        ['topicDefinition', 'spot-topics/9.topic.json', 'invalid'],
        ['document', 'spots/oak.spot.json', 'valid'],
        ['summary', undefined, undefined],
      ],
    );

    const dryRun = await runCli(['import', '--dry-run', ...named], { cwd: folder.dir });
    assert.equal(dryRun.code, 1, dryRun.stderr);
    assert.match(
      dryRun.stdout,
      /^spot-topics\/9\.topic\.json:1:\d+: Not valid JSON: comma expected\.\nspots\/oak\.spot\.json: valid, would import "[^"]+" \(dry run: nothing sent\)\n$/,
    );
    assert.match(dryRun.stderr, /Dry run: 1 of 1 documents would be imported; nothing was sent\. 1 topic definition file\(s\) are broken/);

    // Named alone, a broken definition is what the run checks: exit 1, not "no spot documents" (exit 2).
    const alone = await runCli(['validate', 'spot-topics/9.topic.json'], { cwd: folder.dir });
    assert.equal(alone.code, 1, alone.stderr);
    assert.match(alone.stdout, syntax);
  });

  it('a definition nested 3,000 deep is one problem of its own file; validate and import go on with the other definitions', async () => {
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
    folder = scratch();
    cpSync(PROJECT, folder.dir, { recursive: true });
    const deep = '['.repeat(3000) + ']'.repeat(3000);
    folder.write('spot-topics/9.topic.json', `{"topic_id": 9, "fields": {"fld_9_1": {"label": "Deep", "type": "category", "values": ${deep}}}}\n`);
    const tooDeep = 'The definition nests objects and arrays more than 64 levels deep; a topic definition needs only a few.';
    const validate = await runCli(['validate', 'spots'], { cwd: folder.dir });
    assert.equal(validate.code, 1, validate.stderr);
    assert.match(validate.stdout, new RegExp(`^spot-topics/9\\.topic\\.json:1:\\d+: ${tooDeep.replace(/[.;]/g, '\\$&')}$`, 'm'));
    assert.match(
      validate.stdout,
      /^spots\/problems\.spot\.json:11:18: Height \(m\) \(fld_7_2\) must be between 0 and 120; it is 130\.$/m,
      'topic 7 still checked',
    );
    assert.match(validate.stderr, /^3 spot documents checked: 1 invalid, 2 valid; 1 topic definition file broken \(not used\)\.$/m);

    const imported = await runCli(['import', 'spots/oak.spot.json', '--format', 'json'], { cwd: folder.dir, env: sandboxEnv(sandbox.baseUrl) });
    assert.equal(imported.code, 1, imported.stderr);
    const records = jsonLines(imported.stdout);
    assert.deepEqual(
      records.slice(0, 2).map((record) => [record.type, record.file, record.status]),
      [
        ['topicDefinition', 'spot-topics/9.topic.json', 'invalid'],
        ['spot', 'spots/oak.spot.json', 'imported'],
      ],
    );
    assert.equal((records[0].problems as Array<{ message: string }>)[0].message, tooDeep);
  });

  it('--topics-folder naming a file says it is not a folder (exit 2), not that it does not exist', async () => {
    folder = scratch({
      'spots/a.spot.json': JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 7, source_id: 'a', latitude: 1, longitude: 1 } } }),
      'topics.json': '{}',
    });
    for (const args of [
      ['--topics-folder', 'topics.json'],
      ['--topics-folder', 'spots/a.spot.json'],
    ]) {
      const result = await runCli(['validate', 'spots', ...args], { cwd: folder.dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(
        result.stderr,
        /^spot-import: The topics folder \S+ \(topicsFolder\) is not a folder\. Fix "topicsFolder" in spot-import\.json or --topics-folder\.\n$/,
        args.join(' '),
      );
      assert.equal(result.stdout, '');
    }
  });

  it('import refuses a document with a topic error (nothing sent for it) and imports one with warnings', async () => {
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
    const env = sandboxEnv(sandbox.baseUrl);
    folder = scratch();
    cpSync(PROJECT, folder.dir, { recursive: true });
    const result = await runCli(['import', 'spots/problems.spot.json', 'spots/other-topic.spot.json', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal(result.code, 1, result.stderr);
    const records = jsonLines(result.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    const refused = records.find((r) => r.file === 'spots/problems.spot.json')!;
    assert.equal(refused.status, 'failed');
    assert.ok((refused.problems as Array<{ rule: string }>).some((p) => p.rule === 'topic.outOfRange'));
    const warned = records.find((r) => r.file === 'spots/other-topic.spot.json')!;
    assert.equal(warned.status, 'imported');
    assert.deepEqual(
      (warned.problems as Array<{ rule: string; severity: string }>).map((p) => [p.rule, p.severity]),
      [['spot.misspeltMember', 'warning']],
    );
    assert.equal(sandbox.counters.imports, 1, 'only the document without topic errors was sent');
    assert.equal(sandbox.spotBySourceId('trail-problems'), undefined);
  });

  it('a null field the topic types as a number is no pending gallery: validate passes and import sends state 1', async () => {
    // The sandbox is given the same definitions, as the real service knows its topics.
    const { loadTopicFolder } = await import('../../src/core/topics/topicFolder');
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT], topics: (await loadTopicFolder(join(PROJECT, 'spot-topics'))).catalog });
    const env = sandboxEnv(sandbox.baseUrl);
    folder = scratch();
    cpSync(join(PROJECT, 'spot-topics'), join(folder.dir, 'spot-topics'), { recursive: true });
    const attributes = { topic_id: 7, source_id: 'trail-null-height', latitude: 47.2, longitude: 11.4, state: 1, fld_7_1: '1', fld_7_2: null };
    folder.write('height.spot.json', JSON.stringify({ data: { type: 'spots', attributes } }, null, 2) + '\n');

    const validate = await runCli(['validate', 'height.spot.json'], { cwd: folder.dir });
    assert.equal(validate.code, 0, validate.stdout + validate.stderr);
    const imported = await runCli(['import', 'height.spot.json', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal(imported.code, 0, imported.stdout + imported.stderr);
    const stored = sandbox.spotBySourceId('trail-null-height');
    assert.equal(stored?.attributes.state, 1);
    assert.equal(stored?.attributes.fld_7_2, null, 'sent as written; no gallery took its place');
  });
});
