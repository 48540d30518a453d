// Runs the sandbox in its own process, so the benchmark measures the client's memory and CPU only.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxCounters } from '../src/sandbox/types';

export interface SandboxProcess {
  baseUrl: string;
  /**
   * The sandbox process's processor time so far (user + system), in ms; undefined where the
   * system does not say (read from /proc, so Linux only). The client and the sandbox share the
   * machine's cores: on a small machine the sum of their times per request sets the pace.
   */
  cpuMs(): number | undefined;
  /** The sandbox's counters (GET /__sandbox/counters). */
  counters(): Promise<SandboxCounters>;
  stop(): Promise<void>;
}

/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every mainstream build). */
const TICKS_PER_SECOND = 100;

function processCpuMs(pid: number | undefined): number | undefined {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** User + system time of a process or thread from its /proc stat file, in ms. */
function statCpuMs(file: string): number | undefined {
  try {
    // Fields after the command name (which is in parentheses and may hold spaces): utime is the
    // 12th of them, stime the 13th.
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * This process's processor time so far, in ms: in all (process.cpuUsage) and on its main thread
 * alone (Linux: /proc/self/task/<pid>/stat, in 10 ms ticks; undefined elsewhere). The rest is
 * libuv's thread pool (file system calls, fsync), V8's helper threads (garbage collection,
 * compilation) and the kernel's work for them.
 */
export function ownCpuMs(): { total: number; main?: number } {
  const usage = process.cpuUsage();
  return { total: (usage.user + usage.system) / 1000, main: statCpuMs(`/proc/self/task/${process.pid}/stat`) };
}

/** `args`: more command-line options for the sandbox (e.g. `--latency-ms 20`). */
export async function startSandboxProcess(distDir: string, args: readonly string[] = []): Promise<SandboxProcess> {
  const port = await freePort();
  // BENCH_SANDBOX_DATA=1 runs the sandbox with --data in a fresh directory, to measure what the
  // durable (acknowledge-after-fsync) path costs; by default it keeps everything in memory.
  const dataDir = process.env.BENCH_SANDBOX_DATA === '1' ? mkdtempSync(join(tmpdir(), 'spot-bench-data-')) : undefined;
  const options = ['--port', String(port), ...(dataDir ? ['--data', dataDir] : []), ...args];
  const child: ChildProcess = spawn(process.execPath, [join(distDir, 'sandboxCli.js'), ...options], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the sandbox did not start within 15 s')), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
  return {
    baseUrl,
    cpuMs: () => processCpuMs(child.pid),
    counters: async () => (await (await fetch(`${baseUrl}/__sandbox/counters`)).json()) as SandboxCounters,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          if (dataDir) rmSync(dataDir, { recursive: true, force: true });
          resolve();
        };
        child.once('exit', done);
        process.kill(-child.pid!, 'SIGTERM');
        setTimeout(done, 5000).unref();
      }),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
