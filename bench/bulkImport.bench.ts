// (a) Bulk import: the core's import engine on documents without media (what Import Folder and
// spot-import import send for a folder of spot documents, journal included) at concurrency 8,
// against a minimal raw undici.request loop posting the same bodies with a ready token at the same
// concurrency, and against a sequential loop. Rounds alternate, and the ratio of medians is
// reported. Beside the rates, the processor time per spot of each side in the same run, from
// process.cpuUsage() around each variant (the main thread apart from the rest: V8's compiler and
// collector threads, libuv's pool), and the sandbox's from /proc. The goal is on that time: the raw
// loop validates nothing, the core parses and checks each document and each reply and keeps its
// journal, worth about half again, no more. Loopback throughput follows the processor time of
// both processes on a 2-core machine, so it is reported but no longer a goal by itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { ServiceClient, TokenSource, defaultTokenUrl, journalAccountOf, runImport, type SpotInput } from '../src/core';
import { DEMO_CLIENT } from '../src/sandbox/types';
import { cpuSince, ownCpuTime, perItem, type CpuTime } from './cpuTime';
import { rawImportLoop } from './rawImportLoop';
import { median } from './sandboxProcess';
import { testAccounts } from '../test/unit/helpers/testAccounts';

const CONCURRENCY = 8;
/**
 * Rounds that only warm up V8's optimizing compiler, on both sides, before the measured ones. One
 * is not enough: counted with `--trace-opt` (2026-11-27), compilations per round of 2,000 spots,
 * the core 137, 53, 20, 3, then 0 to 2; the raw loop 124, 36, 5, 3, then 0 to 2 (V8 optimizes a
 * function once its executed bytecode has used up a few interrupt budgets, so a function called
 * once per spot can take more than a round). The first round's figures are still printed: the
 * core's is what a new process pays for its first spots; the raw loop runs after it in that round,
 * on connections and a token the core has already made (BENCH_BULK_WARMUP sets the count).
 */
const WARMUP_ROUNDS = warmupRounds(process.env.BENCH_BULK_WARMUP || '3');

function warmupRounds(value: string): number {
  const rounds = Number(value);
  if (!Number.isInteger(rounds) || rounds < 0) throw new Error(`BENCH_BULK_WARMUP must be a whole number of rounds, 0 or more; it is "${value}".`);
  return rounds;
}
/** Goal: the core's processor time per spot at most this many times the raw loop's. */
export const BULK_CPU_GOAL = 1.5;

type Variant = 'core' | 'raw' | 'sequential';

export interface BulkRun {
  spotsPerSecond: number;
  cpu: CpuTime;
  /** The sandbox's processor time while the variant ran, ms (Linux only). */
  sandboxCpuMs?: number;
}

export interface BulkFigures {
  spots: number;
  rounds: Array<Record<Variant, BulkRun>>;
  /** The warm-up rounds, not in the medians: the first is what a new process pays. */
  warmup: Array<Record<Variant, BulkRun>>;
  coreSpotsPerSecond: number;
  rawSpotsPerSecond: number;
  sequentialSpotsPerSecond: number;
  coreVsRaw: number;
  coreVsSequential: number;
  /** Medians over the rounds, per spot, in ms. */
  cpuPerSpot: Record<Variant, { totalMs: number; mainMs?: number; sandboxMs?: number }>;
  /** core ÷ raw of the medians of processor time per spot. */
  coreVsRawCpu: number;
}

/** `sandboxCpuMs`: the sandbox process's processor time so far (startSandboxProcess's cpuMs). */
export async function benchBulkImport(
  baseUrl: string,
  spots: number,
  rounds: number,
  sandboxCpuMs: () => number | undefined = () => undefined,
): Promise<BulkFigures> {
  const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(baseUrl), ...DEMO_CLIENT, dispatcher });
  const client = new ServiceClient({ baseUrl, tokens, dispatcher });
  const token = (await tokens.getToken()).value;
  const journalDir = mkdtempSync(join(tmpdir(), 'bench-bulk-'));
  const journal = { accounts: testAccounts, dir: journalDir, account: journalAccountOf(client.apiRoot, DEMO_CLIENT.clientId) };
  const measured: Array<Record<Variant, BulkRun>> = [];
  const warmup: Array<Record<Variant, BulkRun>> = [];
  // The first WARMUP_ROUNDS only warm up the JIT on both sides; the order of the variants rotates
  // per round so none of them always runs right after the sandbox's garbage collector was busy.
  for (let round = 0; round < WARMUP_ROUNDS + rounds; round++) {
    // Every variant creates its own new spots, so none of them gets the cheaper update path.
    const bodies = (variant: string) => Array.from({ length: spots }, (_, i) => JSON.stringify(spotBody(`bench-${variant}-${round}-${i}`)));
    const items: SpotInput[] = bodies('core').map((body, i) => ({ path: `${i}.spot.json`, text: body, media: false }));
    const rawBodies = bodies('raw');
    const sequentialBodies = bodies('sequential');
    const variants: Array<[Variant, () => Promise<void>]> = [
      [
        'core',
        async () => {
          const { spots } = await runImport(items, { client, journal, concurrency: CONCURRENCY, media: false });
          if (spots.some((spot) => spot.status !== 'done')) throw new Error('a bench import failed');
        },
      ],
      ['raw', () => rawLoop(baseUrl, token, rawBodies, CONCURRENCY, dispatcher)],
      ['sequential', () => rawLoop(baseUrl, token, sequentialBodies, 1, dispatcher)],
    ];
    const runs: Partial<Record<Variant, BulkRun>> = {};
    for (let v = 0; v < variants.length; v++) {
      const [variant, run] = variants[(v + round) % variants.length];
      const sandboxBefore = sandboxCpuMs();
      const cpuBefore = ownCpuTime();
      const started = process.hrtime.bigint();
      await run();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = cpuSince(cpuBefore);
      const sandboxAfter = sandboxCpuMs();
      runs[variant] = {
        spotsPerSecond: spots / seconds,
        cpu,
        ...(sandboxBefore !== undefined && sandboxAfter !== undefined ? { sandboxCpuMs: sandboxAfter - sandboxBefore } : {}),
      };
    }
    (round < WARMUP_ROUNDS ? warmup : measured).push(runs as Record<Variant, BulkRun>);
  }
  await dispatcher.close();
  rmSync(journalDir, { recursive: true, force: true });
  const rate = (variant: Variant) => median(measured.map((round) => round[variant].spotsPerSecond));
  const perSpot = (variant: Variant) => {
    const of = (pick: (run: BulkRun) => number | undefined) => {
      const values = measured.map((round) => pick(round[variant])).filter((value): value is number => value !== undefined);
      return values.length === measured.length ? median(values) / spots : undefined;
    };
    return { totalMs: of((run) => run.cpu.totalMs)!, mainMs: of((run) => run.cpu.mainMs), sandboxMs: of((run) => run.sandboxCpuMs) };
  };
  const figures = { core: rate('core'), raw: rate('raw'), sequential: rate('sequential') };
  const cpuPerSpot = { core: perSpot('core'), raw: perSpot('raw'), sequential: perSpot('sequential') };
  return {
    spots,
    rounds: measured,
    warmup,
    coreSpotsPerSecond: figures.core,
    rawSpotsPerSecond: figures.raw,
    sequentialSpotsPerSecond: figures.sequential,
    coreVsRaw: figures.core / figures.raw,
    coreVsSequential: figures.core / figures.sequential,
    cpuPerSpot,
    coreVsRawCpu: cpuPerSpot.core.totalMs / cpuPerSpot.raw.totalMs,
  };
}

export function printBulk(bulk: BulkFigures): void {
  const us = (ms: number) => (ms * 1000).toFixed(0);
  const run = (of: BulkRun) =>
    `${of.spotsPerSecond.toFixed(0)}/s, CPU per spot ${perItem(of.cpu, bulk.spots)}${of.sandboxCpuMs !== undefined ? `, sandbox ${((of.sandboxCpuMs / bulk.spots) * 1000).toFixed(0)} µs` : ''}`;
  console.log(`(a) bulk import of ${bulk.spots} spots at concurrency ${CONCURRENCY}`);
  bulk.warmup.forEach((round, index) =>
    console.log(
      `    warm-up ${index + 1}: core ${run(round.core)}; raw ${run(round.raw)}; CPU core/raw ${(round.core.cpu.totalMs / round.raw.cpu.totalMs).toFixed(2)}`,
    ),
  );
  bulk.rounds.forEach((round, index) =>
    console.log(
      `    round ${index + 1}: core ${run(round.core)}; raw ${run(round.raw)}; CPU core/raw ${(round.core.cpu.totalMs / round.raw.cpu.totalMs).toFixed(2)}`,
    ),
  );
  console.log(`    core bulkImport      ${bulk.coreSpotsPerSecond.toFixed(0)} spots/s`);
  console.log(`    raw undici loop      ${bulk.rawSpotsPerSecond.toFixed(0)} spots/s`);
  console.log(`    sequential loop      ${bulk.sequentialSpotsPerSecond.toFixed(0)} spots/s`);
  console.log(
    `    core / raw           ${bulk.coreVsRaw.toFixed(2)}  (loopback throughput, not a goal by itself: it follows the processor time of this process and the sandbox's)`,
  );
  console.log(`    core / sequential    ${bulk.coreVsSequential.toFixed(2)}`);
  const cpu = bulk.cpuPerSpot;
  const line = (name: string, of: BulkFigures['cpuPerSpot'][Variant]) =>
    `${name} ${us(of.totalMs)} µs${of.mainMs !== undefined ? ` (main thread ${us(of.mainMs)}, other threads ${us(of.totalMs - of.mainMs)})` : ''}${of.sandboxMs !== undefined ? `, sandbox ${us(of.sandboxMs)} µs` : ''}`;
  console.log(`    CPU per spot (medians) ${line('core', cpu.core)}`);
  console.log(`                         ${line('raw loop', cpu.raw)}`);
  const main = cpu.core.mainMs !== undefined && cpu.raw.mainMs !== undefined ? ` (main threads ${(cpu.core.mainMs / cpu.raw.mainMs).toFixed(2)})` : '';
  console.log(
    `    CPU core / raw       ${bulk.coreVsRawCpu.toFixed(2)}${main}  (goal ≤ ${BULK_CPU_GOAL}) ${bulk.coreVsRawCpu <= BULK_CPU_GOAL ? 'met' : 'NOT MET'}`,
  );
}

function rawLoop(baseUrl: string, token: string, bodies: string[], concurrency: number, dispatcher: Agent): Promise<void> {
  return rawImportLoop(baseUrl, token, bodies.length, (index) => bodies[index], concurrency, dispatcher);
}

function spotBody(sourceId: string) {
  return { data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 48.2, longitude: 16.3, fld_1_3: 'bench' } } };
}
