// What lets figures of `npm run bench:activation` from two machines be compared: the CPU model,
// a fixed workload timed in the same run, and how busy the rest of the machine was.
// The workload is what the first network use mostly is: V8 parsing and compiling a script it has
// not seen, then running it for the first time (`compileMs`), plus plain JavaScript that is
// already compiled (`computeMs`). Both are fixed: they do not change when the project's bundles do.
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import { Script } from 'vm';

export interface Calibration {
  /** Median over the rounds: parse, compile and first run of a fixed generated script (about 300 KB). */
  compileMs: number;
  /** Median over the rounds: a fixed loop of plain JavaScript (objects, strings, arithmetic). */
  computeMs: number;
  rounds: number;
}

/** The CPU as /proc/cpuinfo names it ('AMD EPYC', 'Intel(R) Xeon(R) …'), its clock, and how many; os.cpus() elsewhere. */
export function cpuModel(): string {
  try {
    const info = fs.readFileSync('/proc/cpuinfo', 'utf8');
    const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(info)?.[1]?.trim();
    const count = (info.match(/^processor\s*:/gm) ?? []).length;
    const family = field('cpu family');
    const model = field('model');
    const mhz = field('cpu MHz');
    return `${field('model name') ?? 'unknown'} (family ${family ?? '?'}, model ${model ?? '?'}, ${mhz ? `${Number(mhz).toFixed(0)} MHz` : '? MHz'}, ${count} logical CPUs)`;
  } catch {
    const cpus = os.cpus();
    return `${cpus[0]?.model ?? 'unknown'} (${cpus[0]?.speed ?? '?'} MHz, ${cpus.length} logical CPUs)`;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A script of many small functions, like a bundle: a top level that defines them all and calls
 * every third one, so V8 pre-parses all of them and compiles some fully. `salt` makes each round
 * a source V8 has not seen (its in-process compilation cache would otherwise skip the work).
 */
function generatedScript(salt: string): string {
  // One block scope, so the rounds' declarations do not meet in the global scope.
  const parts: string[] = [`// ${salt}`, '{', "'use strict';", 'const out = [];'];
  for (let i = 0; i < 1500; i++) {
    parts.push(
      `function f${i}(input, options = {}) {`,
      `  const items = Array.isArray(input) ? input : [input];`,
      `  const result = { name: 'f${i}', count: 0, labels: [] };`,
      `  for (const item of items) {`,
      `    if (typeof item === 'string' && item.length > ${i % 7}) result.labels.push(item.slice(0, ${(i % 5) + 1}).toUpperCase());`,
      `    else if (typeof item === 'number') result.count += item * ${i % 11} + (options.bias ?? 0);`,
      `    else if (item && typeof item === 'object') result.count += Object.keys(item).length;`,
      `  }`,
      `  return result.count > ${i} ? { ...result, big: true } : result;`,
      `}`,
    );
    if (i % 3 === 0) parts.push(`out.push(f${i}(['alpha', ${i}, { k: ${i} }], { bias: ${i % 4} }));`);
  }
  parts.push('out.length;', '}');
  return parts.join('\n');
}

function computeWorkload(): number {
  let checksum = 0;
  const map = new Map<string, number>();
  for (let i = 0; i < 200_000; i++) {
    const key = `k${i % 5000}`;
    const entry = { i, key, value: (i * 2654435761) % 1_000_003 };
    map.set(key, (map.get(key) ?? 0) + entry.value);
    checksum = (checksum + entry.value + key.length) % 1_000_000_007;
  }
  for (const value of map.values()) checksum = (checksum + value) % 1_000_000_007;
  return checksum;
}

/** Times the fixed workload `rounds` times in this process (after one untimed round) and gives the medians. */
export function calibrate(rounds = 5): Calibration {
  const salt = `${process.pid}-${Date.now()}`;
  const compile: number[] = [];
  const compute: number[] = [];
  for (let round = -1; round < rounds; round++) {
    const source = generatedScript(`${salt}-${round}`);
    const compileStarted = performance.now();
    new Script(source, { filename: `calibration-${round}.js` }).runInThisContext();
    const compileMs = performance.now() - compileStarted;
    const computeStarted = performance.now();
    computeWorkload();
    const computeMs = performance.now() - computeStarted;
    if (round < 0) continue;
    compile.push(compileMs);
    compute.push(computeMs);
  }
  return { compileMs: median(compile), computeMs: median(compute), rounds };
}

/**
 * What the first network use does besides compiling and running JavaScript, which the fixed
 * workload above leaves out and which one machine can be much slower at than another of the same
 * compile and loop figures: calls into the kernel (a file's status, again and again), first
 * touches of new memory (a fresh process pays one page fault per page its compiles and heap use;
 * the fixed workload's timed rounds reuse pages its untimed round faulted in), round trips on a
 * loopback socket (the kernel, the event loop, waking up), and compiling undici's HTTP parser
 * (WebAssembly, on V8's background threads, as the core does).
 */
export interface SystemCalibration {
  /** Median over the rounds: 20,000 fstat calls on one open file (each also makes Node's Stats object). */
  syscallMs: number;
  /** Median over the rounds: filling 64 MiB of memory just allocated (zeroed pages the kernel hands out on first touch). */
  pageFaultMs: number;
  /** Median over the rounds: 200 round trips of a few bytes on a loopback TCP connection in this process. */
  loopbackMs: number;
  /** WebAssembly.compile of undici's llhttp, as installed, once (V8 hands a second compile of the same bytes the first one's module; it compiles the functions themselves on their first call). */
  wasmMs: number;
  rounds: number;
}

function syscallWorkload(): number {
  const fd = fs.openSync(__filename, 'r');
  try {
    const started = performance.now();
    for (let i = 0; i < 20_000; i++) fs.fstatSync(fd);
    return performance.now() - started;
  } finally {
    fs.closeSync(fd);
  }
}

function pageFaultWorkload(): number {
  // Larger than any pool: a fresh mapping from the kernel. Allocated before the clock starts (a
  // collection that frees the round before's falls there), each page faulted in by the fill.
  const memory = Buffer.allocUnsafeSlow(64 * 1024 * 1024);
  const started = performance.now();
  memory.fill(1);
  return performance.now() - started;
}

async function loopbackWorkload(): Promise<number> {
  const server = net.createServer((socket) => socket.setNoDelay(true).on('data', (chunk) => socket.write(chunk)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  try {
    const started = performance.now();
    for (let i = 0; i < 200; i++) {
      await new Promise<void>((resolve) => {
        socket.once('data', () => resolve());
        socket.write('ping');
      });
    }
    return performance.now() - started;
  } finally {
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function wasmWorkload(): Promise<number> {
  const bytes = new Uint8Array(require('undici/lib/llhttp/llhttp-wasm.js') as Uint8Array);
  const started = performance.now();
  await WebAssembly.compile(bytes);
  return performance.now() - started;
}

/** Times the system workloads: kernel calls, new memory and round trips `rounds` times (after one untimed round), medians; WebAssembly once. */
export async function calibrateSystem(rounds = 5): Promise<SystemCalibration> {
  const wasmMs = await wasmWorkload();
  // Each workload's rounds together, the new memory last: one workload's aftermath (freeing 64 MiB,
  // a garbage collection) falls in the next one's untimed round, not in its timed ones.
  const timed = async (workload: () => number | Promise<number>): Promise<number[]> => {
    const times: number[] = [];
    for (let round = -1; round < rounds; round++) {
      const time = await workload();
      if (round >= 0) times.push(time);
    }
    return times;
  };
  const syscall = await timed(syscallWorkload);
  const loopback = await timed(loopbackWorkload);
  const pageFault = await timed(pageFaultWorkload);
  return { syscallMs: median(syscall), pageFaultMs: median(pageFault), loopbackMs: median(loopback), wasmMs, rounds };
}

/**
 * What this machine's kernel does that makes its calls and page faults cost more or less, in its
 * own words: its guards against the CPU's speculation flaws (those that apply), and whether it
 * hands out huge pages (then the first touch of new memory is mostly zeroing, not one fault a page).
 */
export function kernelSettings(): string {
  const read = (file: string): string | undefined => {
    try {
      return fs.readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  const folder = '/sys/devices/system/cpu/vulnerabilities';
  let flaws: string[] = [];
  try {
    flaws = fs.readdirSync(folder).sort();
  } catch {
    // Not Linux, or no such folder: nothing to say.
  }
  const guards = flaws.map((name) => [name, read(`${folder}/${name}`)] as const).filter(([, state]) => state && state !== 'Not affected');
  const hugePages = read('/sys/kernel/mm/transparent_hugepage/enabled');
  return [
    guards.length ? guards.map(([name, state]) => `${name}: ${state}`).join('; ') : 'no speculation flaws listed',
    `transparent huge pages: ${hugePages ?? 'not known here'}`,
  ].join('; ');
}

/** The whole machine's processor time so far (all CPUs, in ms), busy and in all, from /proc/stat; undefined elsewhere. */
export function machineCpu(): { busyMs: number; totalMs: number } | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (in clock ticks, 100 a second)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    const tick = 10;
    const busy = user + nice + system + irq + softirq + (steal || 0);
    return { busyMs: busy * tick, totalMs: (busy + idle + (iowait || 0)) * tick };
  } catch {
    return undefined;
  }
}

/** How busy the machine was between two machineCpu() readings: busy CPU time in ms, and as a share of all CPUs. */
export function machineBusy(before: ReturnType<typeof machineCpu>, after: ReturnType<typeof machineCpu>): { busyMs: number; share: number } | undefined {
  if (!before || !after) return undefined;
  const total = after.totalMs - before.totalMs;
  const busy = after.busyMs - before.busyMs;
  return { busyMs: busy, share: total > 0 ? busy / total : 0 };
}
