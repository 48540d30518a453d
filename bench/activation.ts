// `npm run bench:activation`: activation time of the extension in a real extension host
// (code-server, one fresh server and browser per cold start; medians of SPOT_BENCH_RUNS, default 9)
// and the sizes of dist/*.js, against the budgets: activate() under 15 ms, extension.js under 150 KB,
// the network code (dist/core.js) and sandbox not loaded by activation, and the first network use
// (loading dist/core.js and its first request; dist/coreRest.js must not be needed) under 50 ms,
// in each of three cases (see CASES; their medians each): the first window after an install or
// update (no code cache yet), later windows, and a first window whose first network use comes
// after the code cache the extension builds ahead of time.
// activate() cost = extension.activate() of ours minus that of a no-op extension
// (bench/activationBaseline) in the same host: loading our bundle plus our activate() body, without
// what VS Code spends on activating any extension. The runs alternate which one goes first. Beside
// each wall-clock figure, the extension host's CPU time over the same interval.
// So that figures from two machines can be compared, it prints the CPU model, a fixed workload
// timed before and after the starts and in each extension host (bench/activationCalibration.ts),
// the system workloads (kernel calls, new memory, loopback round trips, compiling WebAssembly) and
// the kernel's settings that make those cost more (its guards against speculation, huge pages),
// which the fixed workload does not show, the same first network use in plain Node phase by phase
// (bench/firstUseReplica.ts), and the load average; each start begins once the host and the whole
// machine are quiet (see activationHost.ts settle; SPOT_BENCH_QUIET_MACHINE=0 waits for the host
// alone, as before).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheRoot, freshDir, repoRoot } from '../test/integration/launchers/harness/paths';
import { runBounded, stopAll } from '../test/integration/launchers/harness/processes';
import { runSuiteInCodeServer } from '../test/integration/launchers/codeServer';
import { execFile } from 'child_process';
import { promisify } from 'util';
import { calibrate, calibrateSystem, cpuModel, kernelSettings, type Calibration, type SystemCalibration } from './activationCalibration';
import { REPLICA_PHASES, type ReplicaPhases } from './firstUseReplica';
import { tokenServer } from './tokenServer';

const ACTIVATE_BUDGET_MS = 15;
const EXTENSION_BUDGET_BYTES = 150 * 1024;
const FIRST_NETWORK_USE_BUDGET_MS = 50;

/**
 * What each cold start measures: a first window after an install or update (no code cache) whose
 * first network use comes right after activation; a later window (the code cache the window
 * before saved after its first request); a first window whose first network use comes after the
 * extension built the code cache ahead of time (a few seconds after activation, in a worker).
 */
const CASES = ['first-window', 'later-window', 'first-window-prepared'] as const;
type Case = (typeof CASES)[number];
const CASE_LABELS: Record<Case, string> = {
  'first-window': 'first window, right after activation (no code cache)',
  'later-window': 'later windows (code cache)',
  'first-window-prepared': 'first window, after the cache built ahead of time',
};

interface Sample {
  case: Case;
  /** What the ahead-of-time build did (first-window-prepared). */
  prepared?: string;
  activateMs: number;
  baselineMs: number;
  /** This host's CPU time over each activate() (see activationHost.ts timeActivate). */
  activateCpuMs?: number;
  baselineCpuMs?: number;
  loggedActivateMs?: number;
  /** The body's steps as the extension logs them (services, status, documents, view, commands), in ms. */
  loggedSteps?: Record<string, number>;
  wasActive: boolean;
  coreLoadedAtActivation: boolean;
  sandboxLoadedAtActivation: boolean;
  /** Whether the first network use loaded dist/coreRest.js (it must not need it). */
  coreRestLoadedAtFirstUse?: boolean;
  coreLoadMs: number;
  /** Whether activation started dist/extension.js from its code cache (src/extension/start.ts). */
  extensionCodeCache?: string;
  /** Loading dist/core.js plus its first request (a token from a loopback server). */
  firstRequestMs: number;
  /** The same two as CPU time of the extension host process (all its threads). */
  coreLoadCpuMs?: number;
  firstRequestCpuMs?: number;
  /** Whether loading dist/core.js started from V8's code cache that an earlier start saved. */
  codeCache?: 'used' | 'none' | 'rejected';
  /** CPU time of the rest of the machine during the first network use (10 ms clock ticks). */
  othersCpuMs?: number;
  /** How long the host took to settle before the bench began (see activationHost.ts). */
  settleMs?: number;
  settleTimedOut?: boolean;
  /** The machine's CPU use (share of all CPUs) in the last quarter second before the bench began. */
  settleMachineShare?: number;
  /** The fixed workload, timed in the extension host after the measurements. */
  calibration?: Calibration;
  node?: string;
  vscode: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Packages bench/activationBaseline once per bench run (installed into each fresh server). */
async function packBaseline(): Promise<string> {
  const out = path.join(cacheRoot, 'runs', 'activation-baseline.vsix');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await runBounded(
    path.join(repoRoot, 'node_modules', '.bin', 'vsce'),
    ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', out],
    { cwd: path.join(repoRoot, 'bench', 'activationBaseline'), timeoutMs: 120_000, what: 'vsce package (activation baseline)' },
  );
  return out;
}

async function measure(runs: number): Promise<Sample[]> {
  const baselineVsix = await packBaseline();
  // An empty folder: nothing in it triggers activation before the bench asks for it.
  const workspace = freshDir(path.join(cacheRoot, 'runs', 'bench-empty-workspace'));
  const samples: Sample[] = [];
  // The starts go through CASES in turn. A first window's code caches are removed first. Each
  // start saves its cache (as the extension does after its first token), so the start after a
  // first window is a later window.
  for (let i = 0; i < runs; i++) {
    const which = CASES[i % CASES.length];
    // dist/extension.js's cache too (src/extension/start.ts): a first window after an install has none.
    if (which !== 'later-window')
      for (const bundle of ['core.js', 'coreRest.js', 'extension.js']) fs.rmSync(path.join(repoRoot, 'dist', `${bundle}.v8cache`), { force: true });
    let sample: Sample | undefined;
    const code = await runSuiteInCodeServer({
      extensionTestsPath: path.join(repoRoot, 'out', 'bench', 'activationHost.js'),
      workspace,
      installVsixes: [baselineVsix],
      // The order changes every round of the cases, so that each case gets both orders.
      env: {
        SPOT_BENCH_CASE: which,
        SPOT_BENCH_ORDER: Math.floor(i / CASES.length) % 2 ? 'baseline-first' : 'ours-first',
        // Each start's profiles in a folder of their own (bench/cpuProfile.ts).
        ...(process.env.SPOT_BENCH_PROFILE ? { SPOT_BENCH_PROFILE: path.resolve(process.env.SPOT_BENCH_PROFILE, `start-${i + 1}`) } : {}),
      },
      label: 'bench-activation',
      quiet: true,
      timeoutMs: 120_000,
      onLog: (line, type) => {
        const match = /SPOT_BENCH (\{.*\})/.exec(line);
        if (match) sample = JSON.parse(match[1]) as Sample;
        else if (type === 'error') console.error(`    ${line}`);
      },
    });
    if (code !== 0 || !sample) throw new Error(`cold start ${i + 1} failed (exit ${code})`);
    const logged = sample.loggedActivateMs === undefined ? 'not logged' : `${sample.loggedActivateMs.toFixed(1)} ms`;
    const cpu = (value: number | undefined) => (value === undefined ? '' : ` (CPU ${value.toFixed(1)})`);
    const share = sample.settleMachineShare === undefined ? '' : `, machine ${(sample.settleMachineShare * 100).toFixed(0)} % busy then`;
    const others = sample.othersCpuMs === undefined ? '' : `, the rest of the machine meanwhile ${sample.othersCpuMs.toFixed(0)} ms CPU`;
    console.log(
      `  cold start ${i + 1}/${runs}: ours ${sample.activateMs.toFixed(1)} ms${cpu(sample.activateCpuMs)}, no-op baseline ${sample.baselineMs.toFixed(1)} ms${cpu(sample.baselineCpuMs)}, ` +
        `activate() body as logged ${logged} (extension's code cache ${sample.extensionCodeCache ?? 'unknown'}), first network use (${sample.case}) ${sample.firstRequestMs.toFixed(1)} ms${cpu(sample.firstRequestCpuMs)} (code cache ${sample.codeCache ?? 'unknown'}${sample.prepared ? `, built ahead: ${sample.prepared}` : ''}${others}), ` +
        `after ${((sample.settleMs ?? 0) / 1000).toFixed(1)} s to settle${sample.settleTimedOut ? ' (gave up waiting for quiet)' : ''}${share}` +
        `${sample.calibration ? `; calibration in the host ${sample.calibration.compileMs.toFixed(1)} / ${sample.calibration.computeMs.toFixed(1)} ms` : ''}${sample.wasActive ? ' (already active!)' : ''}`,
    );
    samples.push(sample);
  }
  return samples;
}

function bundleSizes(): Array<{ file: string; bytes: number }> {
  const dist = path.join(repoRoot, 'dist');
  return fs
    .readdirSync(dist)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ file: `dist/${name}`, bytes: fs.statSync(path.join(dist, name)).size }))
    .sort((a, b) => a.file.localeCompare(b.file));
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

function describeSystem(system: SystemCalibration): string {
  return `20,000 fstat calls (and their Stats objects) ${system.syscallMs.toFixed(1)} ms, first touch of 64 MiB ${system.pageFaultMs.toFixed(1)} ms, 200 loopback round trips ${system.loopbackMs.toFixed(1)} ms, compiling undici's llhttp (WebAssembly, once) ${system.wasmMs.toFixed(1)} ms (medians of ${system.rounds})`;
}

/** How many times the plain-Node replica of the first network use runs (a fresh process each). */
const REPLICA_RUNS = 7;

/**
 * The first network use in plain Node, phase by phase (bench/firstUseReplica.ts), REPLICA_RUNS
 * times against one warm token server: medians of each phase.
 */
async function replicaPhases(): Promise<ReplicaPhases> {
  const server = await tokenServer();
  const runs: ReplicaPhases[] = [];
  try {
    for (let run = 0; run < REPLICA_RUNS; run++) {
      const { stdout } = await promisify(execFile)(process.execPath, [
        path.join(__dirname, 'firstUseReplica.js'),
        path.join(repoRoot, 'dist', 'core.js'),
        `${server.url}/oauth/token`,
      ]);
      runs.push(JSON.parse(stdout) as ReplicaPhases);
    }
  } finally {
    await server.close();
  }
  return Object.fromEntries(REPLICA_PHASES.map((phase) => [phase, median(runs.map((run) => run[phase]))])) as unknown as ReplicaPhases;
}

function describeCalibration(calibration: Calibration): string {
  return `compile and first run of a fixed 0.7 MB script ${calibration.compileMs.toFixed(1)} ms, fixed JavaScript loop ${calibration.computeMs.toFixed(1)} ms (medians of ${calibration.rounds})`;
}

async function main(): Promise<number> {
  const runs = Math.max(1, Number(process.env.SPOT_BENCH_RUNS ?? 9));
  console.log(`Activation in the extension host: ${runs} cold start(s), each a fresh code-server and browser.`);
  console.log(`CPU: ${cpuModel()}; Node ${process.versions.node} (V8 ${process.versions.v8}) for the bench itself`);
  console.log(`Kernel: ${kernelSettings()}`);
  // The fixed workload before and after, in this process, with nothing of the bench running:
  // what this machine (and whatever else runs on it now) needs for a known piece of work.
  const calibrationBefore = calibrate();
  const loadBefore = loadAverage();
  console.log(`Calibration before: ${describeCalibration(calibrationBefore)}; load average ${loadBefore}`);
  const system = await calibrateSystem();
  console.log(`System calibration: ${describeSystem(system)}`);
  const samples = await measure(runs);
  const calibrationAfter = calibrate();
  const replica = await replicaPhases();
  const ms = (pick: (s: Sample) => number | undefined) => samples.map(pick).filter((v): v is number => v !== undefined);
  const range = (values: number[]) => `median ${median(values).toFixed(1)} ms (min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)})`;
  const cost = ms((s) => Math.max(0, s.activateMs - s.baselineMs));
  const activate = median(cost);
  const problems: string[] = [];
  if (samples.some((s) => s.wasActive)) problems.push('an extension was already active before the bench activated it');
  if (samples.some((s) => s.coreLoadedAtActivation)) problems.push('dist/core.js (network code, schemas) loaded at activation');
  if (samples.some((s) => s.sandboxLoadedAtActivation)) problems.push('dist/sandbox.js loaded at activation');
  if (samples.some((s) => s.coreRestLoadedAtFirstUse))
    problems.push('the first network use loaded dist/coreRest.js (documents, topics, media): only dist/core.js should be needed');
  if (activate >= ACTIVATE_BUDGET_MS) problems.push(`activate() cost median ${activate.toFixed(1)} ms ≥ ${ACTIVATE_BUDGET_MS} ms`);
  // With and without dist/extension.js's code cache: later windows have it, a first window not.
  const costOf = (withCache: boolean) => samples.filter((s) => (s.case === 'later-window') === withCache).map((s) => Math.max(0, s.activateMs - s.baselineMs));
  const byCase = (which: Case) => samples.filter((s) => s.case === which);
  const verdicts = CASES.map((which) => {
    const wall = byCase(which).map((s) => s.firstRequestMs);
    return {
      which,
      wall,
      cpu: byCase(which)
        .map((s) => s.firstRequestCpuMs)
        .filter((v): v is number => v !== undefined),
      met: wall.length === 0 || median(wall) < FIRST_NETWORK_USE_BUDGET_MS,
    };
  });
  for (const { which, wall, met } of verdicts) {
    if (!met) problems.push(`first network use in the ${CASE_LABELS[which]}, median ${median(wall).toFixed(1)} ms ≥ ${FIRST_NETWORK_USE_BUDGET_MS} ms`);
  }
  const expectedCache: Record<Case, Sample['codeCache']> = { 'first-window': 'none', 'later-window': 'used', 'first-window-prepared': 'used' };
  const unexpected = samples.filter((s) => s.codeCache !== expectedCache[s.case] || s.extensionCodeCache !== (s.case === 'later-window' ? 'used' : 'none'));
  if (unexpected.length)
    problems.push(
      `${unexpected.length} start(s) found the code caches otherwise than their case needs (${unexpected.map((s) => `${s.case}: core ${s.codeCache}, extension ${s.extensionCodeCache}${s.prepared ? `, built ahead: ${s.prepared}` : ''}`).join('; ')})`,
    );

  console.log(`\nVS Code ${samples[0].vscode} (extension host on Node ${samples[0].node ?? '?'})`);
  console.log(`  CPU                                   ${cpuModel()}`);
  console.log(`  calibration before the starts         ${describeCalibration(calibrationBefore)}; load average ${loadBefore}`);
  console.log(`  calibration after the starts          ${describeCalibration(calibrationAfter)}; load average ${loadAverage()}`);
  console.log(`  system calibration                    ${describeSystem(system)}`);
  console.log(`  kernel                                ${kernelSettings()}`);
  const hostCalibration = samples.map((s) => s.calibration).filter((c): c is Calibration => c !== undefined);
  if (hostCalibration.length) {
    console.log(
      `  calibration in the extension hosts    compile ${range(hostCalibration.map((c) => c.compileMs))}, loop ${range(hostCalibration.map((c) => c.computeMs))}`,
    );
  }
  console.log(
    `  settled after                         ${range(ms((s) => s.settleMs))}${samples.some((s) => s.settleTimedOut) ? ` (${samples.filter((s) => s.settleTimedOut).length} gave up waiting for a quiet machine)` : ''}`,
  );
  console.log(`  extension.activate(), ours            ${range(ms((s) => s.activateMs))}`);
  console.log(`    as CPU time of the extension host    ${range(ms((s) => s.activateCpuMs))}`);
  console.log(`  extension.activate(), no-op baseline  ${range(ms((s) => s.baselineMs))} (its spread is VS Code's own: activation waits for the window)`);
  console.log(`    as CPU time of the extension host    ${range(ms((s) => s.baselineCpuMs))}`);
  console.log(
    `  activate() cost (ours - baseline)     ${range(cost)}  budget < ${ACTIVATE_BUDGET_MS} ms  ${activate < ACTIVATE_BUDGET_MS ? 'met' : 'NOT MET'}`,
  );
  for (const [label, values] of [
    ['first windows (no code cache)', costOf(false)],
    ['later windows (code cache)', costOf(true)],
  ] as const) {
    if (values.length) console.log(`    ${label.padEnd(34)} ${range(values)}`);
  }
  const cpuCost = samples
    .filter((s) => s.activateCpuMs !== undefined && s.baselineCpuMs !== undefined)
    .map((s) => (s.activateCpuMs as number) - (s.baselineCpuMs as number));
  if (cpuCost.length) console.log(`    as CPU time (ours - baseline)        ${range(cpuCost)}`);
  const logged = ms((s) => s.loggedActivateMs);
  if (logged.length) console.log(`  activate() body, as the extension logs ${range(logged)}`);
  const steps = [...new Set(samples.flatMap((s) => Object.keys(s.loggedSteps ?? {})))];
  if (steps.length)
    console.log(
      `    its steps, medians                   ${steps.map((step) => `${step} ${median(ms((s) => s.loggedSteps?.[step])).toFixed(1)}`).join(', ')} ms`,
    );
  console.log(`  ratio ours / baseline                 ${(median(ms((s) => s.activateMs)) / Math.max(0.001, median(ms((s) => s.baselineMs)))).toFixed(2)}`);
  console.log(`  first use of dist/core.js             ${range(ms((s) => s.coreLoadMs))} (paid on first network use, not at activation)`);
  console.log(`    as CPU time of the extension host    ${range(ms((s) => s.coreLoadCpuMs))}`);
  console.log(`  first network use (load + 1 request)  ${range(ms((s) => s.firstRequestMs))}`);
  console.log(`    as CPU time of the extension host    ${range(ms((s) => s.firstRequestCpuMs))}`);
  const verdict = (met: boolean) => `budget < ${FIRST_NETWORK_USE_BUDGET_MS} ms  ${met ? 'met' : 'NOT MET'}`;
  for (const { which, wall, cpu, met } of verdicts) {
    if (!wall.length) continue;
    console.log(`    ${CASE_LABELS[which]}`);
    console.log(`      wall clock                         ${range(wall)}  ${verdict(met)}`);
    if (cpu.length) console.log(`      as CPU time of the extension host  ${range(cpu)}`);
  }
  console.log(
    `  the same first network use in plain Node (no code cache; bench/firstUseReplica.ts, medians of ${REPLICA_RUNS} processes, each phase's and the totals'): ${REPLICA_PHASES.map((phase) => `${phase} ${replica[phase].toFixed(1)}`).join(', ')} ms`,
  );
  console.log('\nBundle sizes');
  for (const { file, bytes } of bundleSizes()) {
    const budget =
      file === 'dist/extension.js'
        ? `  budget < ${EXTENSION_BUDGET_BYTES / 1024} KB  ${bytes < EXTENSION_BUDGET_BYTES ? 'met' : 'NOT MET'}`
        : '  (loaded on first use)';
    console.log(`  ${file.padEnd(24)} ${(bytes / 1024).toFixed(1).padStart(8)} KB${budget}`);
    if (file === 'dist/extension.js' && bytes >= EXTENSION_BUDGET_BYTES) problems.push(`dist/extension.js is ${(bytes / 1024).toFixed(1)} KB ≥ 150 KB`);
  }
  if (problems.length) {
    console.log(`\nbench:activation: ${problems.length} budget(s) not met:\n  - ${problems.join('\n  - ')}`);
    return 1;
  }
  console.log('\nbench:activation: all budgets met');
  return 0;
}

main()
  .catch((error) => {
    console.error(`bench:activation: ${(error as Error).message}`);
    return 1;
  })
  .then(async (code) => {
    await stopAll();
    process.exit(code);
  });
