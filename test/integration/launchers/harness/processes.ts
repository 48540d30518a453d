// Child processes in their own process groups, stopped by group id whatever happens, and bounded waits.
import { ChildProcess, spawn, SpawnOptions } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as os from 'os';

const groups = new Set<ChildProcess>();
/** Process groups started outside spawnGroup (the browser that playwright launches), by leader pid. */
const adoptedGroups = new Set<number>();
const cleanups: Array<() => Promise<void> | void> = [];
let signalsHooked = false;
let stopSignal: NodeJS.Signals | undefined;

/** The signal that is stopping this process, if any: a run's own failure handling stays quiet then. */
export function stopRequested(): NodeJS.Signals | undefined {
  return stopSignal;
}

/**
 * What a signal handler may spend on cleanup (browser and server handles, run folders) after it has
 * SIGKILLed every process group it knows; then the process exits. scripts/lib/steps.js waits longer
 * than this (ESCALATION_MS) before it SIGKILLs a launcher that it asked to stop.
 */
export const CLEANUP_BUDGET_MS = 10_000;

/** Starts a command in a new process group; its output goes to logFile (and to stdout with echo). */
export function spawnGroup(command: string, args: string[], options: SpawnOptions & { logFile?: string; echo?: boolean } = {}): ChildProcess {
  hookSignals();
  const { logFile, echo, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (process.env[BACKGROUND_ENV] === '1' && child.pid !== undefined) lowerPriority(child.pid);
  groups.add(child);
  child.once('exit', () => groups.delete(child));
  const log = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : undefined;
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      log?.write(chunk);
      if (echo) process.stdout.write(chunk);
    });
  }
  child.once('close', () => log?.end());
  return child;
}

/**
 * Set by npm test for the code-server installs it starts ahead (scripts/test.js): every process
 * they start runs at the lowest priority, so the tests beside them keep the cores.
 */
export const BACKGROUND_ENV = 'SPOT_BACKGROUND_PRIORITY';

/**
 * Nice 19 for a process and, on Linux, for its session's autogroup: a detached child starts a
 * session of its own, and with autogroups (the kernel's default) the scheduler shares the CPU
 * fairly between sessions whatever their processes' nice values; only the autogroup's own nice
 * makes it yield to the tests.
 */
export function lowerPriority(pid: number): void {
  try {
    os.setPriority(pid, 19);
  } catch {
    // not allowed here: it runs at the normal priority
  }
  try {
    fs.writeFileSync(`/proc/${pid}/autogroup`, '19');
  } catch {
    // no autogroups (not Linux, or the kernel has them off): the process's nice is enough
  }
}

/** Kills the whole process group of child (TERM, then KILL after graceMs). */
export async function killGroup(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    signalGroup(child, 'SIGKILL'); // stragglers of an exited leader
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const stopped = await withTimeout(exited, graceMs, 'exit').then(
    () => true,
    () => false,
  );
  signalGroup(child, 'SIGKILL');
  if (!stopped) await withTimeout(exited, 2000, 'exit after SIGKILL').catch(() => undefined);
  groups.delete(child);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid !== undefined) signalGroupId(child.pid, signal);
}

function signalGroupId(leader: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-leader, signal);
  } catch {
    // the group is already gone
  }
}

/**
 * Tracks a process group this process did not start with spawnGroup (e.g. the browser), so a signal
 * or an unplanned exit SIGKILLs it with the others. Returns a function that forgets it again.
 */
export function adoptGroup(leader: number): () => void {
  hookSignals();
  adoptedGroups.add(leader);
  return () => {
    adoptedGroups.delete(leader);
  };
}

/** SIGKILLs every known process group, synchronously (signal handlers, process exit). */
function killKnownGroupsNow(): void {
  for (const child of groups) signalGroup(child, 'SIGKILL');
  for (const leader of adoptedGroups) signalGroupId(leader, 'SIGKILL');
}

/** Whether a process with this pid exists (one of another user counts as alive). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Direct children of this process that lead their own process group and whose command line
 * contains `marker` (Linux /proc; [] elsewhere). Finds the browser that playwright spawned.
 */
export function childGroupLeaders(marker: string): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // stat: "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const [ppid, pgrp] = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .slice(1, 3)
        .map(Number);
      if (ppid !== process.pid || pgrp !== Number(name)) continue;
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) found.push(Number(name));
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

/** Registers work to run on stopAll() (browsers, servers); run in reverse order. */
export function onCleanup(cleanup: () => Promise<void> | void): () => void {
  hookSignals();
  cleanups.push(cleanup);
  return () => {
    const index = cleanups.indexOf(cleanup);
    if (index >= 0) cleanups.splice(index, 1);
  };
}

/** Runs registered cleanups (each bounded) and kills every process group still alive. */
export async function stopAll(): Promise<void> {
  while (cleanups.length) {
    const cleanup = cleanups.pop()!;
    await withTimeout(Promise.resolve().then(cleanup), 10_000, 'cleanup').catch((error) => console.error(`[harness] cleanup failed: ${String(error)}`));
  }
  await Promise.all([...groups].map((child) => killGroup(child)));
  for (const leader of adoptedGroups) signalGroupId(leader, 'SIGKILL'); // a browser whose close failed
  adoptedGroups.clear();
}

function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopSignal ??= signal;
      console.error(`\n[harness] ${signal}: stopping everything this run started`);
      // Servers and browsers first and at once: nothing may outlive this process, even when the
      // cleanup below is cut short (a second signal, the caller's SIGKILL, a closed stdout).
      killKnownGroupsNow();
      // Then the rest (browser and server handles, run folders), bounded.
      void withTimeout(stopAll(), CLEANUP_BUDGET_MS, 'cleanup after a signal')
        .catch((error) => console.error(`[harness] ${String(error)}`))
        .finally(() => process.exit(130));
    });
  }
  // Last resort when the process exits without stopAll(): synchronous kill of every group.
  process.once('exit', killKnownGroupsNow);
}

/** Rejects with a message naming what was awaited when ms pass first. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class TimeoutError extends Error {}

/** Resolves when the child exits, with its exit code (signals count as 1). */
export function exitCode(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(1);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** Runs a command to completion in its own group, bounded; rejects on a non-zero exit. */
export async function runBounded(
  command: string,
  args: string[],
  options: SpawnOptions & { logFile?: string; echo?: boolean; timeoutMs: number; what: string },
): Promise<void> {
  const { timeoutMs, what, ...rest } = options;
  const child = spawnGroup(command, args, rest);
  try {
    const code = await withTimeout(exitCode(child), timeoutMs, what);
    if (code !== 0) {
      throw new Error(`${what} failed with exit code ${code}${rest.logFile ? ` (log: ${rest.logFile})` : ''}`);
    }
  } finally {
    await killGroup(child);
  }
}

/** Runs a command to completion in its own group, bounded, and returns its stdout. */
export async function captureBounded(command: string, args: string[], options: SpawnOptions & { timeoutMs: number; what: string }): Promise<string> {
  const { timeoutMs, what, ...rest } = options;
  const child = spawnGroup(command, args, rest);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
  try {
    const closed = new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve(code ?? 1));
    });
    const code = await withTimeout(closed, timeoutMs, what);
    if (code !== 0) throw new Error(`${what} failed with exit code ${code}: ${Buffer.concat(err).toString().trim()}`);
    return Buffer.concat(out).toString();
  } finally {
    await killGroup(child);
  }
}

/** A free TCP port on 127.0.0.1 (or preferred, when it is free). */
export function freePort(preferred = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (preferred !== 0 && error.code === 'EADDRINUSE') freePort(0).then(resolve, reject);
      else reject(error);
    });
    server.listen(preferred, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

/** Polls url until it answers 200, bounded by timeoutMs; fails fast when the child dies. */
export async function waitForHttpOk(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`process exited (code ${child.exitCode ?? child.signalCode}) before ${url} answered`);
    }
    if (await answersOk(url)) return;
    if (Date.now() > deadline) throw new TimeoutError(`timed out after ${timeoutMs} ms waiting for ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

function answersOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}
