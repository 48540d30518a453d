// Child processes in their own process groups, stopped by group id whatever happens, and bounded waits.
import { ChildProcess, spawn, SpawnOptions } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';

const groups = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void> | void> = [];
let signalsHooked = false;

/** Starts a command in a new process group; its output goes to logFile (and to stdout with echo). */
export function spawnGroup(
  command: string,
  args: string[],
  options: SpawnOptions & { logFile?: string; echo?: boolean } = {},
): ChildProcess {
  hookSignals();
  const { logFile, echo, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Kills the whole process group of child (TERM, then KILL after graceMs). */
export async function killGroup(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    signalGroup(child, 'SIGKILL'); // stragglers of an exited leader
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const stopped = await withTimeout(exited, graceMs, 'exit').then(() => true, () => false);
  signalGroup(child, 'SIGKILL');
  if (!stopped) await withTimeout(exited, 2000, 'exit after SIGKILL').catch(() => undefined);
  groups.delete(child);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
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
    await withTimeout(Promise.resolve().then(cleanup), 10_000, 'cleanup').catch((error) =>
      console.error(`[harness] cleanup failed: ${String(error)}`),
    );
  }
  await Promise.all([...groups].map((child) => killGroup(child)));
}

function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\n[harness] ${signal}: stopping everything this run started`);
      void stopAll().finally(() => process.exit(130));
    });
  }
  // Last resort when the process exits without stopAll(): synchronous kill of every group.
  process.once('exit', () => {
    for (const child of groups) signalGroup(child, 'SIGKILL');
  });
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
export async function captureBounded(
  command: string,
  args: string[],
  options: SpawnOptions & { timeoutMs: number; what: string },
): Promise<string> {
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
