// `spot-import import trees.csv` (the bundled CLI, a real child process) over 300 rows with two
// photos each, killed with SIGKILL at random moments ten times and then run to the end: every row
// is one spot, each gallery holds exactly its row's two photos in cell order, nothing twice.
// The sandbox is durable (--data: a reply is sent only once the change is on disk) and renames
// uploads (--rename-media), so nothing can be matched by name: galleries are checked by the bytes
// the sandbox stored. A proxy in front of it holds upload replies back a little, so kills also
// land after an upload was stored and before the CLI heard of it.
// The kill points are drawn from a seed, printed at the start; SPOT_CRASH_SEED=<seed> replays the
// same draws (the moments are "after n more rows, then m ms", so timing still varies a little).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { mulberry32 } from '../../src/sandbox/faults';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { CLI, cleanEnv, ensureCliBuilt, sandboxEnv } from './helpers/cliProcess';
import { mediaBytes } from './helpers/workflowFixtures';
import { replyLosingProxy, type ReplyVerdict, type WorkflowProxy } from './helpers/workflowProxy';

const ROWS = 300;
const KILLS = 10;
const PHOTO_BYTES = 2048;
// Rows a killed run gets to report as done before its kill is armed: at most 10 × 22 = 220 of
// 300, so every one of the ten runs still has work when it is killed.
const MIN_ROWS_BEFORE_KILL = 3;
const MAX_ROWS_BEFORE_KILL = 22;
// Then the kill comes this many ms later, at most: rows, imports and uploads are in flight.
const MAX_KILL_DELAY_MS = 60;
// Upload replies are held this long by the proxy: stored by the sandbox, not yet heard of.
const UPLOAD_REPLY_DELAY_MS = 15;
const FIRST_MEDIA_ID = 300_001;

interface Row {
  sourceId: string;
  /** The two photos in cell order (photo1, photo2). */
  photos: Buffer[];
}

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  records: Array<Record<string, unknown>>;
  stderr: string;
}

function digest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

/**
 * trees.csv with `rows` rows and trees.mapping.json beside it, photos in photos/. The photos' names
 * sort the other way round from their cells (photo1 is "<id>-b.jpg", photo2 "<id>-a.jpg"): a
 * gallery in name order would be in the wrong order.
 */
function writeTable(dir: string, rows: number): Row[] {
  mkdirSync(join(dir, 'photos'));
  const lines = ['id,lat,lon,photo1,photo2'];
  const written: Row[] = [];
  for (let index = 0; index < rows; index++) {
    const id = `t${String(index).padStart(3, '0')}`;
    const photos = ['b', 'a'].map((suffix) => {
      const bytes = mediaBytes(`row ${id} photo ${suffix}`, PHOTO_BYTES);
      writeFileSync(join(dir, 'photos', `${id}-${suffix}.jpg`), bytes);
      return bytes;
    });
    lines.push(`${id},${(48 + index / 1000).toFixed(4)},16.3700,${id}-b.jpg,${id}-a.jpg`);
    written.push({ sourceId: `tree-${id}`, photos });
  }
  writeFileSync(join(dir, 'trees.csv'), lines.join('\n') + '\n');
  const mapping = {
    topic_id: 1,
    source_id: 'tree-{id}',
    latitude: 'lat',
    longitude: 'lon',
    media: { fld_1_3: { columns: ['photo1', 'photo2'], folder: 'photos' } },
  };
  writeFileSync(join(dir, 'trees.mapping.json'), JSON.stringify(mapping, null, 2));
  return written;
}

/**
 * `spot-import import trees.csv --format json` in `dir`. With `kill`, SIGKILL comes `delayMs`
 * after the run has reported `afterRows` rows it did work for (not those an earlier run finished).
 */
function runImport(baseUrl: string, dir: string, kill?: { afterRows: number; delayMs: number }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'import', 'trees.csv', '--format', 'json'], {
      cwd: dir,
      env: cleanEnv({ ...sandboxEnv(baseUrl), NO_COLOR: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const records: Array<Record<string, unknown>> = [];
    let pending = '';
    let stderr = '';
    let worked = 0;
    let killer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines.filter(Boolean)) {
        const record = JSON.parse(line) as Record<string, unknown>;
        records.push(record);
        if (record.type === 'spot' && record.status !== 'alreadyImported') worked++;
      }
      if (kill && !killer && worked >= kill.afterRows) killer = setTimeout(() => child.kill('SIGKILL'), kill.delayMs);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`spot-import import did not finish within 45 s; stderr: ${stderr.slice(-2000)}`));
    }, 45_000);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      clearTimeout(limit);
      resolve({ code, signal, records, stderr });
    });
  });
}

describe('spot-import import of a table: killed at random moments and run again', function () {
  this.timeout(120_000);
  let sandbox: RunningSandbox | undefined;
  let proxy: WorkflowProxy | undefined;
  let dir: string | undefined;

  before(() => ensureCliBuilt());

  afterEach(async () => {
    await proxy?.close();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    proxy = sandbox = dir = undefined;
  });

  it(`${ROWS} rows with 2 photos each, ${KILLS} SIGKILLs, then done: every row one spot in state 1, every photo exactly once, in cell order`, async () => {
    const seed = process.env.SPOT_CRASH_SEED ? Number(process.env.SPOT_CRASH_SEED) : Math.floor(Math.random() * 2 ** 31);
    assert.ok(Number.isInteger(seed), `SPOT_CRASH_SEED is a whole number, not ${process.env.SPOT_CRASH_SEED}`);
    // Printed before anything can fail, and named in every assertion below.
    console.log(`      seed ${seed} (replay: SPOT_CRASH_SEED=${seed})`);
    const replay = `(seed ${seed}: SPOT_CRASH_SEED=${seed} replays it)`;
    const random = mulberry32(seed);

    dir = mkdtempSync(join(tmpdir(), 'spot-rows-crash-'));
    const rows = writeTable(dir, ROWS);
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT], dataDir: join(dir, 'sandbox-data'), renameMedia: true });
    proxy = await replyLosingProxy(sandbox.baseUrl, async ({ method, path }): Promise<ReplyVerdict> => {
      if (method === 'POST' && /\/media$/.test(path)) await new Promise((resolve) => setTimeout(resolve, UPLOAD_REPLY_DELAY_MS));
      return 'pass';
    });

    const runs: CliRun[] = [];
    for (let round = 0; round < KILLS; round++) {
      const afterRows = MIN_ROWS_BEFORE_KILL + Math.floor(random() * (MAX_ROWS_BEFORE_KILL - MIN_ROWS_BEFORE_KILL + 1));
      const delayMs = Math.floor(random() * (MAX_KILL_DELAY_MS + 1));
      const run = await runImport(proxy.url, dir, { afterRows, delayMs });
      assert.ok(
        run.signal === 'SIGKILL',
        `run ${round + 1} was killed (after ${afterRows} rows + ${delayMs} ms), not ended with ${run.code}: ${run.stderr.slice(-1000)} ${replay}`,
      );
      runs.push(run);
    }
    const last = await runImport(proxy.url, dir);
    runs.push(last);
    const summary = last.records.find((record) => record.type === 'summary');
    assert.equal(last.code, 0, `the last run finished every row: ${JSON.stringify(summary)} ${last.stderr.slice(-1000)} ${replay}`);
    assert.equal(summary?.message, `${ROWS} rows of trees.csv imported.`, replay);

    // Every row exactly one spot, in state 1, with its own gallery holding its two photos in cell order.
    assert.equal(sandbox.spotCount(), ROWS, `the sandbox holds ${ROWS} spots ${replay}`);
    const expected = new Map<number, string[]>();
    for (const row of rows) {
      const spot = sandbox.spotBySourceId(row.sourceId);
      assert.ok(spot, `${row.sourceId} was imported ${replay}`);
      assert.equal(spot.attributes.state, 1, `${row.sourceId} is state 1 ${replay}`);
      const galleryId: unknown = spot.attributes.fld_1_3;
      assert.equal(typeof galleryId, 'number', `${row.sourceId} has its gallery ${replay}`);
      assert.ok(!expected.has(galleryId as number), `${row.sourceId}'s gallery ${String(galleryId)} is no other row's ${replay}`);
      const gallery = sandbox.gallery(galleryId as number);
      assert.ok(gallery, `gallery ${String(galleryId)} exists ${replay}`);
      const held: string[] = gallery.mediaIds.map((id) => digest(readFileSync(sandbox!.media(id)!.path)));
      const photos = row.photos.map(digest);
      assert.deepEqual(held, photos, `gallery ${gallery.id} (${row.sourceId}) holds exactly its two photos, in cell order ${replay}`);
      expected.set(gallery.id, photos);
    }

    // No media anywhere but those: every media the sandbox ever stored (ids are handed out in
    // order, one per stored upload) is in its row's gallery, and no content is stored twice.
    const seen = new Map<string, number>();
    let stored = 0;
    for (let id = FIRST_MEDIA_ID; id < FIRST_MEDIA_ID + sandbox.counters.uploads; id++) {
      const media = sandbox.media(id);
      if (!media) continue;
      stored++;
      const hash = digest(readFileSync(media.path));
      assert.ok(!seen.has(hash), `media ${id} holds what media ${seen.get(hash)} holds ${replay}`);
      seen.set(hash, id);
      assert.ok(expected.get(media.galleryId)?.includes(hash), `media ${id} is in gallery ${media.galleryId}, which is its row's ${replay}`);
    }
    assert.equal(stored, ROWS * 2, `the sandbox stores ${ROWS * 2} media, one per photo ${replay}`);

    // What the runs did, for a reader of the log (uploads found in their gallery after a kill
    // rather than sent again; uploads sent; requests the sandbox got).
    const galleries = runs.flatMap((run) =>
      run.records
        .filter((record) => record.type === 'spot')
        .flatMap((record) => (record.galleries as Array<{ uploaded: number; resolved: number }> | undefined) ?? []),
    );
    const uploaded = galleries.reduce((sum, gallery) => sum + gallery.uploaded, 0);
    const resolved = galleries.reduce((sum, gallery) => sum + gallery.resolved, 0);
    console.log(
      `      ${runs.length} runs: ${uploaded} uploads reported, ${resolved} found in their gallery after a kill; the sandbox got ${sandbox.counters.uploads} uploads and ${sandbox.counters.imports} imports`,
    );
  });
});
