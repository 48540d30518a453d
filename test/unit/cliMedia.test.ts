// spot-import import with media, run as a real child process against the sandbox over loopback:
// each document's <name>.media/ files go into its galleries in name order, the document gets its
// gallery ids and state 1, a second run sends nothing, --no-write-back leaves the documents alone
// (the journal remembers), and Ctrl-C in the middle is finished by a second run with every file
// sent exactly once. validate reports media problems against the document and names the file.
import * as assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/types';
import { ROOT, ensureCliBuilt, jsonLines, runCli, scratch, spotText, startCli, sandboxEnv } from './helpers/cliProcess';
import { validateJsonLine, validateSarif } from './helpers/cliSchemas';

describe('spot-import import with media', function () {
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

  /** `count` spots, each with a gallery field and `files` media files named out of order on purpose. */
  function spotsWithMedia(count: number, files: number): Record<string, string> {
    const entries: Record<string, string> = {};
    for (let i = 0; i < count; i++) {
      entries[`spots/walk-${i}.spot.json`] = spotText(`walk-${i}`, { fld_1_5: null });
      for (let f = files; f >= 1; f--) entries[`spots/walk-${i}.media/fld_1_5/${f}.jpg`] = `jpeg ${i} ${f} ${'x'.repeat(f)}`;
    }
    return entries;
  }

  function galleryFiles(sourceId: string): string[] {
    const spot = sandbox!.spotBySourceId(sourceId)!;
    const gallery = sandbox!.gallery(spot.attributes.fld_1_5 as number)!;
    return gallery.mediaIds.map((id) => sandbox!.media(id)!.file);
  }

  it('uploads each gallery in name order, writes the gallery ids and state 1 back; a second run sends nothing', async () => {
    const env = await serve();
    folder = scratch({ ...spotsWithMedia(2, 3), 'spots/plain.spot.json': spotText('plain') });
    const first = await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal(first.code, 0, first.stderr);
    const records = jsonLines(first.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    const walk = records.find((record) => record.file === 'spots/walk-0.spot.json')!;
    assert.equal(walk.status, 'imported');
    assert.equal(walk.state, 1);
    assert.equal(walk.writeBack, 'written');
    const galleries = walk.galleries as Array<{ field: string; galleryId: number; files: number; uploaded: number; order: string }>;
    assert.deepEqual(
      galleries.map((g) => [g.field, g.files, g.uploaded]),
      [['fld_1_5', 3, 3]],
    );
    for (const i of [0, 1]) {
      assert.deepEqual(galleryFiles(`walk-${i}`), ['1.jpg', '2.jpg', '3.jpg'], 'the gallery holds its files in name order');
      const written = JSON.parse(readFileSync(folder.path(`spots/walk-${i}.spot.json`), 'utf8')).data.attributes;
      const onService = sandbox!.spotBySourceId(`walk-${i}`)!.attributes;
      assert.equal(written.fld_1_5, onService.fld_1_5, 'the document holds its gallery id');
      assert.equal(written.state, 1);
      assert.equal(onService.state, 1);
    }
    assert.equal(sandbox!.counters.uploads, 6);

    const counters = { ...sandbox!.counters };
    const second = await runCli(['import', 'spots'], { cwd: folder.dir, env });
    assert.equal(second.code, 0, second.stderr);
    assert.match(
      second.stdout,
      /^spots\/walk-1\.spot\.json: already imported "walk-1" as spot \d+ \(state 1\); media: fld_1_5 = \d+ \(3 files: 0 uploaded, 3 skipped\)/m,
    );
    assert.equal(sandbox!.counters.imports, counters.imports, 'nothing imported again');
    assert.equal(sandbox!.counters.uploads, counters.uploads, 'nothing uploaded again');
  });

  it('a media file added after the spot was imported is sent, and the spot is reported imported, not "already imported; nothing sent"', async () => {
    const env = await serve();
    folder = scratch(spotsWithMedia(1, 2));
    const first = await runCli(['import', 'spots'], { cwd: folder.dir, env });
    assert.equal(first.code, 0, first.stderr);
    writeFileSync(folder.path('spots/walk-0.media/fld_1_5/9.jpg'), 'jpeg 0 9 added later');
    const uploads = sandbox!.counters.uploads;
    const second = await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(sandbox!.counters.uploads, uploads + 1, 'the added file was sent');
    const records = jsonLines(second.stdout);
    assert.deepEqual(records.pop()?.counts, { imported: 1 });
    assert.equal(records.find((record) => record.file === 'spots/walk-0.spot.json')?.status, 'imported');
    const text = await runCli(['import', 'spots'], { cwd: folder.dir, env });
    assert.match(text.stdout, /already imported "walk-0"/, 'a run that sends nothing says so');
  });

  it('--no-write-back leaves the documents as they are; the journal remembers, so a second run sends nothing', async () => {
    const env = await serve();
    folder = scratch(spotsWithMedia(1, 2));
    const before = readFileSync(folder.path('spots/walk-0.spot.json'), 'utf8');
    const first = await runCli(['import', 'spots', '--no-write-back'], { cwd: folder.dir, env });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /gallery ids kept in the journal \(--no-write-back\)/);
    assert.equal(readFileSync(folder.path('spots/walk-0.spot.json'), 'utf8'), before);
    assert.deepEqual(galleryFiles('walk-0'), ['1.jpg', '2.jpg']);
    const counters = { ...sandbox!.counters };
    const second = await runCli(['import', 'spots', '--no-write-back', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(jsonLines(second.stdout).pop()?.counts, { alreadyImported: 1 });
    assert.equal(sandbox!.counters.imports, counters.imports);
    assert.equal(sandbox!.counters.uploads, counters.uploads);
  });

  it('--keep-in-progress leaves the spots in state 2; --dry-run checks the media and sends nothing', async () => {
    const env = await serve();
    folder = scratch({ ...spotsWithMedia(1, 1), 'spots/empty.spot.json': spotText('empty', { fld_1_5: null }), 'spots/empty.media/fld_1_5/a.jpg': '' });
    const dry = await runCli(['import', 'spots', '--dry-run'], { cwd: folder.dir });
    assert.equal(dry.code, 1, dry.stderr);
    assert.match(dry.stdout, /^spots\/empty\.spot\.json:\d+:\d+: not imported: spots\/empty\.media\/fld_1_5\/a\.jpg: fld_1_5\/a\.jpg: the file is empty\.$/m);
    assert.equal(sandbox!.counters.imports, 0);
    folder.write('spots/empty.media/fld_1_5/a.jpg', 'now with content');
    const kept = await runCli(['import', 'spots', '--keep-in-progress'], { cwd: folder.dir, env });
    assert.equal(kept.code, 0, kept.stderr);
    assert.equal(sandbox!.spotBySourceId('walk-0')!.attributes.state, 2);
    assert.equal(JSON.parse(readFileSync(folder.path('spots/walk-0.spot.json'), 'utf8')).data.attributes.state, 2);
  });

  it('--dry-run with --no-media applies the rules the real run would: a pending gallery without state 2 is refused', async () => {
    const env = await serve();
    folder = scratch();
    // The example spot with a pending gallery (fld_1_10: null), no "state", and its media folder.
    cpSync(join(ROOT, 'examples', 'spots', 'forest-trail.spot.json'), folder.path('spots/forest-trail.spot.json'));
    cpSync(join(ROOT, 'examples', 'spots', 'forest-trail.media'), folder.path('spots/forest-trail.media'), { recursive: true });
    const dry = await runCli(['import', 'spots', '--no-media', '--dry-run'], { cwd: folder.dir });
    const real = await runCli(['import', 'spots', '--no-media'], { cwd: folder.dir, env });
    assert.equal(real.code, 1, real.stderr);
    assert.match(
      real.stdout,
      /^spots\/forest-trail\.spot\.json:\d+:\d+: not imported: Gallery field fld_1_10 is pending \(null\), so the spot needs "state": 2/m,
    );
    assert.equal(dry.code, real.code, dry.stdout + dry.stderr);
    assert.equal(dry.stdout, real.stdout, 'the dry run says what the real run does');
    assert.equal(sandbox!.counters.imports, 0);
    // With its media the same document is fine: it is imported with state 2 first.
    const withMedia = await runCli(['import', 'spots', '--dry-run'], { cwd: folder.dir });
    assert.equal(withMedia.code, 0, withMedia.stdout + withMedia.stderr);
  });

  it('Ctrl-C in the middle of a media import (exit 130); a second run finishes it with every file sent exactly once', async function () {
    this.timeout(60_000);
    const env = await serve({ renameMedia: true, faults: { latencyMs: 120, appliesTo: ['import', 'upload', 'gallery'] } });
    const count = 6;
    const files = 4;
    folder = scratch(spotsWithMedia(count, files));
    const run = startCli(['import', 'spots', '--concurrency', '2'], { cwd: folder.dir, env, timeoutMs: 45_000 });
    await waitFor(
      () => sandbox!.counters.uploads >= 5,
      30_000,
      () => run.stderr(),
    );
    run.child.kill('SIGINT');
    const first = await run.done;
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stderr, /Interrupted: \d+ of 6 documents imported\. Run the same command again to finish the other \d+/);
    assert.ok(sandbox!.counters.uploads < count * files, `${sandbox!.counters.uploads} uploads before the interruption`);

    sandbox!.setFaults({});
    const second = await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env, timeoutMs: 30_000 });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(sandbox!.counters.uploads, count * files, 'every file was sent exactly once over both runs');
    for (let i = 0; i < count; i++) {
      const spot = sandbox!.spotBySourceId(`walk-${i}`)!;
      assert.equal(spot.attributes.state, 1);
      const gallery = sandbox!.gallery(spot.attributes.fld_1_5 as number)!;
      assert.equal(gallery.mediaIds.length, files, `walk-${i} holds each file once`);
      const sizes = gallery.mediaIds.map((id) => sandbox!.media(id)!.size);
      assert.deepEqual(
        sizes,
        [...sizes].sort((a, b) => a - b),
        `walk-${i} is in name order (the files grow with their number)`,
      );
    }
  });
  it('SIGTERM (a CI job timed out or cancelled) aborts uploads that hang at once, like a second Ctrl-C (exit 130); the next run settles them, every file once', async function () {
    this.timeout(60_000);
    // Uploads take a minute to answer: a SIGTERM that let them finish would outlast the run's bound.
    const env = await serve({ faults: { latencyMs: 60_000, appliesTo: ['upload'] } });
    const files = 2;
    folder = scratch(spotsWithMedia(1, files));
    const run = startCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env, timeoutMs: 20_000 });
    // The spot reads its gallery just before its first upload.
    await waitFor(
      () => sandbox!.counters.galleryReads >= 1,
      30_000,
      () => run.stderr(),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    run.child.kill('SIGTERM');
    const first = await run.done;
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stderr, /Aborting the uploads in flight/);
    assert.doesNotMatch(first.stderr, /uploads in flight finish/, 'a SIGTERM does not wait for them');
    assert.match(first.stderr, /Interrupted: 0 of 1 documents imported\. Run the same command again/);

    sandbox!.setFaults({});
    const second = await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env, timeoutMs: 30_000 });
    assert.equal(second.code, 0, second.stderr);
    const spot = sandbox!.spotBySourceId('walk-0')!;
    assert.equal(sandbox!.gallery(spot.attributes.fld_1_5 as number)!.mediaIds.length, files, 'walk-0 holds each file once');
  });
  it('a second Ctrl-C aborts uploads that hang: the run ends with its summary (exit 130), and the next run settles them, every file once', async function () {
    this.timeout(60_000);
    // Uploads take a minute to answer: the first Ctrl-C lets them finish, the second must not wait.
    const env = await serve({ faults: { latencyMs: 60_000, appliesTo: ['upload'] } });
    const count = 2;
    const files = 2;
    folder = scratch(spotsWithMedia(count, files));
    const run = startCli(['import', 'spots', '--concurrency', '2', '--format', 'json'], { cwd: folder.dir, env, timeoutMs: 45_000 });
    // Each spot reads its gallery just before its first upload; the sandbox counts an upload only once it answers.
    await waitFor(
      () => sandbox!.counters.galleryReads >= count,
      30_000,
      () => run.stderr(),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    run.child.kill('SIGINT');
    await waitFor(
      () => /Stopping/.test(run.stderr()),
      10_000,
      () => run.stderr(),
    );
    run.child.kill('SIGINT');
    const first = await run.done;
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stderr, /Aborting the uploads in flight/);
    assert.match(first.stderr, /Interrupted: \d+ of 2 documents imported\. Run the same command again/);
    assert.ok(jsonLines(first.stdout).length >= 1, `the spots are reported on stdout: ${first.stdout}`);

    sandbox!.setFaults({});
    const second = await runCli(['import', 'spots', '--format', 'json'], { cwd: folder.dir, env, timeoutMs: 30_000 });
    assert.equal(second.code, 0, second.stderr);
    for (let i = 0; i < count; i++) {
      const spot = sandbox!.spotBySourceId(`walk-${i}`)!;
      assert.equal(spot.attributes.state, 1);
      assert.equal(sandbox!.gallery(spot.attributes.fld_1_5 as number)!.mediaIds.length, files, `walk-${i} holds each file once`);
    }
  });
});

describe('spot-import validate with media', function () {
  let folder: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  afterEach(() => folder?.cleanup());

  it('reports an unknown subfolder, an empty file and a type not accepted, naming the file (exit 1)', async () => {
    folder = scratch({
      'spots/walk.spot.json': spotText('walk', { fld_1_5: null }),
      'spots/walk.media/fld_1_5/01.jpg': 'jpeg',
      'spots/walk.media/fld_1_5/02.jpg': '',
      'spots/walk.media/fld_1_5/notes.exe': 'MZ',
      'spots/walk.media/fld_9_9/x.jpg': 'jpeg',
      'spots/fine.spot.json': spotText('fine', { fld_1_5: null }),
      'spots/fine.media/a.png': 'png',
    });
    const text = await runCli(['validate', 'spots'], { cwd: folder.dir });
    assert.equal(text.code, 1, text.stderr);
    const lines = text.stdout.trim().split('\n');
    assert.ok(
      lines.some((line) => /^spots\/walk\.spot\.json:\d+:\d+: spots\/walk\.media\/fld_1_5\/02\.jpg: fld_1_5\/02\.jpg: the file is empty\.$/.test(line)),
      text.stdout,
    );
    assert.ok(
      lines.some((line) => /^spots\/walk\.spot\.json:\d+:\d+: spots\/walk\.media\/fld_1_5\/notes\.exe: fld_1_5\/notes\.exe: .* is not accepted/.test(line)),
      text.stdout,
    );
    assert.ok(
      lines.some((line) =>
        /^spots\/walk\.spot\.json:\d+:\d+: spots\/walk\.media: The media folder walk\.media\/fld_9_9 names no gallery field of this document/.test(line),
      ),
      text.stdout,
    );
    assert.ok(!lines.some((line) => line.startsWith('spots/fine')), 'files directly in the media folder of a single gallery field are fine');
    assert.match(text.stderr, /2 spot documents checked: 1 invalid, 1 valid\./);

    const json = await runCli(['validate', 'spots', '--format', 'json'], { cwd: folder.dir });
    const records = jsonLines(json.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    const problems = records.find((record) => record.file === 'spots/walk.spot.json')!.problems as Array<{ rule: string; mediaFile?: string }>;
    assert.deepEqual(problems.map((p) => [p.rule, p.mediaFile]).sort(), [
      ['spot.media', 'spots/walk.media'],
      ['spot.media', 'spots/walk.media/fld_1_5/02.jpg'],
      ['spot.media', 'spots/walk.media/fld_1_5/notes.exe'],
    ]);
    const sarif = await runCli(['validate', 'spots', '--format', 'sarif'], { cwd: folder.dir });
    const log = JSON.parse(sarif.stdout);
    assert.deepEqual(validateSarif(log), []);
    const empty = log.runs[0].results.find((r: { message: { text: string } }) => /02\.jpg/.test(r.message.text));
    assert.equal(empty.ruleId, 'spot.media');
    assert.equal(empty.relatedLocations[0].physicalLocation.artifactLocation.uri, 'spots/walk.media/fld_1_5/02.jpg');
  });
});

async function waitFor(condition: () => boolean, timeoutMs: number, context: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; stderr: ${context()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
