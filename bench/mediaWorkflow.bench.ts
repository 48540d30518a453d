// (c) Spots with their media through the workflow (checks, hashing, journal with fsync'd writes,
// write-back) against a hand-written loop that makes the same HTTP calls (import with state 2,
// gallery read, three streamed uploads, gallery read, import with state 1) with a ready token at
// the same concurrency. For context, a third side makes those calls through the core's
// ServiceClient without the workflow: the difference between it and the raw loop is the client's,
// the rest is the workflow's. Every round creates new spots on every side and rotates their order;
// the ratio is reported per round (neighbouring runs share the machine's load) and as the ratio of
// medians. Each run gets a sandbox process of its own (the sandbox slows down as media pile up),
// started with the latency asked for (`--latency-ms`: a service a realistic distance away). The
// workflow's documents are written before its clock starts, like the loop's bodies are made.
// Memory growth is the workflow's peak RSS over the RSS just before it started. Besides the
// throughput, each side's processor time per spot (this process: its main thread and the rest
// apart), the sandbox's, and the most requests the sandbox had in flight at once.
import { createReadStream, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { ServiceClient, TokenSource, defaultTokenUrl, journalAccountOf, runImport, type SpotInput } from '../src/core';
import { DEMO_CLIENT, type SandboxCounters } from '../src/sandbox/types';
import { median, ownCpuMs, startSandboxProcess } from './sandboxProcess';
import { testAccounts } from '../test/unit/helpers/testAccounts';

const CONCURRENCY = 4;
const FILES = ['01.jpg', '02.jpg', '03.jpg'];

type Side = 'workflow' | 'loop' | 'client';

/** Medians over the rounds of one side. */
export interface SideFigures {
  spotsPerSecond: number;
  /** This process's processor time per spot, ms: in all, on its main thread, and the rest (thread pool, GC and compiler threads). */
  cpuMsPerSpot: number;
  mainCpuMsPerSpot?: number;
  otherCpuMsPerSpot?: number;
  /** The sandbox process's processor time per spot while this side ran (undefined off Linux). */
  sandboxCpuMsPerSpot?: number;
  /** The most requests the sandbox had in flight at once, the largest over the rounds. */
  maxInFlight: number;
}

export interface MediaWorkflowFigures {
  spots: number;
  fileKiB: number;
  latencyMs: number;
  sides: Partial<Record<Side, SideFigures>> & { workflow: SideFigures; loop: SideFigures };
  /** Ratio of the medians (workflow / loop), and the median of the per-round ratios. */
  ratio: number;
  perRoundRatio: number;
  /** The workflow's processor time per spot over the loop's (medians). */
  cpuRatio: number;
  /** SHA-256 of one spot's files (3 × fileBytes) on this thread, measured apart in this run, ms. */
  hashMsPerSpot: number;
  /** Medians and the largest over the rounds, MiB. */
  memoryGrowthMiB: number;
  maxMemoryGrowthMiB: number;
}

export interface MediaWorkflowBenchOptions {
  spots: number;
  fileBytes: number;
  rounds: number;
  /** Added by the sandbox to each API request (its --latency-ms). */
  latencyMs?: number;
  /** Default: all three; the ServiceClient loop is context only. */
  sides?: Side[];
}

export async function benchMediaWorkflow(distDir: string, scratch: string, options: MediaWorkflowBenchOptions): Promise<MediaWorkflowFigures> {
  const { spots, fileBytes, rounds } = options;
  const latencyMs = options.latencyMs ?? 0;
  const sides = options.sides ?? ['workflow', 'loop', 'client'];
  const folder = join(scratch, 'media-workflow');
  writeMedia(folder, spots, fileBytes);
  const samples = Object.fromEntries(
    sides.map((side) => [side, { rate: [] as number[], cpu: [] as number[], main: [] as number[], sandbox: [] as number[], inFlight: [] as number[] }]),
  ) as Record<Side, { rate: number[]; cpu: number[]; main: number[]; sandbox: number[]; inFlight: number[] }>;
  const perRound: number[] = [];
  const growth: number[] = [];
  // Round 0 warms every side up (JIT, page cache) and is not counted.
  for (let round = 0; round <= rounds; round++) {
    const count = round === 0 ? Math.min(spots, 100) : spots;
    const rate: Partial<Record<Side, number>> = {};
    for (let v = 0; v < sides.length; v++) {
      const side = sides[(v + round) % sides.length];
      // A fresh sandbox for every run: what earlier runs stored must not slow a later one down.
      const service = await startService(distDir, latencyMs);
      try {
        const prefix = `${side}-${latencyMs}-${round}`;
        // Made before the clock starts, on every side: the workflow's documents, the others' source ids.
        const inputs = side === 'workflow' ? writeDocuments(folder, count, prefix) : [];
        const sourceIds = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
        global.gc?.();
        const rssBefore = process.memoryUsage().rss;
        let peak = rssBefore;
        const sampler = side === 'workflow' ? setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20) : undefined;
        const started = process.hrtime.bigint();
        const cpuBefore = ownCpuMs();
        const sandboxBefore = service.sandboxCpuMs();
        if (side === 'workflow') {
          const { client } = service;
          const outcome = await runImport(inputs, {
            client,
            journal: {
              accounts: testAccounts,
              dir: join(folder, `.spot-import-${latencyMs}-${round}`),
              account: journalAccountOf(client.apiRoot, DEMO_CLIENT.clientId),
            },
            concurrency: CONCURRENCY,
          });
          if (outcome.totals.done !== count || outcome.totals.uploaded !== count * FILES.length)
            throw new Error(`the workflow did not finish: ${JSON.stringify(outcome.totals)}`);
        } else if (side === 'loop') await handWrittenLoop(service, folder, sourceIds, fileBytes);
        else await clientLoop(service.client, folder, sourceIds);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const cpuAfter = ownCpuMs();
        const sandboxAfter = service.sandboxCpuMs();
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage().rss);
        const inFlight = (await service.counters()).maxRequestsInFlight;
        if (round === 0) continue;
        const sample = samples[side];
        sample.rate.push((rate[side] = count / seconds));
        sample.cpu.push((cpuAfter.total - cpuBefore.total) / count);
        if (cpuAfter.main !== undefined && cpuBefore.main !== undefined) sample.main.push((cpuAfter.main - cpuBefore.main) / count);
        if (sandboxBefore !== undefined && sandboxAfter !== undefined) sample.sandbox.push((sandboxAfter - sandboxBefore) / count);
        sample.inFlight.push(inFlight);
        if (side === 'workflow') growth.push((peak - rssBefore) / 1048576);
      } finally {
        await service.stop();
      }
    }
    if (round > 0) perRound.push(rate.workflow! / rate.loop!);
  }
  const figuresOf = (side: Side): SideFigures => {
    const sample = samples[side];
    const cpu = median(sample.cpu);
    const main = sample.main.length > 0 ? median(sample.main) : undefined;
    return {
      spotsPerSecond: median(sample.rate),
      cpuMsPerSpot: cpu,
      mainCpuMsPerSpot: main,
      // The rest of each round, not the difference of medians.
      otherCpuMsPerSpot: sample.main.length > 0 ? median(sample.cpu.map((total, index) => total - sample.main[index])) : undefined,
      sandboxCpuMsPerSpot: sample.sandbox.length > 0 ? median(sample.sandbox) : undefined,
      maxInFlight: Math.max(...sample.inFlight),
    };
  };
  const figures = Object.fromEntries(sides.map((side) => [side, figuresOf(side)])) as MediaWorkflowFigures['sides'];
  return {
    spots,
    fileKiB: Math.round(fileBytes / 1024),
    latencyMs,
    sides: figures,
    ratio: figures.workflow.spotsPerSecond / figures.loop.spotsPerSecond,
    perRoundRatio: median(perRound),
    cpuRatio: figures.workflow.cpuMsPerSpot / figures.loop.cpuMsPerSpot,
    hashMsPerSpot: hashCost(folder, Math.min(spots, 200)),
    memoryGrowthMiB: median(growth),
    maxMemoryGrowthMiB: Math.max(...growth),
  };
}

/** What hashing one spot's files costs on this thread (they are in the page cache, as in the runs). */
function hashCost(folder: string, spots: number): number {
  const contents = Array.from({ length: spots }, (_, i) => FILES.map((name) => readFileSync(join(folder, `spot-${i}.media`, name))));
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (const files of contents) for (const bytes of files) createHash('sha256').update(bytes).digest('hex');
    times.push(Number(process.hrtime.bigint() - started) / 1e6 / spots);
  }
  return median(times);
}

/** The figures of one latency, as lines; `goal` the throughput ratio asked for, if any. */
export function printMediaWorkflow(media: MediaWorkflowFigures, goal?: number): void {
  const ms = (value: number | undefined) => (value === undefined ? '?' : value.toFixed(2));
  const where = media.latencyMs > 0 ? `sandbox at --latency-ms ${media.latencyMs}` : 'sandbox on loopback, no added latency';
  console.log(`(c) media workflow: ${media.spots} spots with 3 media of ${media.fileKiB} KiB at concurrency ${CONCURRENCY}, ${where}`);
  const names: Record<Side, string> = { workflow: 'runImport  ', loop: 'hand-written loop ', client: 'ServiceClient loop' };
  for (const side of ['workflow', 'loop', 'client'] as Side[]) {
    const figures = media.sides[side];
    if (!figures) continue;
    console.log(
      `    ${names[side]}   ${figures.spotsPerSecond.toFixed(1)} spots/s; CPU per spot ${ms(figures.cpuMsPerSpot)} ms (main thread ${ms(figures.mainCpuMsPerSpot)}, other threads ${ms(figures.otherCpuMsPerSpot)}), sandbox ${ms(figures.sandboxCpuMsPerSpot)} ms; at most ${figures.maxInFlight} requests in flight`,
    );
  }
  const ratioGoal =
    goal === undefined
      ? '(no goal on loopback: both processes share 2 cores, so it follows CPU per spot)'
      : `(goal ≥ ${goal.toFixed(2)}) ${media.ratio >= goal ? 'met' : 'NOT MET'}`;
  console.log(`    workflow / loop      ${media.ratio.toFixed(2)}  (median per round ${media.perRoundRatio.toFixed(2)}) ${ratioGoal}`);
  if (media.sides.client) console.log(`    client / loop        ${(media.sides.client.spotsPerSecond / media.sides.loop.spotsPerSecond).toFixed(2)}`);
  const cpuGoal = media.latencyMs === 0 ? `(goal ≤ 2.0) ${media.cpuRatio <= 2 ? 'met' : 'NOT MET'}` : '';
  console.log(`    CPU workflow / loop  ${media.cpuRatio.toFixed(2)}  ${cpuGoal}`);
  console.log(`    of which hashing     ${ms(media.hashMsPerSpot)} ms per spot (SHA-256 of its ${3 * media.fileKiB} KiB, measured apart)`);
  const same = media.sides.workflow.maxInFlight === media.sides.loop.maxInFlight;
  console.log(`    requests in flight   workflow ${media.sides.workflow.maxInFlight}, loop ${media.sides.loop.maxInFlight}: ${same ? 'equal' : 'NOT EQUAL'}`);
  console.log(
    `    memory growth        ${media.memoryGrowthMiB.toFixed(1)} MiB median, ${media.maxMemoryGrowthMiB.toFixed(1)} MiB max  (goal < 100) ${media.maxMemoryGrowthMiB < 100 ? 'met' : 'NOT MET'}`,
  );
}

interface Service {
  baseUrl: string;
  client: ServiceClient;
  /** A token fetched before timing starts, for the hand-written loop. */
  token: string;
  dispatcher: Agent;
  sandboxCpuMs(): number | undefined;
  counters(): Promise<SandboxCounters>;
  stop(): Promise<void>;
}

async function startService(distDir: string, latencyMs: number): Promise<Service> {
  const sandbox = await startSandboxProcess(distDir, latencyMs > 0 ? ['--latency-ms', String(latencyMs)] : []);
  const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(sandbox.baseUrl), ...DEMO_CLIENT, dispatcher });
  const client = new ServiceClient({ baseUrl: sandbox.baseUrl, tokens, dispatcher });
  const token = (await tokens.getToken()).value;
  return {
    baseUrl: sandbox.baseUrl,
    client,
    token,
    dispatcher,
    sandboxCpuMs: () => sandbox.cpuMs(),
    counters: () => sandbox.counters(),
    stop: async () => {
      await dispatcher.close();
      await sandbox.stop();
    },
  };
}

/** The same calls through the core's ServiceClient, nothing else. */
async function clientLoop(client: ServiceClient, folder: string, sourceIds: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < sourceIds.length) {
      const index = next++;
      const pending = await client.importSpot({ data: { type: 'spots', attributes: attributes(sourceIds[index], 2, null) } });
      const galleryId = pending.pendingGalleries[0].galleryId;
      await client.getGallery(galleryId);
      for (const name of FILES) await client.uploadMedia(galleryId, join(folder, `spot-${index}.media`, name));
      await client.getGallery(galleryId);
      await client.importSpot({ data: { type: 'spots', attributes: attributes(sourceIds[index], 1, galleryId) } });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** spot-i.media/ with three files of distinct content each; shared by every round and every side (kept from an earlier call). */
function writeMedia(folder: string, spots: number, fileBytes: number): void {
  for (let i = 0; i < spots; i++) {
    const media = join(folder, `spot-${i}.media`);
    mkdirSync(media, { recursive: true });
    for (const name of FILES) {
      const path = join(media, name);
      if (statSync(path, { throwIfNoEntry: false })?.size !== fileBytes) writeFileSync(path, randomBytes(fileBytes));
    }
  }
}

/** New documents (new source ids) over the same media folders: every round creates new spots. */
function writeDocuments(folder: string, count: number, prefix: string): SpotInput[] {
  return Array.from({ length: count }, (_, i) => {
    const path = join(folder, `spot-${i}.spot.json`);
    writeFileSync(path, JSON.stringify({ data: { type: 'spots', attributes: attributes(`${prefix}-${i}`, 2, null) } }, null, 2) + '\n');
    return { path };
  });
}

function attributes(sourceId: string, state: number, gallery: number | null) {
  return { topic_id: 1, source_id: sourceId, latitude: 48.2, longitude: 16.37, state, fld_1_3: gallery };
}

/** The same calls the workflow makes for a spot, nothing else: no checks, hashing, journal or write-back. */
async function handWrittenLoop({ baseUrl, token, dispatcher }: Service, folder: string, sourceIds: string[], fileBytes: number): Promise<void> {
  const api = `${baseUrl}/api/v2.4`;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' };
  const call = async (method: 'GET' | 'POST', url: string, body?: string | Readable, extra: Record<string, string> = {}) => {
    const response = await request(url, { method, dispatcher, headers: { ...headers, ...extra }, body });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`${method} ${url} got ${response.statusCode}: ${text}`);
    return text ? (JSON.parse(text) as { data: { id: number; attributes?: Record<string, number> } }) : undefined;
  };
  const json = { 'content-type': 'application/json' };
  let next = 0;
  const worker = async () => {
    while (next < sourceIds.length) {
      const index = next++;
      const pending = await call(
        'POST',
        `${api}/spots/import`,
        JSON.stringify({ data: { type: 'spots', attributes: attributes(sourceIds[index], 2, null) } }),
        json,
      );
      const galleryId = pending!.data.attributes!.fld_1_3;
      await call('GET', `${api}/galleries/${galleryId}`);
      for (const name of FILES) {
        const { body, headers: multipart } = multipartFile(join(folder, `spot-${index}.media`, name), name, fileBytes);
        await call('POST', `${api}/galleries/${galleryId}/media`, body, multipart);
      }
      await call('GET', `${api}/galleries/${galleryId}`);
      await call('POST', `${api}/spots/import`, JSON.stringify({ data: { type: 'spots', attributes: attributes(sourceIds[index], 1, galleryId) } }), json);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** A multipart body framed by hand around the file streamed from disk, with its length (as the core sends it). */
function multipartFile(path: string, name: string, size: number): { body: Readable; headers: Record<string, string> } {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="data[attributes][file]"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    // Reads sized to the file and bounded by its end: one read of exactly its bytes (a fixed 1 MiB
    // buffer would allocate five times the file and read once more for the end, and the garbage
    // collector's work would make this baseline slower than it need be).
    for await (const chunk of createReadStream(path, { highWaterMark: Math.min(size, 1024 * 1024), start: 0, end: size - 1 })) yield chunk as Buffer;
    yield tail;
  }
  const length = String(head.length + size + tail.length);
  return {
    body: Readable.from(parts(), { objectMode: false }),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
  };
}
