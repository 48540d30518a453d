// (g) Rows of a table through the command line. Throughput: `spot-import import trees.csv` (a CSV
// with its mapping, no media) against `spot-import import <folder>` of the same spots written as
// spot documents, both the real CLI as a child process at the same concurrency, each against a
// fresh sandbox process (so neither side meets the other's spots), the order alternating by
// round; the goal is the ratio of the medians. CPU per spot of each side: the CLI's from the child
// itself at exit (process.resourceUsage through a --require'd hook, so the CLI is not changed for
// the measurement; process.cpuUsage of a child cannot be read from here), the sandbox's from /proc.
// Memory: one import of a much larger CSV (validated by the import's own checks as it goes), with
// the CLI's peak resident set size read the same way, and the same for `spot-import validate`.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, type WriteStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { DEMO_CLIENT } from '../src/sandbox/types';
import { median, startSandboxProcess } from './sandboxProcess';

export const CONCURRENCY = 8;

type Side = 'rows' | 'documents';

export interface RowsRound {
  rowsPerSecond: number;
  documentsPerSecond: number;
  /** What each side's child used in this round. */
  usage: Record<Side, ChildUsage>;
}

export interface ChildUsage {
  seconds: number;
  /** Processor time of the CLI child (user + system), ms. */
  cpuMs: number;
  /** Peak resident set size of the CLI child, MiB. */
  peakRssMiB: number;
  /** Processor time of the sandbox while the child ran, ms (Linux only). */
  sandboxCpuMs?: number;
}

export interface RowsFigures {
  rows: number;
  rounds: RowsRound[];
  rowsPerSecond: number;
  documentsPerSecond: number;
  /** rows/s ÷ documents/s of the medians. */
  ratio: number;
  /** The median of each round's own ratio. */
  perRoundRatio: number;
  cpuMsPerSpot: Record<Side, number>;
  sandboxCpuMsPerSpot?: Record<Side, number>;
  peakRssMiB: Record<Side, number>;
  memoryRows: number;
  memoryImport: ChildUsage;
  memoryValidate: ChildUsage;
}

export async function benchRows(distDir: string, scratch: string, rows: number, rounds: number, memoryRows: number): Promise<RowsFigures> {
  const cliPath = join(distDir, 'cli.js');
  const hook = join(scratch, 'child-usage.js');
  writeFileSync(hook, USAGE_HOOK);
  const measured: RowsRound[] = [];
  const usage: Record<Side, ChildUsage[]> = { rows: [], documents: [] };
  // Round 0 warms up the file cache; it is not counted.
  for (let round = 0; round <= rounds; round++) {
    const figures: Partial<Omit<RowsRound, 'usage'>> & { usage: Partial<Record<Side, ChildUsage>> } = { usage: {} };
    const sides: Side[] = round % 2 === 0 ? ['rows', 'documents'] : ['documents', 'rows'];
    for (const side of sides) {
      const folder = join(scratch, `${side}-${round}`);
      mkdirSync(folder, { recursive: true });
      const prefix = `${side}-${round}`;
      const target = side === 'rows' ? await writeTable(folder, prefix, rows) : writeDocuments(join(folder, 'spots'), prefix, rows);
      const used = await runCli(distDir, cliPath, hook, folder, ['import', '--concurrency', String(CONCURRENCY), target]);
      rmSync(folder, { recursive: true, force: true });
      if (round === 0) continue;
      usage[side].push(used);
      figures.usage[side] = used;
      if (side === 'rows') figures.rowsPerSecond = rows / used.seconds;
      else figures.documentsPerSecond = rows / used.seconds;
    }
    if (round > 0) measured.push(figures as RowsRound);
  }

  const big = join(scratch, 'memory');
  mkdirSync(big, { recursive: true });
  const table = await writeTable(big, 'memory', memoryRows);
  const memoryValidate = await runCli(distDir, cliPath, hook, big, ['validate', table], false);
  const memoryImport = await runCli(distDir, cliPath, hook, big, ['import', '--concurrency', String(CONCURRENCY), table]);
  rmSync(big, { recursive: true, force: true });

  const perSpot = (side: Side, of: (used: ChildUsage) => number | undefined) => {
    const values = usage[side].map(of).filter((value): value is number => value !== undefined);
    return values.length > 0 ? median(values) / rows : undefined;
  };
  const rowsPerSecond = median(measured.map((round) => round.rowsPerSecond));
  const documentsPerSecond = median(measured.map((round) => round.documentsPerSecond));
  const sandboxRows = perSpot('rows', (used) => used.sandboxCpuMs);
  const sandboxDocuments = perSpot('documents', (used) => used.sandboxCpuMs);
  return {
    rows,
    rounds: measured,
    rowsPerSecond,
    documentsPerSecond,
    ratio: rowsPerSecond / documentsPerSecond,
    perRoundRatio: median(measured.map((round) => round.rowsPerSecond / round.documentsPerSecond)),
    cpuMsPerSpot: { rows: perSpot('rows', (used) => used.cpuMs)!, documents: perSpot('documents', (used) => used.cpuMs)! },
    ...(sandboxRows !== undefined && sandboxDocuments !== undefined ? { sandboxCpuMsPerSpot: { rows: sandboxRows, documents: sandboxDocuments } } : {}),
    peakRssMiB: { rows: Math.max(...usage.rows.map((used) => used.peakRssMiB)), documents: Math.max(...usage.documents.map((used) => used.peakRssMiB)) },
    memoryRows,
    memoryImport,
    memoryValidate,
  };
}

export function printRows(figures: RowsFigures): void {
  const goal = figures.ratio >= 0.9;
  console.log(
    `(g) spot-import import of a CSV of ${figures.rows} rows (no media) against the same spots as ${figures.rows} documents, concurrency ${CONCURRENCY}, each against a fresh sandbox`,
  );
  // Each round with the processor time per spot of the CLI child (and the sandbox) on each side:
  // on a machine shared with other work, a round whose ratio moves while these do not was slowed by the load.
  const cpu = (used: ChildUsage) =>
    `${((used.cpuMs / figures.rows) * 1000).toFixed(0)}${used.sandboxCpuMs !== undefined ? `+${((used.sandboxCpuMs / figures.rows) * 1000).toFixed(0)}` : ''} µs`;
  figures.rounds.forEach((round, index) =>
    console.log(
      `    round ${index + 1}: rows ${round.rowsPerSecond.toFixed(0)}/s (CPU per spot ${cpu(round.usage.rows)}), documents ${round.documentsPerSecond.toFixed(0)}/s (${cpu(round.usage.documents)}), ratio ${(round.rowsPerSecond / round.documentsPerSecond).toFixed(2)}`,
    ),
  );
  console.log(`    spot-import import trees.csv  ${figures.rowsPerSecond.toFixed(0)} rows/s`);
  console.log(`    spot-import import <folder>   ${figures.documentsPerSecond.toFixed(0)} documents/s`);
  console.log(
    `    rows / documents              ${figures.ratio.toFixed(2)}  (median per round ${figures.perRoundRatio.toFixed(2)}; goal ≥ 0.9) ${goal ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `    CPU per spot                  rows ${figures.cpuMsPerSpot.rows.toFixed(3)} ms, documents ${figures.cpuMsPerSpot.documents.toFixed(3)} ms (the CLI child; medians; per round above as CLI+sandbox)`,
  );
  const sandbox = figures.sandboxCpuMsPerSpot;
  if (sandbox) console.log(`    sandbox CPU per spot          rows ${sandbox.rows.toFixed(3)} ms, documents ${sandbox.documents.toFixed(3)} ms`);
  console.log(
    `    peak RSS of the CLI           rows ${figures.peakRssMiB.rows.toFixed(0)} MiB, documents ${figures.peakRssMiB.documents.toFixed(0)} MiB (largest of the rounds)`,
  );
  const { memoryImport, memoryValidate } = figures;
  console.log(
    `    ${figures.memoryRows} rows, import:   ${memoryImport.seconds.toFixed(1)} s, peak RSS of the CLI ${memoryImport.peakRssMiB.toFixed(0)} MiB  (goal < 256) ${memoryImport.peakRssMiB < 256 ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `    ${figures.memoryRows} rows, validate: ${memoryValidate.seconds.toFixed(1)} s, peak RSS of the CLI ${memoryValidate.peakRssMiB.toFixed(0)} MiB  (goal < 256) ${memoryValidate.peakRssMiB < 256 ? 'met' : 'NOT MET'}`,
  );
}

// Written by the child as it exits: its peak RSS (KiB) and processor time (µs).
export const USAGE_HOOK = `process.on('exit', () => {
  const usage = process.resourceUsage();
  require('fs').writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({ maxRSS: usage.maxRSS, user: usage.userCPUTime, system: usage.systemCPUTime }));
});
`;

/** Runs the CLI in `cwd` (its journal goes there), against a fresh sandbox process unless `sandbox` is false. */
export async function runCli(distDir: string, cliPath: string, hook: string, cwd: string, args: string[], sandbox = true): Promise<ChildUsage> {
  const service = sandbox ? await startSandboxProcess(distDir) : undefined;
  const report = join(cwd, '.usage.json');
  const env = {
    ...process.env,
    NO_COLOR: '1',
    BENCH_USAGE_FILE: report,
    ...(service ? { SPOT_BASE_URL: service.baseUrl, SPOT_CLIENT_ID: DEMO_CLIENT.clientId, SPOT_CLIENT_SECRET: DEMO_CLIENT.clientSecret } : {}),
  };
  try {
    const sandboxBefore = service?.cpuMs();
    const started = process.hrtime.bigint();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--require', hook, cliPath, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`spot-import ${args.join(' ')} exited with ${code}: ${stderr.slice(-500)}`))));
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const sandboxAfter = service?.cpuMs();
    const used = JSON.parse(readFileSync(report, 'utf8')) as { maxRSS: number; user: number; system: number };
    return {
      seconds,
      cpuMs: (used.user + used.system) / 1000,
      peakRssMiB: used.maxRSS / 1024,
      ...(sandboxBefore !== undefined && sandboxAfter !== undefined ? { sandboxCpuMs: sandboxAfter - sandboxBefore } : {}),
    };
  } finally {
    await service?.stop();
  }
}

/** The spot of row `index`: the same attributes on both sides (cli.bench's documents' spots). */
const LATITUDE = 48.2;
const LONGITUDE = 16.3;
const NOTE = 'bench';

/** trees.csv (streamed to disk: 100,000 rows are never one string here) and trees.mapping.json. */
export async function writeTable(folder: string, prefix: string, count: number): Promise<string> {
  const path = join(folder, 'trees.csv');
  const out = createWriteStream(path);
  await write(out, 'id,lat,lon,note\n');
  for (let i = 0; i < count; i++) await write(out, `${prefix}-${i},${LATITUDE},${LONGITUDE},${NOTE}\n`);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  const mapping = { topic_id: 1, source_id: '{id}', latitude: 'lat', longitude: 'lon', fields: { fld_1_3: 'note' } };
  writeFileSync(join(folder, 'trees.mapping.json'), JSON.stringify(mapping, null, 2));
  return path;
}

export function write(out: WriteStream, text: string): Promise<void> | void {
  if (!out.write(text)) return new Promise((resolve) => out.once('drain', resolve));
}

/** The same spots as documents, pretty-printed as an author writes them, in folders of 1,000 (as cli.bench). */
function writeDocuments(folder: string, prefix: string, count: number): string {
  for (let i = 0; i < count; i++) {
    const dir = join(folder, `part-${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) mkdirSync(dir, { recursive: true });
    const document = {
      data: { type: 'spots', attributes: { topic_id: 1, source_id: `${prefix}-${i}`, latitude: LATITUDE, longitude: LONGITUDE, fld_1_3: NOTE } },
    };
    writeFileSync(join(dir, `${i}.spot.json`), JSON.stringify(document, null, 2) + '\n');
  }
  return folder;
}
