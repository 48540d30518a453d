// `spot-import import trees.csv` (the bundled CLI, a real child process) over 300 rows with two
// photos each, killed with SIGKILL at random moments ten times and then run to the end: every row
// is one spot, each gallery holds exactly its row's two photos in cell order, nothing twice.
// The sandbox is durable (--data: a reply is sent only once the change is on disk) and renames
// uploads (--rename-media), so nothing can be matched by name: galleries are checked by the bytes
// the sandbox stored. A proxy in front of it holds upload replies back a little, so kills also
// land after an upload was stored and before the CLI heard of it.
// The kill points are drawn from a seed, printed at the start; SPOT_CRASH_SEED=<seed> replays the
// same draws (the moments are "after n more rows, then m ms", so timing still varies a little).
// The same again with the photos given by web address (fetched from a server on this machine into
// the run's downloads/ first): uploaded exactly once, and fetched again only when a kill cut the
// download short.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { mulberry32 } from '../../src/sandbox/faults';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { CLI, cleanEnv, ensureCliBuilt, sandboxEnv } from './helpers/cliProcess';
import { mediaBytes } from './helpers/workflowFixtures';
import { replyLosingProxy, type ReplyVerdict, type WorkflowProxy } from './helpers/workflowProxy';

const ALL_ROWS = 300;
/** Rows of the run whose photos are fetched: fewer, as each photo is also a request to the photo server. */
const WEB_ROWS = 120;
const ALL_KILLS = 10;
/** 5 × 22 = 110 of 120 rows at most before the last kill: every killed run still has work. */
const WEB_KILLS = 5;
/** Downloads one kill can cut short: a photo each of the spots checked ahead (2 × the default concurrency of 4). */
const CUT_PER_KILL = 8;
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
const JPEG_MARK = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

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
function writeTable(dir: string, rows: number, webBase?: string): Row[] {
  mkdirSync(join(dir, 'photos'));
  const lines = ['id,lat,lon,photo1,photo2'];
  const written: Row[] = [];
  for (let index = 0; index < rows; index++) {
    const id = `t${String(index).padStart(3, '0')}`;
    const photos = ['b', 'a'].map((suffix) => {
      // A fetched photo is told by its first bytes (a JPEG's mark), not by its name.
      const made = mediaBytes(`row ${id} photo ${suffix}`, PHOTO_BYTES);
      const bytes = webBase ? Buffer.concat([JPEG_MARK, made.subarray(JPEG_MARK.length)]) : made;
      writeFileSync(join(dir, 'photos', `${id}-${suffix}.jpg`), bytes);
      return bytes;
    });
    // Given by web address, the photos are fetched from a server serving photos/ (webServer).
    const cell = (name: string) => (webBase ? `${webBase}/photos/${name}` : name);
    lines.push(`${id},${(48 + index / 1000).toFixed(4)},16.3700,${cell(`${id}-b.jpg`)},${cell(`${id}-a.jpg`)}`);
    written.push({ sourceId: `tree-${id}`, photos });
  }
  writeFileSync(join(dir, 'trees.csv'), lines.join('\n') + '\n');
  const mapping = {
    topic_id: 1,
    source_id: 'tree-{id}',
    latitude: 'lat',
    longitude: 'lon',
    media: { fld_1_3: { columns: ['photo1', 'photo2'], ...(webBase ? {} : { folder: 'photos' }) } },
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

/** A server on this machine serving the files of `dir` by their path, counting the requests for each. */
async function webServer(dir: string): Promise<{ base: string; fetched: Map<string, number>; close(): void }> {
  const fetched = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    fetched.set(path, (fetched.get(path) ?? 0) + 1);
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, path));
    } catch {
      return void response.writeHead(404).end();
    }
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(bytes.length) }).end(bytes);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fetched,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('spot-import import of a table: killed at random moments and run again', function () {
  this.timeout(120_000);
  let sandbox: RunningSandbox | undefined;
  let proxy: WorkflowProxy | undefined;
  let web: Awaited<ReturnType<typeof webServer>> | undefined;
  let dir: string | undefined;

  before(() => ensureCliBuilt());

  afterEach(async () => {
    web?.close();
    await proxy?.close();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    proxy = sandbox = dir = web = undefined;
  });

  it(`${ALL_ROWS} rows with 2 photos each, ${ALL_KILLS} SIGKILLs, then done: every row one spot in state 1, every photo exactly once, in cell order`, () =>
    killedAndResumed(false));

  it(`${WEB_ROWS} rows with 2 photos each given by web address, ${WEB_KILLS} SIGKILLs, then done: every photo uploaded exactly once, fetched once unless a kill cut its download`, () =>
    killedAndResumed(true));

  async function killedAndResumed(byAddress: boolean): Promise<void> {
    const ROWS = byAddress ? WEB_ROWS : ALL_ROWS;
    const KILLS = byAddress ? WEB_KILLS : ALL_KILLS;
    const seed = process.env.SPOT_CRASH_SEED ? Number(process.env.SPOT_CRASH_SEED) : Math.floor(Math.random() * 2 ** 31);
    assert.ok(Number.isInteger(seed), `SPOT_CRASH_SEED is a whole number, not ${process.env.SPOT_CRASH_SEED}`);
    // Printed before anything can fail, and named in every assertion below.
    console.log(`      seed ${seed} (replay: SPOT_CRASH_SEED=${seed})`);
    const replay = `(seed ${seed}: SPOT_CRASH_SEED=${seed} replays it)`;
    const random = mulberry32(seed);

    dir = mkdtempSync(join(tmpdir(), 'spot-rows-crash-'));
    if (byAddress) web = await webServer(dir);
    const rows = writeTable(dir, ROWS, web?.base);
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
    const firstFailure = last.records.find((record) => record.type !== 'summary' && record.status !== 'imported' && record.status !== 'alreadyImported');
    assert.equal(
      last.code,
      0,
      `the last run finished every row: ${JSON.stringify(summary)} ${JSON.stringify(firstFailure)} ${last.stderr.slice(-1000)} ${replay}`,
    );
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
    if (web) {
      // A download a kill cut short is fetched again (it never reached the cache); every other once.
      const counts = [...web.fetched.values()];
      assert.equal(web.fetched.size, ROWS * 2, `every photo was fetched ${replay}`);
      const again = counts.filter((count) => count > 1).length;
      assert.ok(again <= KILLS * CUT_PER_KILL, `only downloads a kill cut short were fetched again: ${again} ${replay}`);
      console.log(`      ${counts.reduce((sum, count) => sum + count, 0)} downloads of ${ROWS * 2} photos`);
    }
  }
});
