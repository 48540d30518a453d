// (j) Photos given by web address: a table of rows, each naming 3 photos of 3 to 5 MB by their
// address on a photo server (a process of its own on this machine), imported as `spot-import
// import` does it (rowSource, runImport with a PhotoFetcher: fetched into the cache, checked,
// uploaded, the gallery ordered, the final import), against a `curl -o` of each photo then a
// `curl -F` of it into a gallery made before the clock starts, over the same files in the same
// run, at the same concurrency (4 curl loops, each fetching and sending its spots' photos one after
// the other). Each side against a sandbox process of its own; rounds alternate which side goes
// first. Bytes per second are the photos' bytes over the wall time. The photo server counts each
// photo's requests (each must be fetched once) and the bench counts the workflow's reads of each
// cached file (each read at most once). Memory growth is the workflow's peak RSS over its RSS
// just before it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { PhotoFetcher, journalAccountOf, runImport } from '../src/core';
import { openMappedTable, parseMapping, rowSource } from '../src/core/rows';
import { DEMO_CLIENT } from '../src/sandbox/types';
import { countFileReads } from '../test/unit/helpers/fileReads';
import { median } from './sandboxProcess';
import { pendingGalleries, startService, type Service } from './photos.bench';
import { testAccounts } from '../test/unit/helpers/testAccounts';

const CONCURRENCY = 4;
const PER_ROW = 3;
const MB = 1_000_000;
const JPEG_MARK = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

export interface WebPhotosFigures {
  rows: number;
  megabytes: number;
  workflowMBps: number;
  curlMBps: number;
  ratio: number;
  perRoundRatio: number;
  /** Requests the photo server got per photo while the workflow ran: most and least. */
  fetches: { max: number; min: number };
  /** Reads of each cached photo by the workflow, over every round: most. */
  maxCacheReads: number;
  memoryGrowthMiB: number;
  maxMemoryGrowthMiB: number;
}

export async function benchWebPhotos(distDir: string, scratch: string, rows: number, rounds: number): Promise<WebPhotosFigures> {
  const folder = join(scratch, 'web-photos');
  const photos = writePhotos(join(folder, 'served'), rows);
  const bytes = photos.reduce((sum, photo) => sum + photo.size, 0);
  const server = await startPhotoServer(join(folder, 'served'));
  const rates = { workflow: [] as number[], curl: [] as number[] };
  const perRound: number[] = [];
  const growth: number[] = [];
  const fetches = { max: 0, min: Infinity };
  let maxCacheReads = 0;
  try {
    for (let round = 0; round <= rounds; round++) {
      const sides = round % 2 === 0 ? (['workflow', 'curl'] as const) : (['curl', 'workflow'] as const);
      const rate: Partial<Record<'workflow' | 'curl', number>> = {};
      for (const side of sides) {
        const service = await startService(distDir);
        const work = join(folder, `${side}-${round}`);
        mkdirSync(work, { recursive: true });
        try {
          await server.reset();
          let seconds: number;
          if (side === 'workflow') {
            const { table, mapping } = await writeTable(work, server.base, rows, `${side}-${round}`);
            const fetcher = new PhotoFetcher({ cacheDir: join(work, '.spot-import', 'downloads') });
            global.gc?.();
            const rssBefore = process.memoryUsage().rss;
            let peak = rssBefore;
            const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
            const counter = await countFileReads();
            const streams = countReadStreams();
            const started = process.hrtime.bigint();
            let outcome;
            try {
              outcome = await runImport(rowSource(table, mapping), {
                client: service.client,
                journal: { accounts: testAccounts, dir: join(work, '.spot-import'), account: journalAccountOf(service.client.apiRoot, DEMO_CLIENT.clientId) },
                concurrency: CONCURRENCY,
                writeBack: false,
                fetchPhoto: (url) => fetcher.fetch(url),
              });
            } finally {
              counter.restore();
              streams.restore();
              clearInterval(sampler);
            }
            seconds = Number(process.hrtime.bigint() - started) / 1e9;
            peak = Math.max(peak, process.memoryUsage().rss);
            if (outcome.totals.done !== rows || outcome.totals.uploaded !== rows * PER_ROW)
              throw new Error(`the workflow did not finish: ${JSON.stringify(outcome.totals)}`);
            const cache = join(work, '.spot-import', 'downloads');
            for (const name of readdirSync(cache).filter((entry) => !entry.endsWith('.json'))) {
              // A cached photo is read through a stream (the upload's) or whole (a small one the check holds).
              maxCacheReads = Math.max(maxCacheReads, counter.of(join(cache, name)).opens + streams.of(join(cache, name)));
            }
            const counts = await server.counts();
            for (const photo of photos) {
              const count = counts[photo.name] ?? 0;
              fetches.max = Math.max(fetches.max, count);
              fetches.min = Math.min(fetches.min, count);
            }
            if (round > 0) growth.push((peak - rssBefore) / 1048576);
          } else {
            const galleries = await pendingGalleries(service.client, rows, `${side}-${round}`);
            const started = process.hrtime.bigint();
            await curlLoops(service, server.base, work, galleries);
            seconds = Number(process.hrtime.bigint() - started) / 1e9;
            const counters = await service.sandbox.counters();
            if (counters.uploads !== rows * PER_ROW) throw new Error(`curl made ${counters.uploads} uploads, not ${rows * PER_ROW}`);
          }
          if (round > 0) rates[side].push((rate[side] = bytes / MB / seconds));
        } finally {
          await service.stop();
          rmSync(work, { recursive: true, force: true });
        }
      }
      if (round > 0) perRound.push(rate.workflow! / rate.curl!);
    }
  } finally {
    server.stop();
  }
  return {
    rows,
    megabytes: bytes / MB,
    workflowMBps: median(rates.workflow),
    curlMBps: median(rates.curl),
    ratio: median(rates.workflow) / median(rates.curl),
    perRoundRatio: median(perRound),
    fetches,
    maxCacheReads,
    memoryGrowthMiB: median(growth),
    maxMemoryGrowthMiB: Math.max(...growth),
  };
}

export function printWebPhotos(figures: WebPhotosFigures): void {
  console.log(
    `(j) photos by web address: ${figures.rows} rows with 3 photos of 3 to 5 MB each (${figures.megabytes.toFixed(0)} MB) at concurrency ${CONCURRENCY}`,
  );
  console.log(`    fetch + import       ${figures.workflowMBps.toFixed(1)} MB/s`);
  console.log(`    curl -o, curl -F     ${figures.curlMBps.toFixed(1)} MB/s  (4 loops, the same photos into galleries made before)`);
  console.log(
    `    workflow / curl      ${figures.ratio.toFixed(2)}  (median per round ${figures.perRoundRatio.toFixed(2)}; goal ≥ 0.90) ${figures.ratio >= 0.9 ? 'met' : 'NOT MET'}`,
  );
  const once = figures.fetches.max === 1 && figures.fetches.min === 1 && figures.maxCacheReads <= 1;
  console.log(
    `    fetches, cache reads ${figures.fetches.min}–${figures.fetches.max} requests per photo, at most ${figures.maxCacheReads} read(s) of each cached file  (goal: once, at most once) ${once ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `    memory growth        ${figures.memoryGrowthMiB.toFixed(1)} MiB median, ${figures.maxMemoryGrowthMiB.toFixed(1)} MiB max  (goal < 64) ${figures.maxMemoryGrowthMiB < 64 ? 'met' : 'NOT MET'}`,
  );
}

/** Counts the read streams opened on each path (fs.createReadStream, which countFileReads does not see) until restored. */
function countReadStreams(): { of(path: string): number; restore(): void } {
  const fsModule = require('node:fs') as typeof import('node:fs');
  const original = fsModule.createReadStream;
  const opened = new Map<string, number>();
  fsModule.createReadStream = ((path: import('node:fs').PathLike, options?: Parameters<typeof original>[1]) => {
    opened.set(String(path), (opened.get(String(path)) ?? 0) + 1);
    return original(path, options);
  }) as typeof original;
  return { of: (path) => opened.get(path) ?? 0, restore: () => (fsModule.createReadStream = original) };
}

interface Photo {
  name: string;
  size: number;
}

/** The served photos: incompressible bytes after a JPEG's mark, each of its own size from 3 to 5 MB; kept from an earlier call. */
function writePhotos(folder: string, rows: number): Photo[] {
  mkdirSync(folder, { recursive: true });
  const photos: Photo[] = [];
  for (let row = 0; row < rows; row++) {
    for (let index = 0; index < PER_ROW; index++) {
      const size = 3 * MB + Math.floor(((row * PER_ROW + index) * 2 * MB) / (rows * PER_ROW)) + index;
      const name = `p-${row}-${index}.jpg`;
      const path = join(folder, name);
      if (statSync(path, { throwIfNoEntry: false })?.size !== size) writeFileSync(path, Buffer.concat([JPEG_MARK, randomBytes(size - JPEG_MARK.length)]));
      photos.push({ name, size });
    }
  }
  return photos;
}

/** rows.csv naming each row's photos by address, and its mapping, opened as the command line opens them. */
async function writeTable(dir: string, base: string, rows: number, prefix: string) {
  const lines = ['id,lat,lon,photos'];
  for (let row = 0; row < rows; row++) {
    const urls = Array.from({ length: PER_ROW }, (_, index) => `${base}/p-${row}-${index}.jpg`).join(';');
    lines.push(`${prefix}-${row},48.2,16.37,"${urls}"`);
  }
  writeFileSync(join(dir, 'rows.csv'), lines.join('\n') + '\n');
  const mappingPath = join(dir, 'rows.mapping.json');
  const mappingText = JSON.stringify({ topic_id: 1, source_id: '{id}', latitude: 'lat', longitude: 'lon', media: { fld_1_3: { columns: ['photos'] } } });
  writeFileSync(mappingPath, mappingText);
  const opened = await openMappedTable(join(dir, 'rows.csv'), parseMapping(mappingPath, mappingText));
  if (!opened.mapping) throw new Error(`the bench's mapping has problems: ${JSON.stringify(opened.problems)}`);
  return { table: opened.table, mapping: opened.mapping };
}

interface PhotoServer {
  base: string;
  counts(): Promise<Record<string, number>>;
  reset(): Promise<void>;
  stop(): void;
}

/** A static file server in a process of its own (it must not share the workflow's thread), counting requests per file. */
async function startPhotoServer(folder: string): Promise<PhotoServer> {
  const script = `
    const http = require('node:http'), fs = require('node:fs'), path = require('node:path');
    let counts = {};
    const server = http.createServer((request, response) => {
      const name = path.basename(request.url.split('?')[0]);
      if (name === '__counts') return response.end(JSON.stringify(counts));
      if (name === '__reset') { counts = {}; return response.end('{}'); }
      counts[name] = (counts[name] || 0) + 1;
      const file = path.join(${JSON.stringify(folder)}, name);
      fs.stat(file, (error, stats) => {
        if (error) return response.writeHead(404).end();
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': stats.size });
        fs.createReadStream(file).pipe(response);
      });
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [port] = (await once(child.stdout!, 'data')) as [Buffer];
  const base = `http://127.0.0.1:${String(port).trim()}`;
  const ask = async (what: string) => (await (await fetch(`${base}/${what}`)).json()) as Record<string, number>;
  return { base, counts: () => ask('__counts'), reset: async () => void (await ask('__reset')), stop: () => child.kill() };
}

/** Four loops, one row at a time each: curl -o each of its photos into a folder, then one curl -F sending them over one connection. */
async function curlLoops(service: Service, base: string, work: string, galleries: number[]): Promise<void> {
  let next = 0;
  const curl = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn('curl', ['-sS', '--fail', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`curl exited with ${code}: ${stderr}`))));
    });
  const worker = async () => {
    while (next < galleries.length) {
      const row = next++;
      const names = Array.from({ length: PER_ROW }, (_, index) => `p-${row}-${index}.jpg`);
      const fetchArgs: string[] = [];
      for (const [index, name] of names.entries()) fetchArgs.push(...(index > 0 ? ['--next'] : []), '-o', join(work, name), `${base}/${name}`);
      await curl(fetchArgs);
      const url = `${service.sandbox.baseUrl}/api/v2.4/galleries/${galleries[row]}/media`;
      const sendArgs: string[] = [];
      for (const [index, name] of names.entries()) {
        if (index > 0) sendArgs.push('--next');
        sendArgs.push(
          '-o',
          '/dev/null',
          '-H',
          `Authorization: Bearer ${service.token}`,
          '-H',
          'Expect:',
          '-F',
          `data[attributes][file]=@${join(work, name)};type=image/jpeg`,
          url,
        );
      }
      await curl(sendArgs);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
