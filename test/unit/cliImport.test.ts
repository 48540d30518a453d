// spot-import import, run as a real child process against the sandbox over loopback: streaming
// output in every format, exit codes, the journal that lets a second run finish an interrupted or
// failed one without sending anything twice (the media workflow's per-spot journals), and Ctrl-C in
// the middle of a run.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/types';
import { ensureCliBuilt, jsonLines, runCli, scratch, spotText, startCli, sandboxEnv } from './helpers/cliProcess';
import { validateJsonLine, validateSarif } from './helpers/cliSchemas';

describe('spot-import import', function () {
  let sandbox: RunningSandbox | undefined;
  let folder: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    folder?.cleanup();
  });

  async function serve(options: SandboxOptions = {}) {
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT], ...options });
    return sandboxEnv(sandbox.baseUrl);
  }

  function documents(count: number, prefix = 'spot'): Record<string, string> {
    return Object.fromEntries(Array.from({ length: count }, (_, i) => [`spots/${prefix}-${String(i).padStart(3, '0')}.spot.json`, spotText(`${prefix}-${i}`)]));
  }

  /**
   * The source ids the journal remembers (one per source_id imported at least once): lines of
   * each account's journal.jsonl.
   */
  function journals(): string[] {
    const dir = join(folder.dir, '.spot-import', 'journal');
    if (!existsSync(dir)) return [];
    const sourceIds = new Set<string>();
    for (const account of readdirSync(dir)) {
      for (const name of readdirSync(join(dir, account))) {
        if (name === 'journal.jsonl') {
          for (const line of readFileSync(join(dir, account, name), 'utf8')
            .split('\n')
            .filter(Boolean))
            sourceIds.add(JSON.parse(line).sourceId);
        }
      }
    }
    return [...sourceIds].sort();
  }

  it('imports a folder: one line per spot, exit 0, one journal per spot', async () => {
    const env = await serve();
    folder = scratch({ ...documents(3), 'spots/gallery.spot.json': spotText('with-gallery', { state: 2, fld_1_5: null }) });
    const result = await runCli(['import', 'spots', '--concurrency', '1'], { cwd: folder.dir, env });
    assert.equal(result.code, 0, result.stderr);
    // One line per spot as each finishes: in any order.
    const lines = result.stdout.trim().split('\n').sort();
    assert.equal(lines.length, 4);
    assert.match(lines[0], /^spots\/gallery\.spot\.json: imported "with-gallery" as new spot \d+; pending galleries: fld_1_5 = \d+$/);
    assert.match(lines[1], /^spots\/spot-000\.spot\.json: imported "spot-0" as new spot \d+$/);
    assert.match(result.stderr, /4 of 4 documents imported\.\n$/);
    assert.equal(sandbox!.spotCount(), 4);
    assert.equal(journals().length, 4, 'the journal remembers every spot, so a second run sends nothing');
  });

  it('a source_id repeated anywhere in the run is refused for the later document, which names the earlier one as the user wrote it', async () => {
    const env = await serve();
    // Far apart in the run (more than one batch of 256 used to be), in input order.
    folder = scratch({ ...documents(300), 'spots/zz-again.spot.json': spotText('spot-0') });
    const result = await runCli(['import', 'spots', '--concurrency', '4'], { cwd: folder.dir, env });
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /^spots\/zz-again\.spot\.json:6:20: not imported: source_id "spot-0" is also the source_id of spots\/spot-000\.spot\.json: both would update one spot/m,
    );
    assert.equal(sandbox!.spotCount(), 300);
  });

  it('json: the documented shape; a failure is reported and the others still imported (exit 1); a second run sends only what failed', async () => {
    const env = await serve({ maxImportBytes: 400 });
    folder = scratch({
      ...documents(3),
      'spots/too-big.spot.json': spotText('too-big', { fld_1_9: 'x'.repeat(500) }),
      'spots/bad.spot.json': spotText('bad', { latitude: 'north' }),
    });
    const first = await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal(first.code, 1, first.stderr);
    const records = jsonLines(first.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    const byFile = new Map(records.map((r) => [r.file, r]));
    assert.equal(byFile.get('spots/spot-001.spot.json')?.status, 'imported');
    assert.deepEqual(byFile.get('spots/spot-001.spot.json')?.pendingGalleries, []);
    assert.equal(byFile.get('spots/too-big.spot.json')?.status, 'failed');
    assert.match(String(byFile.get('spots/too-big.spot.json')?.reason), /413/);
    const bad = byFile.get('spots/bad.spot.json')!;
    assert.equal(bad.status, 'failed');
    assert.deepEqual(
      (bad.problems as Array<{ line: number; pointer: string }>).map((p) => [p.line, p.pointer]),
      [[7, '/data/attributes/latitude']],
    );
    const summary = records[records.length - 1];
    assert.deepEqual(summary.counts, { imported: 3, failed: 2 });
    assert.equal(summary.exitCode, 1);
    assert.equal(sandbox!.counters.imports, 4, 'the invalid document was never sent');
    assert.equal(journals().length, 3, 'the journal stays for the second run (the refused ones have none)');

    folder.write('spots/spot-002.spot.json', spotText('spot-2', { fld_1_3: 'changed since' }));
    const second = await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal(second.code, 1);
    assert.deepEqual(jsonLines(second.stdout).pop()?.counts, { alreadyImported: 2, imported: 1, failed: 2 });
    assert.equal(sandbox!.counters.imports, 6, 'only the refused document and the changed one were sent again');
    assert.equal(sandbox!.spotBySourceId('spot-2')?.attributes.fld_1_3, 'changed since');
  });

  it('json: a spot imported before still lists the galleries waiting for its media, with their ids', async () => {
    const env = await serve();
    folder = scratch({ 'spots/oak.spot.json': spotText('oak-pending', { state: 2, fld_1_3: null }) });
    const first = jsonLines((await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env })).stdout)[0];
    assert.equal(first.status, 'imported');
    const pending = first.pendingGalleries as Array<{ field: string; galleryId: number }>;
    assert.equal(pending.length, 1);
    const again = jsonLines((await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env })).stdout)[0];
    assert.deepEqual(validateJsonLine(again), [], JSON.stringify(again));
    assert.equal(again.status, 'alreadyImported');
    assert.deepEqual(again.pendingGalleries, pending, 'the gallery to upload into is still named');
    assert.equal(sandbox!.counters.imports, 1);
  });

  it('sarif, github and junit carry the failed imports', async () => {
    const env = await serve();
    folder = scratch({ ...documents(1), 'spots/bad.spot.json': spotText('bad', { longitude: 500 }) });
    const sarif = await runCli(['import', 'spots', '--format', 'sarif'], { cwd: folder.dir, env });
    assert.equal(sarif.code, 1);
    const log = JSON.parse(sarif.stdout);
    assert.deepEqual(validateSarif(log), []);
    assert.deepEqual(
      log.runs[0].results.map((r: { ruleId: string; locations: Array<{ physicalLocation: { region: { startLine: number } } }> }) => [
        r.ruleId,
        r.locations[0].physicalLocation.region.startLine,
      ]),
      [['spot.schema', 8]],
    );
    const github = await runCli(['import', 'spots', '--format', 'github'], { cwd: folder.dir, env });
    assert.equal(
      github.stdout,
      '::error file=spots/bad.spot.json,line=8,col=20,endLine=8,endColumn=23,title=spot.schema::longitude must be between -180 and 180.\n',
    );
    const junit = await runCli(['import', 'spots', '--format', 'junit'], { cwd: folder.dir, env });
    assert.match(junit.stdout, /<testsuite name="spot-import import" tests="2" failures="1" errors="0" skipped="0"/);
    assert.match(junit.stdout, /<testcase classname="spot-import\.import" name="spots\/spot-000\.spot\.json" file="spots\/spot-000\.spot\.json"\/>/);
  });

  it('a document that is not UTF-8 is refused, never sent with its bytes replaced; the others are imported (exit 1)', async () => {
    const env = await serve();
    folder = scratch(documents(1));
    // "Café" saved as Latin-1: the é is the byte 0xE9, which is not UTF-8.
    writeFileSync(folder.path('spots/latin1.spot.json'), Buffer.from(spotText('latin1', { fld_1_3: 'Café' }), 'latin1'));
    for (const extra of [[], ['--no-media'], ['--dry-run']]) {
      const result = await runCli(['import', 'spots', ...extra], { cwd: folder.dir, env });
      assert.equal(result.code, 1, `${extra.join(' ')}: ${result.stderr}`);
      assert.match(
        result.stdout,
        /^spots\/latin1\.spot\.json: not imported: Could not read the file: it is not UTF-8 text: save it as UTF-8 and run again \(the first byte that is not UTF-8 is on line 9\)$/m,
        extra.join(' '),
      );
    }
    assert.equal(sandbox!.spotBySourceId('latin1'), undefined, 'never sent');
    assert.equal(sandbox!.spotCount(), 1);
  });

  it('rejected credentials: exit 2, one line, nothing sent', async () => {
    const env = await serve();
    folder = scratch(documents(2));
    const result = await runCli(['import', 'spots'], { cwd: folder.dir, env: { ...env, SPOT_CLIENT_SECRET: 'wrong' } });
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^spot-import: Nothing was sent\. The client id or secret was rejected by 127\.0\.0\.1:\d+/);
    assert.doesNotMatch(result.stderr, /wrong/, 'the secret is never printed');
    assert.equal(sandbox!.counters.imports, 0);
  });

  it('--dry-run checks everything and sends nothing, without credentials', async () => {
    folder = scratch({ ...documents(2), 'spots/bad.spot.json': spotText('bad', { latitude: 91 }) });
    const result = await runCli(['import', 'spots', '--dry-run'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /^spots\/bad\.spot\.json:7:19: not imported: latitude must be between -90 and 90; latitude and longitude are probably swapped\.\n/m,
    );
    assert.match(result.stdout, /^spots\/spot-000\.spot\.json: valid, would import "spot-0" \(dry run: nothing sent\)$/m);
    assert.match(result.stderr, /Dry run: 2 of 3 documents would be imported, 1 would not; nothing was sent\./);
    assert.deepEqual(journals(), []);
  });

  it('a document that is null or nested 3,000 levels deep is refused; the others are imported and the summary is last (exit 1)', async () => {
    const env = await serve();
    folder = scratch({
      'spots/a1.spot.json': spotText('a1'),
      'spots/a2.spot.json': 'null',
      'spots/a3.spot.json': spotText('a3'),
      'spots/a4.spot.json': '['.repeat(3000) + ']'.repeat(3000),
      'spots/a5.spot.json': spotText('a5'),
    });
    for (const extra of [[], ['--dry-run']]) {
      const result = await runCli(['import', 'spots', '--format', 'json', '--concurrency', '1', ...extra], { cwd: folder.dir, env });
      assert.equal(result.code, 1, `${extra.join(' ')}: ${result.stderr}`);
      const records = jsonLines(result.stdout);
      for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
      const summary = records.pop()!;
      assert.equal(summary.type, 'summary');
      const byFile = new Map(records.map((r) => [r.file, r]));
      const ok = extra.length ? 'wouldImport' : 'imported';
      assert.deepEqual(
        ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => byFile.get(`spots/${name}.spot.json`)?.status),
        [ok, 'failed', ok, 'failed', ok],
        extra.join(' '),
      );
      const deep = byFile.get('spots/a4.spot.json')!;
      assert.deepEqual(
        (deep.problems as Array<{ rule: string; message: string }>).map((p) => [p.rule, p.message]),
        [['spot.schema', 'The document nests objects and arrays more than 64 levels deep; a spot document needs only a few.']],
      );
      assert.deepEqual(summary.counts, extra.length ? { wouldImport: 3, failed: 2 } : { imported: 3, failed: 2 });
    }
    assert.equal(sandbox!.spotCount(), 3);
  });

  it('--dry-run refuses a repeated source_id as the import does, with the same message (exit 1)', async () => {
    const env = await serve();
    folder = scratch({ 'spots/d1.spot.json': spotText('dupe-x'), 'spots/d2.spot.json': spotText('dupe-x'), 'spots/d3.spot.json': spotText('other') });
    // At d2's source_id, in the dry run and the real one alike.
    const line =
      'spots/d2.spot.json:6:20: not imported: source_id "dupe-x" is also the source_id of spots/d1.spot.json: both would update one spot, so this one is not imported.';
    const dry = await runCli(['import', 'spots', '--dry-run'], { cwd: folder.dir });
    assert.equal(dry.code, 1, dry.stderr);
    assert.ok(dry.stdout.split('\n').includes(line), dry.stdout);
    assert.match(dry.stderr, /Dry run: 2 of 3 documents would be imported, 1 would not; nothing was sent\./);
    const real = await runCli(['import', 'spots'], { cwd: folder.dir, env });
    assert.equal(real.code, 1, real.stderr);
    assert.ok(real.stdout.split('\n').includes(line), real.stdout);
    assert.equal(sandbox!.spotCount(), 2);
  });

  it('refuses a bad --concurrency with exit 2', async () => {
    folder = scratch(documents(1));
    for (const value of ['0', '17', 'four']) {
      const result = await runCli(['import', 'spots', '--concurrency', value, '--dry-run'], { cwd: folder.dir });
      assert.equal(result.code, 2, value);
      assert.match(result.stderr, /--concurrency must be a whole number from 1 to 16, not "/);
    }
  });

  it('Ctrl-C stops after the requests in flight (exit 130); a second run finishes it, sending nothing twice', async function () {
    this.timeout(40_000);
    const env = await serve({ faults: { latencyMs: 150 } });
    const total = 30;
    folder = scratch(documents(total));
    const run = startCli(['import', 'spots', '--concurrency', '2'], { cwd: folder.dir, env, timeoutMs: 30_000 });
    await waitFor(
      () => run.stdout().split('\n').length > 4,
      15_000,
      () => run.stderr(),
    );
    run.child.kill('SIGINT');
    const first = await run.done;
    assert.equal(first.code, 130, first.stderr);
    const imported = first.stdout.split('\n').filter((line) => / imported "/.test(line)).length;
    assert.ok(imported >= 4 && imported < total, `${imported} imported before the interruption`);
    assert.match(
      first.stderr,
      new RegExp(
        `Interrupted: ${imported} of ${total} documents imported\\. Run the same command again to finish the other ${total - imported}: the journal in \\.spot-import/ keeps what was done`,
      ),
    );
    assert.ok(
      sandbox!.counters.imports >= imported && sandbox!.counters.imports <= imported + 2,
      'every import reported was sent; an import aborted in flight may have arrived too',
    );
    // Spots the workflow had prepared are reported interrupted; the others not attempted (the first ten, then a count).
    const interrupted = first.stdout.split('\n').filter((line) => /: interrupted: /.test(line)).length;
    const notAttempted = first.stdout.split('\n').filter((line) => /: not attempted: the run was interrupted first$/.test(line)).length;
    const unfinished = total - imported - interrupted;
    if (unfinished > 10) {
      assert.equal(notAttempted, 10, 'the first ten, then a count');
      assert.match(first.stdout, new RegExp(`\n… and ${unfinished - 10} more not attempted\.\n$`));
    } else assert.equal(notAttempted, unfinished);
    assert.equal(journals().length, imported);

    sandbox!.setFaults({});
    const second = await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(jsonLines(second.stdout).pop()?.counts, { alreadyImported: imported, imported: total - imported });
    // The media workflow's stop signal also aborts an import request in flight (only an upload in
    // flight is let finish): such a document is sent again. An import is an upsert, so no spot is
    // created twice; at most one request per worker is repeated.
    assert.ok(sandbox!.counters.imports <= total + 2, `${sandbox!.counters.imports} imports for ${total} documents`);
    assert.equal(sandbox!.spotCount(), total);
    assert.equal(journals().length, total);
  });
});

async function waitFor(condition: () => boolean, timeoutMs: number, context: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; stderr: ${context()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
