// (d) The command line. Throughput: `spot-import import` of a folder of spot documents, a real
// child process (start-up, token, folder walk, reading, checking, journal and output included),
// against a raw undici.request loop that lists the same kind of folder, reads each file and posts
// it with a ready token at the same concurrency. The goal compares like with like: the raw loop
// also runs as a fresh child process (this bench bundle started with --raw-loop, the token handed
// in). The same loop inside this warmed-up process is reported too, for scale. Rounds rotate the
// order, every round imports new spots (no cheaper update path), and ratios of medians are given.
// Processor time per document of each side in the same round, beside the rates: the children's
// from themselves at exit (process.resourceUsage through a --require'd hook, so the CLI is not
// changed for the measurement), the main thread apart from the rest (V8's compiler and collector
// threads, libuv's pool), and the sandbox's from /proc while each side ran. On a 2-core machine
// the client and the sandbox share the cores, so when the machine is the limit the ratio follows
// (raw + its sandbox time) / (CLI + its sandbox time): printed as "if CPU-bound", a figure that
// holds from one machine to another where the measured rates move with the machine and its load.
// Memory: one import of a much larger folder, with the CLI's peak resident set size read the same way.
import { spawn } from 'node:child_process';
import { mkdirSync, promises as fs, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { TokenSource, defaultTokenUrl } from '../src/core';
import { DEMO_CLIENT } from '../src/sandbox/types';
import { CHILD_USAGE_HOOK, cpuSince, ownCpuTime, perItem, readChildUsage, type ChildUsage, type CpuTime } from './cpuTime';
import { rawImportLoop } from './rawImportLoop';
import { median } from './sandboxProcess';

const CONCURRENCY = 8;
export const RAW_LOOP_FLAG = '--raw-loop';

type Side = 'cli' | 'rawProcess' | 'rawInProcess';

export interface SideRun {
  documentsPerSecond: number;
  /** The side's process: the child's own, or this process's while the in-process loop ran. */
  cpu: CpuTime;
  /** The sandbox's processor time while the side ran, ms (Linux only). */
  sandboxCpuMs?: number;
}

export interface CliFigures {
  documents: number;
  rounds: Array<Record<Side, SideRun>>;
  cliDocumentsPerSecond: number;
  rawProcessDocumentsPerSecond: number;
  rawInProcessDocumentsPerSecond: number;
  cliVsRawProcess: number;
  cliVsRawInProcess: number;
  /** Medians over the rounds, per document, in ms. */
  cpuPerDocument: Record<Side, { totalMs: number; mainMs?: number; sandboxMs?: number }>;
  memoryDocuments: number;
  memorySeconds: number;
  peakRssMiB: number;
  memoryCpu: CpuTime;
}

/** `sandboxCpuMs`: the sandbox process's processor time so far (startSandboxProcess's cpuMs). */
export async function benchCli(
  baseUrl: string,
  distDir: string,
  scratch: string,
  documents: number,
  rounds: number,
  memoryDocuments: number,
  sandboxCpuMs: () => number | undefined = () => undefined,
): Promise<CliFigures> {
  const cliPath = join(distDir, 'cli.js');
  const benchPath = join(distDir, 'bench', 'run.js');
  const hook = join(scratch, 'child-usage.js');
  writeFileSync(hook, CHILD_USAGE_HOOK);
  const usageFile = join(scratch, 'child-usage.json');
  const env = {
    ...process.env,
    SPOT_BASE_URL: baseUrl,
    SPOT_CLIENT_ID: DEMO_CLIENT.clientId,
    SPOT_CLIENT_SECRET: DEMO_CLIENT.clientSecret,
    NO_COLOR: '1',
    BENCH_USAGE_FILE: usageFile,
  };
  const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(baseUrl), ...DEMO_CLIENT, dispatcher });
  const token = (await tokens.getToken()).value;
  const measured: Array<Record<Side, SideRun>> = [];
  try {
    // Round 0 warms up the file cache, the sandbox and this process's JIT; it is not counted.
    for (let round = 0; round <= rounds; round++) {
      const folder = (name: string) => writeDocuments(join(scratch, `${name}-${round}`), `${name}-${round}`, documents);
      const folders = { cli: folder('cli'), rawProcess: folder('rawp'), rawInProcess: folder('rawi') };
      const child = (script: string, args: string[], childEnv: NodeJS.ProcessEnv) => async () => {
        await runChild(script, args, scratch, childEnv, ['--require', hook]);
        return readChildUsage(usageFile);
      };
      const variants: Array<[Side, () => Promise<CpuTime>]> = [
        ['cli', child(cliPath, ['import', '--concurrency', String(CONCURRENCY), folders.cli], env)],
        ['rawProcess', child(benchPath, [RAW_LOOP_FLAG, baseUrl, folders.rawProcess], { ...env, BENCH_TOKEN: token })],
        [
          'rawInProcess',
          async () => {
            const before = ownCpuTime();
            await rawLoop(baseUrl, token, folders.rawInProcess, dispatcher);
            return cpuSince(before);
          },
        ],
      ];
      const runs: Partial<Record<Side, SideRun>> = {};
      for (let v = 0; v < variants.length; v++) {
        const [side, run] = variants[(v + round) % variants.length];
        const sandboxBefore = sandboxCpuMs();
        const started = process.hrtime.bigint();
        const cpu = await run();
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const sandboxAfter = sandboxCpuMs();
        runs[side] = {
          documentsPerSecond: documents / seconds,
          cpu,
          ...(sandboxBefore !== undefined && sandboxAfter !== undefined ? { sandboxCpuMs: sandboxAfter - sandboxBefore } : {}),
        };
      }
      if (round > 0) measured.push(runs as Record<Side, SideRun>);
      for (const path of Object.values(folders)) rmSync(path, { recursive: true, force: true });
    }
  } finally {
    await dispatcher.close();
  }

  const big = writeDocuments(join(scratch, 'memory'), 'memory', memoryDocuments);
  const started = process.hrtime.bigint();
  await runChild(cliPath, ['import', '--concurrency', String(CONCURRENCY), big], scratch, env, ['--require', hook]);
  const memorySeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const memory: ChildUsage = readChildUsage(usageFile);
  rmSync(big, { recursive: true, force: true });

  const rate = (side: Side) => median(measured.map((round) => round[side].documentsPerSecond));
  const perDocument = (side: Side) => {
    const of = (pick: (run: SideRun) => number | undefined) => {
      const values = measured.map((round) => pick(round[side])).filter((value): value is number => value !== undefined);
      return values.length === measured.length ? median(values) / documents : undefined;
    };
    return { totalMs: of((run) => run.cpu.totalMs)!, mainMs: of((run) => run.cpu.mainMs), sandboxMs: of((run) => run.sandboxCpuMs) };
  };
  const cli = rate('cli');
  const rawProcess = rate('rawProcess');
  const rawInProcess = rate('rawInProcess');
  return {
    documents,
    rounds: measured,
    cliDocumentsPerSecond: cli,
    rawProcessDocumentsPerSecond: rawProcess,
    rawInProcessDocumentsPerSecond: rawInProcess,
    cliVsRawProcess: cli / rawProcess,
    cliVsRawInProcess: cli / rawInProcess,
    cpuPerDocument: { cli: perDocument('cli'), rawProcess: perDocument('rawProcess'), rawInProcess: perDocument('rawInProcess') },
    memoryDocuments,
    memorySeconds,
    peakRssMiB: memory.peakRssMiB,
    memoryCpu: memory,
  };
}

export function printCli(cli: CliFigures): void {
  const us = (ms: number) => (ms * 1000).toFixed(0);
  const side = (run: SideRun) =>
    `${run.documentsPerSecond.toFixed(0)}/s, CPU per document ${perItem(run.cpu, cli.documents)}${run.sandboxCpuMs !== undefined ? `, sandbox ${((run.sandboxCpuMs / cli.documents) * 1000).toFixed(0)} µs` : ''}`;
  console.log(`(d) spot-import import of ${cli.documents} documents from a folder at concurrency ${CONCURRENCY}`);
  cli.rounds.forEach((round, index) => {
    console.log(`    round ${index + 1}: spot-import ${side(round.cli)}`);
    console.log(`             raw process ${side(round.rawProcess)}; ratio ${(round.cli.documentsPerSecond / round.rawProcess.documentsPerSecond).toFixed(2)}`);
  });
  console.log(`    spot-import (a process)       ${cli.cliDocumentsPerSecond.toFixed(0)} documents/s`);
  console.log(`    raw undici loop (a process)   ${cli.rawProcessDocumentsPerSecond.toFixed(0)} documents/s  (same kind of files, ready token)`);
  console.log(`    raw undici loop (in this one) ${cli.rawInProcessDocumentsPerSecond.toFixed(0)} documents/s  (already warm)`);
  console.log(`    spot-import / raw process     ${cli.cliVsRawProcess.toFixed(2)}  (goal ≥ 0.85) ${cli.cliVsRawProcess >= 0.85 ? 'met' : 'NOT MET'}`);
  console.log(`    spot-import / raw in-process  ${cli.cliVsRawInProcess.toFixed(2)}`);
  const cpu = cli.cpuPerDocument;
  const line = (name: string, of: CliFigures['cpuPerDocument'][Side]) =>
    `${name} ${us(of.totalMs)} µs${of.mainMs !== undefined ? ` (main thread ${us(of.mainMs)}, other threads ${us(of.totalMs - of.mainMs)})` : ''}${of.sandboxMs !== undefined ? `, sandbox ${us(of.sandboxMs)} µs` : ''}`;
  console.log(`    CPU per document (medians)    ${line('spot-import', cpu.cli)}`);
  console.log(`                                  ${line('raw process', cpu.rawProcess)}`);
  console.log(`                                  ${line('raw in this process', cpu.rawInProcess)}`);
  console.log(
    `    CPU spot-import / raw process ${(cpu.cli.totalMs / cpu.rawProcess.totalMs).toFixed(2)}  (main threads ${cpu.cli.mainMs !== undefined && cpu.rawProcess.mainMs !== undefined ? (cpu.cli.mainMs / cpu.rawProcess.mainMs).toFixed(2) : '?'})`,
  );
  if (cpu.cli.sandboxMs !== undefined && cpu.rawProcess.sandboxMs !== undefined) {
    const bound = (cpu.rawProcess.totalMs + cpu.rawProcess.sandboxMs) / (cpu.cli.totalMs + cpu.cli.sandboxMs);
    console.log(`    ratio if CPU-bound            ${bound.toFixed(2)}  ((raw + its sandbox time) / (spot-import + its sandbox time) per document)`);
  }
  const memory = cli.memoryDocuments;
  console.log(
    `    ${memory} documents: ${cli.memorySeconds.toFixed(1)} s, CPU per document ${perItem(cli.memoryCpu, memory)}, peak RSS of the CLI ${cli.peakRssMiB.toFixed(0)} MiB  (goal < 256) ${cli.peakRssMiB < 256 ? 'met' : 'NOT MET'}`,
  );
}

/** The raw loop as its own process: `node dist/bench/run.js --raw-loop <base URL> <folder>`, token in BENCH_TOKEN. */
export async function rawLoopProcess(args: string[]): Promise<void> {
  const [baseUrl, folder] = args;
  const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
  try {
    await rawLoop(baseUrl, process.env.BENCH_TOKEN ?? '', folder, dispatcher);
  } finally {
    await dispatcher.close();
  }
}

/** Spot documents as an author writes them (pretty-printed), in folders of 1,000. */
function writeDocuments(folder: string, prefix: string, count: number): string {
  for (let i = 0; i < count; i++) {
    const dir = join(folder, `part-${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) mkdirSync(dir, { recursive: true });
    const document = { data: { type: 'spots', attributes: { topic_id: 1, source_id: `${prefix}-${i}`, latitude: 48.2, longitude: 16.3, fld_1_3: 'bench' } } };
    writeFileSync(join(dir, `${i}.spot.json`), JSON.stringify(document, null, 2));
  }
  return folder;
}

function runChild(script: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script} ${args[0]} exited with ${code}: ${stderr.slice(-500)}`))));
  });
}

/** The baseline: list the folder, read each file, post it with a ready token, CONCURRENCY at a time. */
async function rawLoop(baseUrl: string, token: string, folder: string, dispatcher: Agent): Promise<void> {
  const files: string[] = [];
  for (const part of (await fs.readdir(folder)).sort()) {
    for (const name of (await fs.readdir(join(folder, part))).sort()) files.push(join(folder, part, name));
  }
  await rawImportLoop(baseUrl, token, files.length, (index) => fs.readFile(files[index], 'utf8'), CONCURRENCY, dispatcher);
}
