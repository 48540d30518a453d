// (d) The command line. Throughput: `spot-import import` of a folder of spot documents, a real
// child process (start-up, token, folder walk, reading, checking, journal and output included),
// against a raw undici.request loop that lists the same kind of folder, reads each file and posts
// it with a ready token at the same concurrency. The goal compares like with like: the raw loop
// also runs as a fresh child process (this bench bundle started with --raw-loop, the token handed
// in). The same loop inside this warmed-up process is reported too, for scale. Rounds rotate the
// order, every round imports new spots (no cheaper update path), and ratios of medians are given.
// Memory: one import of a much larger folder, with the CLI's peak resident set size read from the
// process itself at exit (a --require'd hook, so the CLI is not changed for the measurement).
import { spawn } from 'node:child_process';
import { mkdirSync, promises as fs, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { TokenSource, defaultTokenUrl } from '../src/core';
import { DEMO_CLIENT } from '../src/sandbox/types';
import { rawImportLoop } from './rawImportLoop';
import { median } from './sandboxProcess';

const CONCURRENCY = 8;
export const RAW_LOOP_FLAG = '--raw-loop';

export interface CliFigures {
  documents: number;
  cliDocumentsPerSecond: number;
  rawProcessDocumentsPerSecond: number;
  rawInProcessDocumentsPerSecond: number;
  cliVsRawProcess: number;
  cliVsRawInProcess: number;
  memoryDocuments: number;
  memorySeconds: number;
  peakRssMiB: number;
}

export async function benchCli(baseUrl: string, distDir: string, scratch: string, documents: number, rounds: number, memoryDocuments: number): Promise<CliFigures> {
  const cliPath = join(distDir, 'cli.js');
  const benchPath = join(distDir, 'bench', 'run.js');
  const env = { ...process.env, SPOT_BASE_URL: baseUrl, SPOT_CLIENT_ID: DEMO_CLIENT.clientId, SPOT_CLIENT_SECRET: DEMO_CLIENT.clientSecret, NO_COLOR: '1' };
  const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(baseUrl), ...DEMO_CLIENT, dispatcher });
  const token = (await tokens.getToken()).value;
  const speeds = { cli: [] as number[], rawProcess: [] as number[], rawInProcess: [] as number[] };
  try {
    // Round 0 warms up the file cache, the sandbox and this process's JIT; it is not counted.
    for (let round = 0; round <= rounds; round++) {
      const folder = (name: string) => writeDocuments(join(scratch, `${name}-${round}`), `${name}-${round}`, documents);
      const folders = { cli: folder('cli'), rawProcess: folder('rawp'), rawInProcess: folder('rawi') };
      const variants: Array<[number[], () => Promise<void>]> = [
        [speeds.cli, () => runChild(cliPath, ['import', '--concurrency', String(CONCURRENCY), folders.cli], scratch, env)],
        [speeds.rawProcess, () => runChild(benchPath, [RAW_LOOP_FLAG, baseUrl, folders.rawProcess], scratch, { ...env, BENCH_TOKEN: token })],
        [speeds.rawInProcess, () => rawLoop(baseUrl, token, folders.rawInProcess, dispatcher)],
      ];
      for (let v = 0; v < variants.length; v++) {
        const [figures, run] = variants[(v + round) % variants.length];
        const started = process.hrtime.bigint();
        await run();
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        if (round > 0) figures.push(documents / seconds);
      }
      for (const path of Object.values(folders)) rmSync(path, { recursive: true, force: true });
    }
  } finally {
    await dispatcher.close();
  }

  const big = writeDocuments(join(scratch, 'memory'), 'memory', memoryDocuments);
  const hook = join(scratch, 'peak-rss.js');
  const report = join(scratch, 'peak-rss.txt');
  writeFileSync(hook, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, String(process.resourceUsage().maxRSS)));\n`);
  const started = process.hrtime.bigint();
  await runChild(cliPath, ['import', '--concurrency', String(CONCURRENCY), big], scratch, env, ['--require', hook]);
  const memorySeconds = Number(process.hrtime.bigint() - started) / 1e9;
  rmSync(big, { recursive: true, force: true });

  const cli = median(speeds.cli);
  const rawProcess = median(speeds.rawProcess);
  const rawInProcess = median(speeds.rawInProcess);
  return {
    documents,
    cliDocumentsPerSecond: cli,
    rawProcessDocumentsPerSecond: rawProcess,
    rawInProcessDocumentsPerSecond: rawInProcess,
    cliVsRawProcess: cli / rawProcess,
    cliVsRawInProcess: cli / rawInProcess,
    memoryDocuments,
    memorySeconds,
    peakRssMiB: Number(readFileSync(report, 'utf8')) / 1024,
  };
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
