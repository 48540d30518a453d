// Runs inside the extension host (as extensionTestsPath) for `npm run bench:activation`. Once the
// host has settled, it times extension.activate() of this extension and of a no-op baseline
// extension (bench/activationBaseline) in the same host, reads the time the extension logs for its
// own activate() body, and checks that the lazily loaded bundles stayed unloaded.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type * as LazyCoreModule from '../src/extension/platform/lazyCore';
import { calibrate, machineBusy, machineCpu } from './activationCalibration';
import { profiled } from './cpuProfile';
import { tokenServer } from './tokenServer';

type LazyCore = typeof LazyCoreModule;

const EXTENSION_ID = 'spot-tools.spot-import';
const BASELINE_ID = 'spot-bench.activation-baseline';

function loaded(file: string): boolean {
  return Object.prototype.hasOwnProperty.call(require.cache, file);
}

/**
 * Wall-clock time of extension.activate(), and this host's CPU time over it. The wall clock also
 * counts what activation waits for outside this process (VS Code's activation asks the window
 * for the extension's storage, and the window may be busy): that is what spreads the no-op
 * baseline from under 5 to over 20 ms. The CPU time is only this host's work.
 */
async function timeActivate(id: string): Promise<{ ms: number; cpuMs: number; wasActive: boolean }> {
  const extension = vscode.extensions.getExtension(id);
  if (!extension) throw new Error(`${id} is not loaded`);
  const wasActive = extension.isActive;
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  await extension.activate();
  return { ms: performance.now() - started, cpuMs: cpuMs(process.cpuUsage(cpuStarted)), wasActive };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const QUIET_WINDOW_MS = 250;
/** This host's own CPU use over QUIET_WINDOW_MS that counts as settled: 10 %. */
const QUIET_CPU_MS = QUIET_WINDOW_MS * 0.1;
/** The whole machine's CPU use (every process, all CPUs) over QUIET_WINDOW_MS that counts as settled: 25 %. */
const QUIET_MACHINE_SHARE = 0.25;
const SETTLE_LIMIT_MS = 15_000;

interface Settled {
  ms: number;
  /** Whether SETTLE_LIMIT_MS ran out before the host and the machine were quiet. */
  timedOut: boolean;
  /** The machine's CPU use in the last window before the bench began (share of all CPUs). */
  machineShare?: number;
}

/**
 * Waits at least minMs, then until this extension host has been quiet (its own CPU time) and the
 * whole machine too (/proc/stat, where there is one) for a window, or SETTLE_LIMIT_MS in all. A
 * fixed wait alone was not enough on a first start, when the built-in extensions are still busy
 * for seconds; and the host alone being quiet was not enough either: the workbench (the browser)
 * and the server go on starting up after it, and on a slower machine for longer, and on two cores
 * every millisecond they take then is one the measured code waits. Returns how long it waited.
 */
async function settle(minMs: number): Promise<Settled> {
  const started = performance.now();
  await sleep(minMs);
  let machineShare: number | undefined;
  while (performance.now() - started < SETTLE_LIMIT_MS) {
    const before = process.cpuUsage();
    const machineBefore = machineCpu();
    await sleep(QUIET_WINDOW_MS);
    machineShare = machineBusy(machineBefore, machineCpu())?.share;
    const machineQuiet = machineShare === undefined || machineShare < QUIET_MACHINE_SHARE || process.env.SPOT_BENCH_QUIET_MACHINE === '0';
    if (cpuMs(process.cpuUsage(before)) < QUIET_CPU_MS && machineQuiet) {
      return { ms: performance.now() - started, timedOut: false, machineShare };
    }
  }
  return { ms: performance.now() - started, timedOut: true, machineShare };
}

function findFiles(dir: string, match: (file: string) => boolean): string[] {
  if (!dir || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findFiles(full, match);
    return match(full) ? [full] : [];
  });
}

/** The "activated in N ms (…; ms per step: services 1.2, …)" line the extension logs at the end of activate(), if it shows up. */
async function loggedActivation(): Promise<{ ms: number; steps: Record<string, number> } | undefined> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const logs = findFiles(process.env.SPOT_TEST_LOGS_DIR ?? '', (file) => file.includes(`${path.sep}${EXTENSION_ID}${path.sep}`) && file.endsWith('.log'));
    for (const file of logs) {
      const line = /activated in ([\d.]+) ms.*$/m.exec(fs.readFileSync(file, 'utf8'));
      if (!line) continue;
      const steps = Object.fromEntries(
        [...(/ms per step: ([^)]*)/.exec(line[0])?.[1].matchAll(/([a-z]+) ([\d.]+)/g) ?? [])].map((step) => [step[1], Number(step[2])]),
      );
      return { ms: Number(line[1]), steps };
    }
    await sleep(100);
  }
  return undefined;
}

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  // Let the built-in extensions that start with the window finish: they share this thread, and
  // what they still do between our awaits would be counted as ours.
  const settled = await settle(Number(process.env.SPOT_BENCH_SETTLE_MS ?? 2000));
  const dist = path.join(extension.extensionPath, 'dist');
  const baselineFirst = process.env.SPOT_BENCH_ORDER === 'baseline-first';
  const baselineBefore = baselineFirst ? await timeActivate(BASELINE_ID) : undefined;
  const which = process.env.SPOT_BENCH_CASE ?? 'start';
  const ours = await profiled(`activate-${which}`, () => timeActivate(EXTENSION_ID));
  const baseline = baselineBefore ?? (await timeActivate(BASELINE_ID));
  const coreLoadedAtActivation = loaded(path.join(dist, 'core.js'));
  const sandboxLoadedAtActivation = loaded(path.join(dist, 'sandbox.js'));
  const lazyCore = (require(path.join(dist, 'extension.js')) as { __sharedModules: Record<string, LazyCore> }).__sharedModules[
    'src/extension/platform/lazyCore.ts'
  ];
  // A first window whose first network use comes after the extension has built dist/core.js's
  // code cache ahead of time (a few seconds after activation, in a worker): wait for it, and for
  // the machine to be quiet again.
  let prepared: string | undefined;
  if (process.env.SPOT_BENCH_CASE === 'first-window-prepared') {
    prepared = await lazyCore.coreCodeCachePrepared();
    await settle(QUIET_WINDOW_MS);
  }
  // First use of the network code, for scale: what activation does not pay. The first network
  // use is loading the core plus its first request (a token, from a loopback server started
  // beforehand): undici's HTTP parser starts compiling with the first dispatcher (scripts/bundle/llhttpModule.js).
  const server = await tokenServer();
  // CPU time too: on a shared machine it moves far less with the load than the wall clock.
  const machineStarted = machineCpu();
  const cpuStarted = process.cpuUsage();
  const coreStarted = performance.now();
  // Through the extension's own loader (src/extension/platform/lazyCore.ts, V8's code cache included), as
  // its first command loads it.
  let coreLoadMs = 0;
  let coreLoadCpuMs = 0;
  const dispatcher = await profiled(`first-network-use-${which}`, async () => {
    const core = await lazyCore.loadCore();
    coreLoadMs = coreLoadedAtActivation ? 0 : performance.now() - coreStarted;
    coreLoadCpuMs = cpuMs(process.cpuUsage(cpuStarted));
    const dispatcher = core.createDispatcher();
    const tokens = new core.TokenSource({ tokenUrl: `${server.url}/oauth/token`, clientId: 'bench', clientSecret: 'bench-secret', dispatcher });
    await tokens.getToken();
    return dispatcher;
  });
  const firstRequestMs = coreLoadedAtActivation ? 0 : performance.now() - coreStarted;
  const firstRequestCpuMs = cpuMs(process.cpuUsage(cpuStarted));
  // The rest of the core (dist/coreRest.js: documents, topics, media) is not what a first request needs.
  const coreRestLoadedAtFirstUse = lazyCore.coreRestLoaded();
  // What the rest of the machine did meanwhile (the whole machine's busy time less this host's),
  // in clock ticks of 10 ms: coarse, but it shows a first network use that waited for the cores.
  const busy = machineBusy(machineStarted, machineCpu());
  const othersCpuMs = busy === undefined ? undefined : Math.max(0, busy.busyMs - firstRequestCpuMs);
  await dispatcher.close();
  await server.close();
  // What the extension saves two seconds after its first token, now: the next cold start is a
  // later window, as a user's next window is. (dist/coreRest.js is not loaded, so it has none.)
  const codeCache = lazyCore.coreCodeCacheStatus();
  await lazyCore.saveCoreCodeCache();
  // And dist/extension.js's, as the extension saves it a few seconds after activation (src/extension/start.ts).
  const start = require(path.join(dist, 'start.js')) as { saveCodeCache(): Promise<boolean>; codeCacheStatus(): string };
  const extensionCodeCache = start.codeCacheStatus();
  await start.saveCodeCache();
  // The fixed workload, in this process and after the measurements (it must not warm up or
  // fill up the heap before them): what this host, on this machine, needs for a known amount
  // of parsing, compiling and running.
  const calibration = calibrate();
  const result = {
    case: process.env.SPOT_BENCH_CASE,
    prepared,
    activateMs: ours.ms,
    activateCpuMs: ours.cpuMs,
    wasActive: ours.wasActive || baseline.wasActive,
    baselineMs: baseline.ms,
    baselineCpuMs: baseline.cpuMs,
    ...(await loggedActivation().then((logged) => (logged ? { loggedActivateMs: logged.ms, loggedSteps: logged.steps } : {}))),
    coreLoadedAtActivation,
    sandboxLoadedAtActivation,
    coreRestLoadedAtFirstUse,
    coreLoadMs,
    firstRequestMs,
    coreLoadCpuMs,
    firstRequestCpuMs,
    codeCache,
    extensionCodeCache,
    othersCpuMs,
    settleMs: settled.ms,
    settleTimedOut: settled.timedOut,
    settleMachineShare: settled.machineShare,
    calibration,
    node: process.versions.node,
    vscode: vscode.version,
  };
  console.log(`SPOT_BENCH ${JSON.stringify(result)}`);
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}
