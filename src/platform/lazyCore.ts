// The network code (undici, zod) and the sandbox are separate bundles next to dist/extension.js.
// Loading them on first use keeps activation to a few milliseconds: dist/core.js is read by path
// (through V8's code cache), and esbuild leaves the require() of './sandbox.js' alone because it
// is external (see esbuild.js).
import { join } from 'node:path';
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

/**
 * After the first token, the command that asked for it goes on with its requests: what they
 * compile in these seconds goes into the code cache too. Not much longer: V8 drops the compiled
 * code of functions that have not run for a while.
 */
const CODE_CACHE_SAVE_DELAY_MS = 2_000;

let coreBundle: CachedBundle<CoreModule> | undefined;
let saveScheduled = false;

// dist/core.js, the file next to this bundle, through V8's code cache.
const core = requireOnce(() => {
  coreBundle = requireWithCodeCache<CoreModule>(join(__dirname, 'core.js'));
  return coreBundle.exports;
});

/**
 * A token arrived: the core's request path has run, so its code cache can be saved (shortly).
 * Only then: a cache saved after loading alone (diagnostics load the core without a request)
 * would leave out the code the first network use needs, and, once used, is never replaced.
 */
export function noteCoreRequestDone(): void {
  if (!coreBundle || saveScheduled) return;
  saveScheduled = true;
  setTimeout(() => void coreBundle?.save(), CODE_CACHE_SAVE_DELAY_MS).unref?.();
}
// A literal path: esbuild keeps exactly this require() call external.
const sandbox = requireOnce(() => require('./sandbox.js') as SandboxModule);

/** dist/core.js, loaded once. Synchronous require, so a promise only for the callers' sake. */
export const loadCore = (): Promise<CoreModule> => core.get();

/** The core if something already loaded it: lets cheap paths (diagnostics) avoid loading it. */
export const loadedCore = (): CoreModule | undefined => core.loaded();

/** Whether loading dist/core.js started from V8's code cache (undefined: not loaded yet). */
export const coreCodeCacheStatus = (): CodeCacheStatus | undefined => coreBundle?.status;

/** Saves dist/core.js's code cache now rather than a few seconds after the first token (the activation bench). */
export const saveCoreCodeCache = (): Promise<boolean> => coreBundle?.save() ?? Promise.resolve(false);

/**
 * dist/sandbox.js, loaded only when the built-in sandbox profile is used. It takes the core's
 * modules from dist/core.js (esbuild.js): the core is loaded first, through its code cache, so the
 * sandbox finds it loaded.
 */
export const loadSandbox = async (): Promise<SandboxModule> => {
  await core.get();
  return sandbox.get();
};
