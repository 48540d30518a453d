// The network code (undici, zod) and the sandbox are separate bundles next to dist/extension.js.
// Loading them on first use keeps activation to a few milliseconds: dist/core.js is read by path
// (through V8's code cache), and esbuild leaves the require() of './sandbox.js' alone because it
// is external (see esbuild.js).
import { join } from 'path';
import type * as Core from '../core';
import type * as Sandbox from '../sandbox';
import { requireWithCodeCache, type CachedBundle, type CodeCacheStatus } from './codeCache';

export type CoreModule = typeof Core;
export type SandboxModule = typeof Sandbox;

/** Requires a bundle once; a failed require is not remembered, so the next call tries again. */
export function requireOnce<T>(load: () => T): { get(): Promise<T>; loaded(): T | undefined } {
  let value: T | undefined;
  return {
    get() {
      try {
        value ??= load();
        return Promise.resolve(value);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    loaded: () => value,
  };
}

/** The first use's requests have compiled what later windows need by then (see codeCache.ts). */
const CODE_CACHE_SAVE_DELAY_MS = 10_000;

let coreBundle: CachedBundle<CoreModule> | undefined;

// dist/core.js, the file next to this bundle, through V8's code cache.
const core = requireOnce(() => {
  coreBundle = requireWithCodeCache<CoreModule>(join(__dirname, 'core.js'));
  const later = setTimeout(() => void coreBundle?.save(), CODE_CACHE_SAVE_DELAY_MS);
  later.unref?.();
  return coreBundle.exports;
});
// A literal path: esbuild keeps exactly this require() call external.
const sandbox = requireOnce(() => require('./sandbox.js') as SandboxModule);

/** dist/core.js, loaded once. Synchronous require, so a promise only for the callers' sake. */
export const loadCore = (): Promise<CoreModule> => core.get();

/** The core if something already loaded it: lets cheap paths (diagnostics) avoid loading it. */
export const loadedCore = (): CoreModule | undefined => core.loaded();

/** Whether loading dist/core.js started from V8's code cache (undefined: not loaded yet). */
export const coreCodeCacheStatus = (): CodeCacheStatus | undefined => coreBundle?.status;

/** Saves dist/core.js's code cache now rather than a few seconds after its first use (the activation bench). */
export const saveCoreCodeCache = (): Promise<boolean> => coreBundle?.save() ?? Promise.resolve(false);

/** dist/sandbox.js, loaded only when the built-in sandbox profile is used. */
export const loadSandbox = (): Promise<SandboxModule> => sandbox.get();
