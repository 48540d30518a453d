// (f) Photos as people take them: spots with 3 photos of 3 to 5 MB each (generated, incompressible,
// each of its own size), imported with the workflow (check, hashing, journal, uploads, order,
// final import, write-back) against `curl -F` uploading the same files to galleries made before
// its clock starts, at the same concurrency (4 curl processes, each sending its spots' photos one
// after the other over one connection). Each run against a sandbox process of its own; rounds
// alternate which side goes first. Bytes per second are the photos' bytes over the wall time.
// Every photo must be read from disk once by the workflow: the bench counts the opens and bytes
// read per file while the workflow runs (test/unit/helpers/fileReads.ts) and fails otherwise.
// Memory growth is the workflow's peak RSS over the RSS just before it started.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { ServiceClient, TokenSource, defaultTokenUrl, journalAccountOf, runImport, type SpotInput } from '../src/core';
import { DEMO_CLIENT } from '../src/sandbox/types';
import { countFileReads } from '../test/unit/helpers/fileReads';
import { median, ownCpuMs, startSandboxProcess } from './sandboxProcess';
import { testAccounts } from '../test/unit/helpers/testAccounts';

const CONCURRENCY = 4;
const PHOTOS = ['01.jpg', '02.jpg', '03.jpg'];
const MB = 1_000_000;

export interface PhotosFigures {
  spots: number;
  photos: number;
  megabytes: number;
  /** Medians over the rounds, MB/s (10^6 bytes). */
  workflowMBps: number;
  curlMBps: number;
  ratio: number;
  perRoundRatio: number;
  /** The workflow process's processor time per MB: in all and on its main thread (medians). */
  workflowCpuMsPerMB: number;
  workflowMainCpuMsPerMB?: number;
  /** The sandbox's processor time per MB while each side ran (medians; undefined off Linux). */
  sandboxCpuMsPerMB?: { workflow: number; curl: number };
  /** Each photo's opens and bytes read by the workflow, over every round: most and least. */
  reads: { maxOpens: number; minOpens: number; maxBytesOverSize: number; minBytesOverSize: number };
  memoryGrowthMiB: number;
  maxMemoryGrowthMiB: number;
}

export async function benchPhotos(distDir: string, scratch: string, spots: number, rounds: number): Promise<PhotosFigures> {
  const folder = join(scratch, 'photos');
  const photos = writePhotos(folder, spots);
  const bytes = photos.reduce((sum, photo) => sum + photo.size, 0);
  const rates = { workflow: [] as number[], curl: [] as number[] };
  const cpu: number[] = [];
  const mainCpu: number[] = [];
  const sandboxCpu = { workflow: [] as number[], curl: [] as number[] };
  const perRound: number[] = [];
  const growth: number[] = [];
  const reads = { maxOpens: 0, minOpens: Infinity, maxBytesOverSize: 0, minBytesOverSize: Infinity };
  // Round 0 warms both sides up (JIT, page cache) and is not counted.
  for (let round = 0; round <= rounds; round++) {
    const sides = round % 2 === 0 ? (['workflow', 'curl'] as const) : (['curl', 'workflow'] as const);
    const rate: Partial<Record<'workflow' | 'curl', number>> = {};
    for (const side of sides) {
      const service = await startService(distDir);
      try {
        const prefix = `${side}-${round}`;
        const before = service.sandbox.cpuMs();
        let seconds: number;
        if (side === 'workflow') {
          const inputs = writeDocuments(folder, spots, prefix);
          global.gc?.();
          const rssBefore = process.memoryUsage().rss;
          let peak = rssBefore;
          const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
          const counter = await countFileReads();
          const cpuBefore = ownCpuMs();
          const started = process.hrtime.bigint();
          let outcome;
          try {
            outcome = await runImport(inputs, {
              client: service.client,
              journal: {
                accounts: testAccounts,
                dir: join(folder, `.spot-import-${round}`),
                account: journalAccountOf(service.client.apiRoot, DEMO_CLIENT.clientId),
              },
              concurrency: CONCURRENCY,
            });
          } finally {
            counter.restore();
            clearInterval(sampler);
          }
          seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const cpuAfter = ownCpuMs();
          peak = Math.max(peak, process.memoryUsage().rss);
          if (outcome.totals.done !== spots || outcome.totals.uploaded !== spots * PHOTOS.length)
            throw new Error(`the workflow did not finish: ${JSON.stringify(outcome.totals)}`);
          for (const photo of photos) {
            const read = counter.of(photo.path);
            if (read.opens !== 1 || read.bytes !== photo.size)
              throw new Error(
                `${photo.path} (${photo.size} bytes) was opened ${read.opens} times and ${read.bytes} bytes of it read: each photo must be read once`,
              );
            reads.maxOpens = Math.max(reads.maxOpens, read.opens);
            reads.minOpens = Math.min(reads.minOpens, read.opens);
            reads.maxBytesOverSize = Math.max(reads.maxBytesOverSize, read.bytes / photo.size);
            reads.minBytesOverSize = Math.min(reads.minBytesOverSize, read.bytes / photo.size);
          }
          if (round > 0) {
            growth.push((peak - rssBefore) / 1048576);
            cpu.push((cpuAfter.total - cpuBefore.total) / (bytes / MB));
            if (cpuAfter.main !== undefined && cpuBefore.main !== undefined) mainCpu.push((cpuAfter.main - cpuBefore.main) / (bytes / MB));
          }
        } else {
          const galleries = await pendingGalleries(service.client, spots, prefix);
          const started = process.hrtime.bigint();
          await curlUploads(service, folder, galleries);
          seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const counters = await service.sandbox.counters();
          if (counters.uploads !== spots * PHOTOS.length) throw new Error(`curl made ${counters.uploads} uploads, not ${spots * PHOTOS.length}`);
        }
        const after = service.sandbox.cpuMs();
        if (round > 0) {
          rates[side].push((rate[side] = bytes / MB / seconds));
          if (before !== undefined && after !== undefined) sandboxCpu[side].push((after - before) / (bytes / MB));
        }
      } finally {
        await service.stop();
      }
    }
    if (round > 0) perRound.push(rate.workflow! / rate.curl!);
  }
  return {
    spots,
    photos: photos.length,
    megabytes: bytes / MB,
    workflowMBps: median(rates.workflow),
    curlMBps: median(rates.curl),
    ratio: median(rates.workflow) / median(rates.curl),
    perRoundRatio: median(perRound),
    workflowCpuMsPerMB: median(cpu),
    workflowMainCpuMsPerMB: mainCpu.length > 0 ? median(mainCpu) : undefined,
    sandboxCpuMsPerMB: sandboxCpu.workflow.length > 0 ? { workflow: median(sandboxCpu.workflow), curl: median(sandboxCpu.curl) } : undefined,
    reads,
    memoryGrowthMiB: median(growth),
    maxMemoryGrowthMiB: Math.max(...growth),
  };
}

export function printPhotos(figures: PhotosFigures): void {
  console.log(`(f) photos: ${figures.spots} spots with 3 photos of 3 to 5 MB each (${figures.megabytes.toFixed(0)} MB) at concurrency ${CONCURRENCY}`);
  console.log(`    runImport     ${figures.workflowMBps.toFixed(1)} MB/s`);
  console.log(`    curl -F              ${figures.curlMBps.toFixed(1)} MB/s  (4 processes, the same files into galleries made before)`);
  console.log(
    `    workflow / curl      ${figures.ratio.toFixed(2)}  (median per round ${figures.perRoundRatio.toFixed(2)}; goal ≥ 0.90) ${figures.ratio >= 0.9 ? 'met' : 'NOT MET'}`,
  );
  const main = figures.workflowMainCpuMsPerMB === undefined ? '' : ` (main thread ${figures.workflowMainCpuMsPerMB.toFixed(2)})`;
  const sandbox = figures.sandboxCpuMsPerMB
    ? `; sandbox ${figures.sandboxCpuMsPerMB.workflow.toFixed(2)} ms per MB while the workflow ran, ${figures.sandboxCpuMsPerMB.curl.toFixed(2)} while curl did`
    : '';
  console.log(`    CPU                  workflow ${figures.workflowCpuMsPerMB.toFixed(2)} ms per MB${main}${sandbox}`);
  const { reads } = figures;
  const once = reads.maxOpens === 1 && reads.minOpens === 1 && reads.maxBytesOverSize === 1 && reads.minBytesOverSize === 1;
  console.log(
    `    reads per photo      opened ${reads.minOpens}–${reads.maxOpens} times, ${reads.minBytesOverSize.toFixed(2)}–${reads.maxBytesOverSize.toFixed(2)} × its size read  (goal: once) ${once ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `    memory growth        ${figures.memoryGrowthMiB.toFixed(1)} MiB median, ${figures.maxMemoryGrowthMiB.toFixed(1)} MiB max  (goal < 64) ${figures.maxMemoryGrowthMiB < 64 ? 'met' : 'NOT MET'}`,
  );
}

export interface Service {
  sandbox: Awaited<ReturnType<typeof startSandboxProcess>>;
  client: ServiceClient;
  token: string;
  stop(): Promise<void>;
}

/** A sandbox process of its own, with a client and a token for curl (bench (j) starts its sides the same way). */
export async function startService(distDir: string): Promise<Service> {
  const sandbox = await startSandboxProcess(distDir);
  const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(sandbox.baseUrl), ...DEMO_CLIENT, dispatcher });
  const client = new ServiceClient({ baseUrl: sandbox.baseUrl, tokens, dispatcher });
  const token = (await tokens.getToken()).value;
  return {
    sandbox,
    client,
    token,
    stop: async () => {
      await dispatcher.close();
      await sandbox.stop();
    },
  };
}

interface Photo {
  spot: number;
  path: string;
  size: number;
}

/** spot-i.media/ with 3 photos of random bytes, each of its own size from 3 to 5 MB; kept from an earlier call. */
function writePhotos(folder: string, spots: number): Photo[] {
  const photos: Photo[] = [];
  for (let spot = 0; spot < spots; spot++) {
    const media = join(folder, `spot-${spot}.media`);
    mkdirSync(media, { recursive: true });
    for (const [index, name] of PHOTOS.entries()) {
      // Spread over 3 to 5 MB, and never two of one size.
      const size = 3 * MB + Math.floor(((spot * PHOTOS.length + index) * 2 * MB) / (spots * PHOTOS.length)) + index;
      const path = join(media, name);
      if (statSync(path, { throwIfNoEntry: false })?.size !== size) writeFileSync(path, randomBytes(size));
      photos.push({ spot, path, size });
    }
  }
  return photos;
}

function attributes(sourceId: string, state: number, gallery: number | null) {
  return { topic_id: 1, source_id: sourceId, latitude: 48.2, longitude: 16.37, state, fld_1_3: gallery };
}

/** New documents (new source ids) over the same photos: every run creates new spots. */
function writeDocuments(folder: string, count: number, prefix: string): SpotInput[] {
  return Array.from({ length: count }, (_, i) => {
    const path = join(folder, `spot-${i}.spot.json`);
    writeFileSync(path, JSON.stringify({ data: { type: 'spots', attributes: attributes(`${prefix}-${i}`, 2, null) } }, null, 2) + '\n');
    return { path };
  });
}

/** A spot with a pending gallery for each of curl's spots, made before its clock starts. */
export async function pendingGalleries(client: ServiceClient, spots: number, prefix: string): Promise<number[]> {
  const galleries: number[] = [];
  for (let i = 0; i < spots; i++)
    galleries.push((await client.importSpot({ data: { type: 'spots', attributes: attributes(`${prefix}-${i}`, 2, null) } })).pendingGalleries[0].galleryId);
  return galleries;
}

/** Four curl processes at a time, one per spot, each sending the spot's photos one after the other over one connection. */
async function curlUploads(service: Service, folder: string, galleries: number[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < galleries.length) {
      const spot = next++;
      const url = `${service.sandbox.baseUrl}/api/v2.4/galleries/${galleries[spot]}/media`;
      const args = ['-sS', '--fail'];
      for (const [index, name] of PHOTOS.entries()) {
        if (index > 0) args.push('--next');
        args.push(
          '-o',
          '/dev/null',
          '-H',
          `Authorization: Bearer ${service.token}`,
          '-H',
          'Expect:',
          '-F',
          `data[attributes][file]=@${join(folder, `spot-${spot}.media`, name)};type=image/jpeg`,
          url,
        );
      }
      await new Promise<void>((resolve, reject) => {
        const child = spawn('curl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`curl exited with ${code}: ${stderr}`))));
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
