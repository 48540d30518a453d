// Loads one of our bundles (dist/extension.js from dist/start.js, dist/core.js, dist/coreRest.js) with V8's code cache, the way Node's
// own module.enableCompileCache() and VS Code's cached data for its workbench do: the first window
// compiles the bundle and, once its first request is done (the caller says when: see lazyCore),
// saves what V8 compiled beside it; later windows start from that instead of parsing and
// compiling the bundle again, much of the first network use (README, Performance). A window can also build
// the cache ahead of time, in a worker thread while it is idle (prepareCodeCache): that one is
// marked partial (its warm-up's request goes to a server of its own, not the user's), and the first
// window that uses it replaces it after its own first request. Everything here
// is best effort: any problem (no cache, a stale or damaged one, a folder that cannot be written)
// falls back to compiling, as require() would. The bundle runs as a CommonJS file without import()
// (vm.Script has no loader for it); the core's bundles are such files.
//
// The cache is V8's, so only the V8 that made it (and the same flags) takes it: built at package
// time with the build's Node it would be refused by VS Code's extension host (Electron's V8, 13.x
// in VS Code 1.100, against Node 20's 11.3), which is why it is built on the user's machine.
import { createHash } from 'node:crypto';
import { promises as fsPromises, readFileSync } from 'node:fs';
import Module = require('node:module');
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
// Only Node's modules behind it: bundled into dist/extension.js as it is, it loads no core.
import { isAtomicWriteLeftover, writeFileAtomic } from '../../core/files/atomicFile';

export type CodeCacheStatus =
  /** Started from the saved cache. */
  | 'used'
  /** No cache yet, or one for another bundle, V8 or machine (it is replaced on save). */
  | 'none'
  /** A cache that failed its own checksum, or that V8 turned down. */
  | 'rejected';

export interface CachedBundle<T> {
  exports: T;
  status: CodeCacheStatus;
  /**
   * Writes the cache when it was not used, with what V8 has compiled so far (call it after the
   * first real use, so the functions that use needed are in it). Never rejects; false: not written.
   */
  save(): Promise<boolean>;
}

/** The first line of a cache file: which bundle, V8 and machine it is for, and its bytes' checksum. */
interface CacheHeader {
  source: string;
  v8: string;
  arch: string;
  data: string;
  /** Built ahead of time (prepareCodeCache), its request a warm-up's to a server of its own: replaced after a real one. */
  partial?: boolean;
}

const sha256 = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export function cacheFileOf(bundle: string): string {
  return `${bundle}.v8cache`;
}

/**
 * require(bundle), through V8's code cache. The module is registered in require's cache under
 * its file name, so a plain require() of the same file later gets these very exports.
 */
export function requireWithCodeCache<T>(bundle: string): CachedBundle<T> {
  const loaded = moduleCache()[bundle];
  // Loaded already (by require()): those exports, and no cache from a script that has not run.
  if (loaded) return { exports: loaded.exports as T, status: 'none', save: () => Promise.resolve(false) };
  const source = readFileSync(bundle, 'utf8');
  // The bundle's hash only when it is needed (a cache to check, or one to save): the first window,
  // which has no cache, does not spend a hash of the 460 KB before its first request.
  let sourceHash: string | undefined;
  const wanted = (): Omit<CacheHeader, 'data'> => ({ source: (sourceHash ??= sha256(source)), v8: process.versions.v8, arch: process.arch });
  const saved = readCache(cacheFileOf(bundle), wanted);
  const cachedData = saved === 'damaged' ? undefined : saved?.data;
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData });
  const status: CodeCacheStatus = saved === 'damaged' || script.cachedDataRejected ? 'rejected' : saved ? 'used' : 'none';
  const exports = runAsModule(script, bundle) as T;
  // A partial cache that was used is replaced by what this window compiles, once.
  const final = status === 'used' && !(saved !== 'damaged' && saved?.partial);
  let saving: Promise<boolean> | undefined;
  return {
    exports,
    status,
    save() {
      if (final) return Promise.resolve(false);
      saving ??= writeCache(cacheFileOf(bundle), wanted(), script.createCachedData());
      return saving;
    },
  };
}

/** Runs the compiled wrapper as Node runs a CommonJS file, registered under its file name. */
function moduleCache(): Record<string, NodeJS.Module | undefined> {
  return (Module as unknown as { _cache: Record<string, NodeJS.Module | undefined> })._cache;
}

function runAsModule(script: Script, file: string): unknown {
  const cache = moduleCache();
  const module = new Module(file) as NodeJS.Module & { paths: string[] };
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  cache[file] = module;
  try {
    const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: NodeJS.Module, filename: string, dirname: string) => void;
    wrapper.call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
  } catch (error) {
    delete cache[file];
    throw error;
  }
  module.loaded = true;
  return module.exports;
}

/** The cached data for this bundle; undefined: none for it; 'damaged': its checksum fails. */
function readCache(file: string, wantedHeader: () => Omit<CacheHeader, 'data'>): { data: Buffer; partial: boolean } | 'damaged' | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const end = bytes.indexOf(0x0a);
  if (end < 0 || end > 1024) return undefined;
  let header: CacheHeader;
  try {
    header = JSON.parse(bytes.subarray(0, end).toString('utf8')) as CacheHeader;
  } catch {
    return undefined;
  }
  const wanted = wantedHeader();
  if (header.source !== wanted.source || header.v8 !== wanted.v8 || header.arch !== wanted.arch) return undefined;
  const data = bytes.subarray(end + 1);
  // V8 itself checks the data's length, versions and flags, not its bytes (unless it is built to):
  // a damaged cache must never reach it.
  return sha256(data) === header.data ? { data, partial: header.partial === true } : 'damaged';
}

async function writeCache(file: string, wanted: Omit<CacheHeader, 'data'>, data: Buffer, partial = false): Promise<boolean> {
  const header: CacheHeader = { ...wanted, data: sha256(data), ...(partial ? { partial } : {}) };
  // Several extension hosts (windows, containers sharing the folder) may save at once: each writes
  // its own temporary file, created afresh, and renames it over the real name whole. The folder is
  // not fsynced: a power cut that undoes the rename only costs the next window a compile.
  try {
    await writeFileAtomic(file, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), data]), { syncFolder: false });
    await removeLeftovers(file);
    return true;
  } catch {
    return false;
  }
}

/** A temporary file older than this is a save that was cut off (a window closed in the middle), not one under way. */
const LEFTOVER_AGE_MS = 3600_000;

/** The temporary files of cut-off saves of this cache, which nothing else removes (the folder is the extension's). */
async function removeLeftovers(file: string): Promise<void> {
  const folder = dirname(file);
  const name = basename(file);
  for (const entry of await fsPromises.readdir(folder).catch(() => [])) {
    if (!isAtomicWriteLeftover(entry, name)) continue;
    const path = join(folder, entry);
    const stats = await fsPromises.stat(path).catch(() => undefined);
    if (stats && Date.now() - stats.mtimeMs > LEFTOVER_AGE_MS) await fsPromises.rm(path, { force: true }).catch(() => undefined);
  }
}

export type PrepareOutcome =
  /** A cache for this bundle, V8 and machine was there already (whole or partial). */
  | 'present'
  /** Built in a worker thread and saved (partial). */
  | 'built'
  /** The worker or the save failed: the first use compiles, as without a cache. */
  | 'failed'
  /** Not needed: this window loaded the bundle from a cache, or saves its own after its first request. */
  | 'skipped';

/**
 * Builds the bundle's code cache ahead of its first use, in a worker thread (the same V8 and
 * flags as this thread, so this thread takes its cache): the worker compiles and runs the bundle,
 * then runs `warmUp` (source of a function of the bundle's exports and a require() that uses what
 * the first use will) so that what it compiles is in the cache too. Nothing is built when
 * a cache for this bundle is there already. This thread only starts the worker and writes the
 * file. Never rejects.
 */
export async function prepareCodeCache(bundle: string, warmUp?: string): Promise<PrepareOutcome> {
  // Checked here first: a worker costs tens of milliseconds to start, and most windows have a cache.
  if (await hasCache(bundle)) return 'present';
  return new Promise<PrepareOutcome>((resolve) => {
    let worker: import('node:worker_threads').Worker;
    try {
      const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
      worker = new Worker(`(${buildInWorker.toString()})(require('node:worker_threads'))`, {
        eval: true,
        workerData: { bundle, cacheFile: cacheFileOf(bundle), warmUp },
        // Its output is not ours to show; its errors end it and say 'failed'.
        stdout: true,
        stderr: true,
      });
    } catch {
      return resolve('failed');
    }
    // Never keeps the process alive: a window that closes meanwhile just has no cache.
    worker.unref();
    let answered = false;
    worker.once('message', (message: WorkerAnswer) => {
      answered = true;
      // Its work is done: its thread and heap go now rather than whenever it winds down.
      void worker.terminate();
      if (message.present) return resolve('present');
      if (!message.data || !message.header) return resolve('failed');
      const data = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
      void writeCache(cacheFileOf(bundle), message.header, data, true).then((written) => resolve(written ? 'built' : 'failed'));
    });
    worker.once('error', () => resolve('failed'));
    worker.once('exit', () => {
      if (!answered) resolve('failed');
    });
  });
}

/** Whether a cache for this very bundle (its hash), V8 and machine is there; its data is not checked here. */
async function hasCache(bundle: string): Promise<boolean> {
  try {
    const handle = await fsPromises.open(cacheFileOf(bundle), 'r');
    let head: Buffer;
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
    const end = head.indexOf(0x0a);
    if (end < 0) return false;
    const header = JSON.parse(head.subarray(0, end).toString('utf8')) as Partial<CacheHeader>;
    if (header.v8 !== process.versions.v8 || header.arch !== process.arch) return false;
    return header.source === sha256(await fsPromises.readFile(bundle, 'utf8'));
  } catch {
    return false;
  }
}

interface WorkerAnswer {
  present?: boolean;
  data?: Uint8Array;
  header?: Omit<CacheHeader, 'data'>;
}

/**
 * The worker's whole program, run from its source text (so nothing outside it may be named: only
 * require() and its argument). It answers { present } when a fitting cache is there, else the
 * cached data and the header for it.
 */
function buildInWorker({ parentPort, workerData }: typeof import('node:worker_threads')): void {
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const NodeModule = require('node:module') as typeof import('node:module') & { _nodeModulePaths(dir: string): string[]; wrap(source: string): string };
  const { dirname } = require('node:path') as typeof import('node:path');
  const { Script } = require('node:vm') as typeof import('node:vm');
  const { bundle, cacheFile, warmUp } = workerData as { bundle: string; cacheFile: string; warmUp?: string };
  const source = readFileSync(bundle, 'utf8');
  const header = { source: createHash('sha256').update(source).digest('hex'), v8: process.versions.v8, arch: process.arch };
  try {
    const bytes = readFileSync(cacheFile);
    const end = bytes.indexOf(0x0a);
    const saved = JSON.parse(bytes.subarray(0, end).toString('utf8')) as Partial<CacheHeader>;
    if (saved.source === header.source && saved.v8 === header.v8 && saved.arch === header.arch) {
      parentPort?.postMessage({ present: true });
      return;
    }
  } catch {
    // No cache, or not one of ours: build it.
  }
  const script = new Script(NodeModule.wrap(source), { filename: bundle });
  const module = new NodeModule(bundle) as unknown as NodeJS.Module & { paths: string[] };
  module.filename = bundle;
  module.paths = NodeModule._nodeModulePaths(dirname(bundle));
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: NodeJS.Module, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, NodeModule.createRequire(bundle), module, bundle, dirname(bundle));
  const finish = () => {
    const data = script.createCachedData();
    parentPort?.postMessage({ data, header }, [data.buffer as ArrayBuffer]);
  };
  if (!warmUp) return finish();
  // The warm-up's own failure does not spoil what was compiled before it.
  Promise.resolve()
    .then(() =>
      (new Function('exports', 'require', `return (${warmUp})(exports, require);`) as (exports: unknown, load: NodeJS.Require) => unknown)(
        module.exports,
        NodeModule.createRequire(bundle),
      ),
    )
    .catch(() => undefined)
    .then(finish, finish);
}
