// The network code (undici, zod) and the sandbox are separate bundles next to dist/extension.js.
// Loading them on first use keeps activation to a few milliseconds; esbuild leaves these
// require() calls alone because './core.js' and './sandbox.js' are external (see esbuild.js).
import type * as Core from '../core';
import type * as Sandbox from '../sandbox';

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

// Literal paths: esbuild keeps exactly these require() calls external.
const core = requireOnce(() => require('./core.js') as CoreModule);
const sandbox = requireOnce(() => require('./sandbox.js') as SandboxModule);

/** dist/core.js, loaded once. Synchronous require, so a promise only for the callers' sake. */
export const loadCore = (): Promise<CoreModule> => core.get();

/** The core if something already loaded it: lets cheap paths (diagnostics) avoid loading it. */
export const loadedCore = (): CoreModule | undefined => core.loaded();

/** dist/sandbox.js, loaded only when the built-in sandbox profile is used. */
export const loadSandbox = (): Promise<SandboxModule> => sandbox.get();
