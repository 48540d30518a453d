// Processor time, for the benches that compare a side's throughput with a baseline's: on a 2-core
// machine shared by the client, the sandbox and other work, throughput follows the processor time
// each spot needs, so every round prints it beside the rate. The main thread is shown apart from
// the rest of the process (V8's compiler and garbage-collector threads, libuv's thread pool):
// the main thread is the one that cannot share its work.
import { readFileSync } from 'node:fs';

export interface CpuTime {
  /** The whole process, user + system, ms. */
  totalMs: number;
  /** Its main thread, ms; undefined where the system does not say (read from /proc, Linux only). */
  mainMs?: number;
}

/** This process so far. */
export function ownCpuTime(): CpuTime {
  const { user, system } = process.cpuUsage();
  return { totalMs: (user + system) / 1000, mainMs: threadCpuMs(process.pid) };
}

export function cpuSince(before: CpuTime, after: CpuTime = ownCpuTime()): CpuTime {
  return {
    totalMs: after.totalMs - before.totalMs,
    mainMs: before.mainMs !== undefined && after.mainMs !== undefined ? after.mainMs - before.mainMs : undefined,
  };
}

/** Time on a processor of one thread of this process (its task id; the main thread's is the pid), in ms, from the scheduler's nanosecond count. */
function threadCpuMs(tid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/**
 * A --require'd hook for a child process: as it exits, it writes to $BENCH_USAGE_FILE its peak RSS
 * (KiB), its processor time (µs, every thread, those that ended included) and its main thread's
 * (ms, Linux only), so the program measured is not changed for the measurement.
 */
export const CHILD_USAGE_HOOK = `process.on('exit', () => {
  const fs = require('fs');
  const usage = process.resourceUsage();
  let mainMs = null;
  try { mainMs = Number(fs.readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[0]) / 1e6; } catch {}
  fs.writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({ maxRSS: usage.maxRSS, user: usage.userCPUTime, system: usage.systemCPUTime, mainMs }));
});
`;

export interface ChildUsage extends CpuTime {
  peakRssMiB: number;
}

/** What the hook wrote. */
export function readChildUsage(file: string): ChildUsage {
  const used = JSON.parse(readFileSync(file, 'utf8')) as { maxRSS: number; user: number; system: number; mainMs: number | null };
  return { totalMs: (used.user + used.system) / 1000, mainMs: used.mainMs ?? undefined, peakRssMiB: used.maxRSS / 1024 };
}

/** "212 µs (main thread 150, other threads 62)" for `cpu` spent on `count` spots or documents. */
export function perItem(cpu: CpuTime, count: number): string {
  const us = (ms: number) => ((ms / count) * 1000).toFixed(0);
  return cpu.mainMs === undefined
    ? `${us(cpu.totalMs)} µs`
    : `${us(cpu.totalMs)} µs (main thread ${us(cpu.mainMs)}, other threads ${us(cpu.totalMs - cpu.mainMs)})`;
}
