// (c) Spots with their media through the workflow (checks, hashing, journal with fsync'd writes,
// write-back) against a hand-written loop that makes the same HTTP calls (import with state 2,
// gallery read, three streamed uploads, gallery read, import with state 1) with a ready token at
// the same concurrency. For context, a third side makes those calls through the core's
// ServiceClient without the workflow: the difference between it and the raw loop is the client's,
// the rest is the workflow's. Every round creates new spots on every side and rotates their order;
// the ratio is reported per round (neighbouring runs share the machine's load) and as the ratio of
// medians. Each run gets a sandbox process of its own (the sandbox slows down as media pile up).
// Memory growth is the workflow's peak RSS over the RSS just before it started.
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { ServiceClient, TokenSource, defaultTokenUrl, journalAccountOf, runMediaWorkflow, type SpotInput } from '../src/core';
import { DEMO_CLIENT } from '../src/sandbox/types';
import { median, startSandboxProcess } from './sandboxProcess';

const CONCURRENCY = 4;
const FILES = ['01.jpg', '02.jpg', '03.jpg'];

export interface MediaWorkflowFigures {
  spots: number;
  fileKiB: number;
  workflowSpotsPerSecond: number;
  loopSpotsPerSecond: number;
  clientSpotsPerSecond: number;
  /** Ratio of the medians, and the median of the per-round ratios. */
  ratio: number;
  perRoundRatio: number;
  clientRatio: number;
  /** This process's CPU time (user + system) per spot, medians: less sensitive to a busy machine than wall time. */
  cpuMsPerSpot: { workflow: number; loop: number; client: number };
  /** The sandbox process's CPU time per spot while each side ran, medians (undefined off Linux). */
  sandboxCpuMsPerSpot?: { workflow: number; loop: number; client: number };
  /** Medians and the largest over the rounds, MiB. */
  memoryGrowthMiB: number;
  maxMemoryGrowthMiB: number;
}

export async function benchMediaWorkflow(distDir: string, scratch: string, spots: number, fileBytes: number, rounds: number): Promise<MediaWorkflowFigures> {
  const folder = join(scratch, 'media-workflow');
  writeMedia(folder, spots, fileBytes);
  const figures = { workflow: [] as number[], loop: [] as number[], client: [] as number[] };
  const cpu = { workflow: [] as number[], loop: [] as number[], client: [] as number[] };
  const sandboxCpu = { workflow: [] as number[], loop: [] as number[], client: [] as number[] };
  const perRound: number[] = [];
  const growth: number[] = [];
  // Round 0 warms every side up (JIT, page cache) and is not counted.
  for (let round = 0; round <= rounds; round++) {
    const count = round === 0 ? Math.min(spots, 100) : spots;
    const variants: Array<[keyof typeof figures, (service: Service) => Promise<void>]> = [
      ['workflow', async ({ client }) => {
        const inputs = writeDocuments(folder, count, `wf-${round}`);
        global.gc?.();
        const before = process.memoryUsage().rss;
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
        const outcome = await runMediaWorkflow(inputs, { client, journal: { dir: join(folder, `.spot-import-${round}`), account: journalAccountOf(client.apiRoot, DEMO_CLIENT.clientId) }, concurrency: CONCURRENCY });
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage().rss);
        if (outcome.totals.done !== count || outcome.totals.uploaded !== count * FILES.length) throw new Error(`the workflow did not finish: ${JSON.stringify(outcome.totals)}`);
        if (round > 0) growth.push((peak - before) / 1048576);
      }],
      ['loop', (service) => handWrittenLoop(service, folder, Array.from({ length: count }, (_, i) => `loop-${round}-${i}`), fileBytes)],
      ['client', ({ client }) => clientLoop(client, folder, Array.from({ length: count }, (_, i) => `client-${round}-${i}`))],
    ];
    for (let v = 0; v < variants.length; v++) {
      const [name, run] = variants[(v + round) % variants.length];
      // A fresh sandbox for every run: what earlier runs stored must not slow a later one down.
      const service = await startService(distDir);
      try {
        const started = process.hrtime.bigint();
        const cpuBefore = process.cpuUsage();
        const sandboxBefore = service.sandboxCpuMs();
        await run(service);
        const used = process.cpuUsage(cpuBefore);
        const sandboxAfter = service.sandboxCpuMs();
        if (round > 0) {
          figures[name].push(count / (Number(process.hrtime.bigint() - started) / 1e9));
          cpu[name].push((used.user + used.system) / 1000 / count);
          if (sandboxBefore !== undefined && sandboxAfter !== undefined) sandboxCpu[name].push((sandboxAfter - sandboxBefore) / count);
        }
      } finally {
        await service.stop();
      }
    }
    if (round > 0) perRound.push(figures.workflow[figures.workflow.length - 1] / figures.loop[figures.loop.length - 1]);
  }
  return {
    spots,
    fileKiB: Math.round(fileBytes / 1024),
    workflowSpotsPerSecond: median(figures.workflow),
    loopSpotsPerSecond: median(figures.loop),
    clientSpotsPerSecond: median(figures.client),
    ratio: median(figures.workflow) / median(figures.loop),
    perRoundRatio: median(perRound),
    clientRatio: median(figures.client) / median(figures.loop),
    cpuMsPerSpot: { workflow: median(cpu.workflow), loop: median(cpu.loop), client: median(cpu.client) },
    sandboxCpuMsPerSpot: sandboxCpu.workflow.length > 0 ? { workflow: median(sandboxCpu.workflow), loop: median(sandboxCpu.loop), client: median(sandboxCpu.client) } : undefined,
    memoryGrowthMiB: median(growth),
    maxMemoryGrowthMiB: Math.max(...growth),
  };
}

interface Service {
  baseUrl: string;
  client: ServiceClient;
  /** A token fetched before timing starts, for the hand-written loop. */
  token: string;
  dispatcher: Agent;
  sandboxCpuMs(): number | undefined;
  stop(): Promise<void>;
}

async function startService(distDir: string): Promise<Service> {
  const sandbox = await startSandboxProcess(distDir);
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

/** spot-i.media/ with three files of distinct content each; shared by every round and both sides. */
function writeMedia(folder: string, spots: number, fileBytes: number): void {
  for (let i = 0; i < spots; i++) {
    const media = join(folder, `spot-${i}.media`);
    mkdirSync(media, { recursive: true });
    for (const name of FILES) writeFileSync(join(media, name), randomBytes(fileBytes));
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
      const pending = await call('POST', `${api}/spots/import`, JSON.stringify({ data: { type: 'spots', attributes: attributes(sourceIds[index], 2, null) } }), json);
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
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data[attributes][file]"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`);
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
  return { body: Readable.from(parts(), { objectMode: false }), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length } };
}
