// spot-import validate, run as a real child process: every output format, every exit code, and
// bad input of every kind answered with one clear line.
import * as assert from 'node:assert/strict';
import { truncateSync, writeFileSync, chmodSync } from 'node:fs';
import { ensureCliBuilt, jsonLines, runCli, scratch, spotText } from './helpers/cliProcess';
import { validateJsonLine, validateSarif } from './helpers/cliSchemas';

describe('spot-import validate', function () {
  let folder: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  beforeEach(() => {
    folder = scratch({
      'trails/walk.spot.json': spotText('walk'),
      // Line 5 holds the latitude (123 beside a longitude of 1: probably swapped); the pending
      // gallery without state 2 is on line 6.
      'trails/broken.spot.json':
        '{\n  "data": {\n    "type": "spots",\n    "attributes": {\n      "latitude": 123, "topic_id": 1, "source_id": "b", "longitude": 1,\n      "fld_1_5": null\n    }\n  }\n}\n',
      'trails/nested/other.json': spotText('other'),
      'trails/package.json': '{ "name": "not a spot" }',
      'trails/node_modules/ignored.spot.json': '{ broken',
      'trails/.hidden/ignored.spot.json': '{ broken',
      'good/one.spot.json': spotText('one'),
      'empty/readme.txt': 'nothing here',
    });
  });
  afterEach(() => folder.cleanup());

  it('exits 0 when every document is valid, and prints nothing on stdout', async () => {
    const result = await runCli(['validate', 'good'], { cwd: folder.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^1 spot document checked: all valid\.\n$/);
  });

  it('text: file:line:col: message for each problem, folders walked recursively, exit 1', async () => {
    const result = await runCli(['validate', 'trails'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      'trails/broken.spot.json:5:19: latitude must be between -90 and 90; latitude and longitude are probably swapped.',
      'trails/broken.spot.json:6:18: Gallery field fld_1_5 is pending (null), so the spot needs "state": 2 until its media are uploaded.',
    ]);
    assert.match(result.stderr, /3 spot documents checked: 1 invalid, 2 valid\./, 'node_modules, dot-folders and package.json are not documents');
  });

  it('json: one line per document and a summary, each matching the schema in docs/cli-json.md', async () => {
    const result = await runCli(['validate', '--format', 'json', 'trails', 'good/one.spot.json'], { cwd: folder.dir });
    assert.equal(result.code, 1);
    const records = jsonLines(result.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    assert.deepEqual(
      records.map((r) => [r.type, r.file, r.status]),
      [
        ['document', 'trails/broken.spot.json', 'invalid'],
        ['document', 'trails/nested/other.json', 'valid'],
        ['document', 'trails/walk.spot.json', 'valid'],
        ['document', 'good/one.spot.json', 'valid'],
        ['summary', undefined, undefined],
      ],
    );
    const problems = records[0].problems as Array<Record<string, unknown>>;
    assert.deepEqual(problems[0], {
      line: 5,
      column: 19,
      endLine: 5,
      endColumn: 22,
      message: 'latitude must be between -90 and 90; latitude and longitude are probably swapped.',
      pointer: '/data/attributes/latitude',
      severity: 'error',
      rule: 'spot.swappedCoordinates',
    });
    assert.deepEqual(
      { ...records[4], durationMs: 0 },
      {
        type: 'summary',
        command: 'validate',
        total: 4,
        counts: { invalid: 1, valid: 3 },
        message: '4 spot documents checked: 1 invalid, 3 valid.',
        exitCode: 1,
        durationMs: 0,
      },
    );
  });

  it('sarif: a SARIF 2.1.0 log with regions, valid against the schema', async () => {
    folder.write('with space/bad one.spot.json', '{ "data": ');
    const result = await runCli(['validate', '--format=sarif', 'trails', 'with space'], { cwd: folder.dir });
    assert.equal(result.code, 1);
    const log = JSON.parse(result.stdout);
    assert.deepEqual(validateSarif(log), []);
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'spot-import');
    assert.equal(run.columnKind, 'utf16CodeUnits');
    assert.deepEqual(run.invocations, [{ executionSuccessful: true, exitCode: 1, commandLine: 'spot-import validate' }]);
    const [first, second, ...syntax] = run.results;
    assert.equal(second.locations[0].physicalLocation.region.startLine, 6);
    assert.ok(syntax.length >= 1 && syntax.every((result: { message: { text: string } }) => /^Not valid JSON/.test(result.message.text)));
    assert.equal(first.ruleId, 'spot.swappedCoordinates');
    assert.equal(run.tool.driver.rules[first.ruleIndex].id, first.ruleId);
    assert.deepEqual(first.locations[0].physicalLocation, {
      artifactLocation: { uri: 'trails/broken.spot.json', uriBaseId: '%SRCROOT%' },
      region: { startLine: 5, startColumn: 19, endLine: 5, endColumn: 22 },
    });
    assert.equal(syntax[0].locations[0].physicalLocation.artifactLocation.uri, 'with%20space/bad%20one.spot.json');
    assert.match(run.originalUriBaseIds['%SRCROOT%'].uri, /^file:\/\/\/.*\/$/);
  });

  it('github: ::error workflow commands with file, line and column, escaped', async () => {
    folder.write('x/a,b.spot.json', spotText('x', { latitude: 'north' }));
    const result = await runCli(['validate', '--format', 'github', 'x'], { cwd: folder.dir });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '::error file=x/a%2Cb.spot.json,line=7,col=19,endLine=7,endColumn=26,title=spot.schema::latitude must be a number.\n');
  });

  it('junit: one test case per document, failures with their problems', async () => {
    const result = await runCli(['validate', '--format', 'junit', 'trails'], { cwd: folder.dir });
    assert.equal(result.code, 1);
    const xml = result.stdout;
    assert.match(
      xml,
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="spot-import" tests="3" failures="1" errors="0" skipped="0" time="[\d.]+">/,
    );
    assert.equal(xml.match(/<testcase /g)?.length, 3);
    assert.match(
      xml,
      /<testcase classname="spot-import\.validate" name="trails\/broken\.spot\.json" file="trails\/broken\.spot\.json">\n {6}<failure message="latitude must be between -90 and 90; latitude and longitude are probably swapped\. \(and 1 more\)" type="invalid">trails\/broken\.spot\.json:5:19: latitude must be between -90 and 90; latitude and longitude are probably swapped\.\ntrails\/broken\.spot\.json:6:18: Gallery field fld_1_5 is pending \(null\), so the spot needs "state": 2 until its media are uploaded\.<\/failure>/,
    );
    assert.match(xml, /<\/testsuite>\n<\/testsuites>\n$/);
  });

  it('bad input: a missing path, a folder without documents, an unknown flag, an unknown format: one line, exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['validate', 'nowhere', 'good'], /^spot-import: "nowhere" does not exist\.\n$/],
      [['validate', 'empty'], /^empty: no spot documents in this folder .*\nspot-import: No spot documents found in "empty": name them \*\.spot\.json/],
      [['validate', '--colour', 'good'], /^spot-import: unknown option '--colour'\n/],
      // A value given with = may be a secret (an option of another command, mistyped): not repeated.
      [['validate', '--client-secret=SUPERSECRET99', 'good'], /^spot-import: unknown option '--client-secret=…'\n(?![^]*SUPERSECRET99)/],
      [
        ['validate', '--format', 'xml', 'good'],
        /^spot-import: option '-f, --format <format>' argument 'xml' is invalid\. Allowed choices are text, json, sarif, github, junit\.\n/,
      ],
      [['validate'], /^spot-import: missing required argument 'path'\n/],
      [['frobnicate'], /^spot-import: unknown command 'frobnicate'\n/],
    ];
    for (const [args, stderr] of cases) {
      const result = await runCli(args, { cwd: folder.dir });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, stderr, args.join(' '));
      assert.equal(result.stdout, '', args.join(' '));
    }
  });

  it('a 2 GB file given as a document is refused without being read, an unreadable one is reported: exit 1', async () => {
    const huge = folder.path('huge.spot.json');
    writeFileSync(huge, '');
    truncateSync(huge, 2 * 1024 ** 3); // sparse: no disk space used
    // A path that does not exist is a usage error, found before anything is read.
    const result = await runCli(['validate', 'huge.spot.json', 'good', 'missing.spot.json'], { cwd: folder.dir });
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    folder.write('binary.spot.json', '\u0000\u0001 PNG');
    const second = await runCli(['validate', 'huge.spot.json', 'binary.spot.json', 'good'], { cwd: folder.dir });
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stdout, /^huge\.spot\.json: Could not read the file: it is 2048 MiB, larger than a spot document can be\n/);
    assert.match(second.stdout, /\nbinary\.spot\.json:1:1: Not valid JSON: /);
    if (process.getuid?.() !== 0) {
      const locked = folder.write('locked.spot.json', spotText('locked'));
      chmodSync(locked, 0);
      const third = await runCli(['validate', 'locked.spot.json'], { cwd: folder.dir });
      assert.equal(third.code, 1);
      assert.match(third.stdout, /^locked\.spot\.json: Could not read the file: EACCES/);
    }
  });

  it('a document that is not UTF-8 is invalid and says how to fix it, never read with its bytes replaced (exit 1)', async () => {
    // "Café" saved as Latin-1: the é is the byte 0xE9, which is not UTF-8.
    writeFileSync(folder.path('good/latin1.spot.json'), Buffer.from(spotText('latin1', { fld_1_3: 'Café' }), 'latin1'));
    const result = await runCli(['validate', 'good', '--format', 'json'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    const record = jsonLines(result.stdout).find((r) => r.file === 'good/latin1.spot.json')!;
    assert.equal(record.status, 'invalid');
    assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    assert.equal(
      record.reason,
      'Could not read the file: it is not UTF-8 text: save it as UTF-8 and run again (the first byte that is not UTF-8 is on line 9)',
    );
    const text = await runCli(['validate', 'good/latin1.spot.json'], { cwd: folder.dir });
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^good\/latin1\.spot\.json: .*is not UTF-8 text: save it as UTF-8 and run again/);
  });

  it('with a project topic, a document of another topic is invalid, placed on its topic_id', async () => {
    folder.write('spot-import.json', JSON.stringify({ topic: 7 }));
    const result = await runCli(['validate', 'good'], { cwd: folder.dir });
    assert.equal(result.code, 1);
    assert.equal(
      result.stdout,
      'good/one.spot.json:5:19: topic_id is 1, but this project imports into topic 7 (the "topic" of spot-import.json or --topic).\n',
    );
    const flag = await runCli(['validate', '--topic', '1', 'good'], { cwd: folder.dir });
    assert.equal(flag.code, 0, 'the flag wins over the file');
  });

  it('a document that is null or nested 3,000 levels deep is one invalid document; the others are still checked (exit 1)', async () => {
    folder.write('mixed/a1.spot.json', spotText('a1'));
    folder.write('mixed/a2.spot.json', 'null');
    folder.write('mixed/a3.spot.json', spotText('a3'));
    folder.write('mixed/a4.spot.json', '['.repeat(3000) + ']'.repeat(3000));
    folder.write('mixed/a5.spot.json', spotText('a5'));
    const result = await runCli(['validate', '--format', 'json', 'mixed'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    const records = jsonLines(result.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    assert.deepEqual(
      records.map((r) => [r.type, r.file, r.status]),
      [
        ['document', 'mixed/a1.spot.json', 'valid'],
        ['document', 'mixed/a2.spot.json', 'invalid'],
        ['document', 'mixed/a3.spot.json', 'valid'],
        ['document', 'mixed/a4.spot.json', 'invalid'],
        ['document', 'mixed/a5.spot.json', 'valid'],
        ['summary', undefined, undefined],
      ],
    );
    const rules = (record: Record<string, unknown>) => (record.problems as Array<{ rule: string; message: string }>).map((p) => [p.rule, p.message]);
    assert.deepEqual(
      rules(records[1]).map(([rule]) => rule),
      ['spot.schema'],
    );
    assert.deepEqual(rules(records[3]), [['spot.schema', 'The document nests objects and arrays more than 64 levels deep; a spot document needs only a few.']]);
    assert.equal(records[5].message, '5 spot documents checked: 2 invalid, 3 valid.');
  });

  it('two documents with one source_id: the later one is invalid, with the message of the import (exit 1)', async () => {
    folder.write('dupes/d1.spot.json', spotText('dupe-x'));
    folder.write('dupes/d2.spot.json', spotText('dupe-x'));
    folder.write('dupes/d3.spot.json', spotText('other'));
    const result = await runCli(['validate', 'dupes'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    // At the later document's source_id (line 6, column 20 of the pretty-printed document).
    assert.equal(
      result.stdout,
      'dupes/d2.spot.json:6:20: source_id "dupe-x" is also the source_id of dupes/d1.spot.json: both would update one spot, so this one is not imported.\n',
    );
    assert.match(result.stderr, /3 spot documents checked: 1 invalid, 2 valid\./);
  });

  it('a repeated source_id has its place in every format: a SARIF region, GitHub line and col, the JSON finding', async () => {
    folder.write('dupes/d1.spot.json', spotText('dupe-x'));
    folder.write('dupes/d2.spot.json', spotText('dupe-x'));
    const sarif = await runCli(['validate', 'dupes', '--format', 'sarif'], { cwd: folder.dir });
    assert.equal(sarif.code, 1, sarif.stderr);
    const results = (
      JSON.parse(sarif.stdout) as {
        runs: Array<{
          results: Array<{
            ruleId: string;
            locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn: number } } }>;
          }>;
        }>;
      }
    ).runs[0].results;
    assert.equal(results.length, 1, sarif.stdout);
    assert.equal(results[0].ruleId, 'spot.repeatedSourceId');
    assert.deepEqual(
      results[0].locations[0].physicalLocation.region && {
        line: results[0].locations[0].physicalLocation.region.startLine,
        column: results[0].locations[0].physicalLocation.region.startColumn,
      },
      { line: 6, column: 20 },
    );
    const github = await runCli(['validate', 'dupes', '--format', 'github'], { cwd: folder.dir });
    assert.match(github.stdout, /^::error file=dupes\/d2\.spot\.json,line=6,col=20[,:].*source_id "dupe-x" is also the source_id of dupes\/d1\.spot\.json/m);
    const json = jsonLines((await runCli(['validate', 'dupes', '--format', 'json'], { cwd: folder.dir })).stdout);
    const later = json.find((record) => record.file === 'dupes/d2.spot.json') as {
      problems: Array<{ line: number; column: number; rule: string; pointer: string }>;
    };
    assert.deepEqual(
      later.problems.map((problem) => [problem.line, problem.column, problem.rule, problem.pointer]),
      [[6, 20, 'spot.repeatedSourceId', '/data/attributes/source_id']],
    );
  });

  it('a media folder stands for its document', async () => {
    // The media workflow's rule: a media subfolder names a gallery field of the document.
    folder.write('trails/walk.spot.json', spotText('walk', { fld_1_5: null }));
    folder.write('trails/walk.media/fld_1_5/01.jpg', 'jpeg');
    const result = await runCli(['validate', '--format', 'json', 'trails/walk.media'], { cwd: folder.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      jsonLines(result.stdout).map((r) => r.file),
      ['trails/walk.spot.json', undefined],
    );
  });
});
