// Loads one of our bundles (dist/core.js) with V8's code cache, the way Node's own
// module.enableCompileCache() and VS Code's cached data for its workbench do: the first window
// compiles the bundle and, once its first request is done (the caller says when: see lazyCore),
// saves what V8 compiled beside it; later windows start from that instead of parsing and
// compiling the 460 KB again (about a third of the first network use). Everything here is best
// effort: any problem (no cache, a stale or damaged one, a folder that cannot be written) falls
// back to compiling, as require() would. The bundle runs as a CommonJS file without import()
// (vm.Script has no loader for it); dist/core.js is one.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Module = require('node:module');
import { dirname } from 'node:path';
import { Script } from 'node:vm';
// Only Node's modules behind it: bundled into dist/extension.js as it is, it loads no core.
import { writeFileAtomic } from '../core/files/atomicFile';

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
  const cachedData = saved === 'damaged' ? undefined : saved;
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData });
  const status: CodeCacheStatus = saved === 'damaged' || script.cachedDataRejected ? 'rejected' : saved ? 'used' : 'none';
  const exports = runAsModule(script, bundle) as T;
  let saving: Promise<boolean> | undefined;
  return {
    exports,
    status,
    save() {
      if (status === 'used') return Promise.resolve(false);
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
function readCache(file: string, wantedHeader: () => Omit<CacheHeader, 'data'>): Buffer | 'damaged' | undefined {
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
  return sha256(data) === header.data ? data : 'damaged';
}

async function writeCache(file: string, wanted: Omit<CacheHeader, 'data'>, data: Buffer): Promise<boolean> {
  const header: CacheHeader = { ...wanted, data: sha256(data) };
  // Several extension hosts (windows, containers sharing the folder) may save at once: each writes
  // its own temporary file, created afresh, and renames it over the real name whole. The folder is
  // not fsynced: a power cut that undoes the rename only costs the next window a compile.
  try {
    await writeFileAtomic(file, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), data]), { syncFolder: false });
    return true;
  } catch {
    return false;
  }
}
