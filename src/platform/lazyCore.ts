// The network code (undici, zod) and the sandbox are separate bundles next to dist/extension.js.
// Loading them on first use keeps activation to a few milliseconds; esbuild leaves these
// require() calls alone because './core.js' and './sandbox.js' are external (see esbuild.js).
import type * as Core from '../core';
import type * as Sandbox from '../sandbox';

export type CoreModule = typeof Core;
export type SandboxModule = typeof Sandbox;

let core: CoreModule | undefined;
let sandbox: SandboxModule | undefined;

/** dist/core.js, loaded once. Synchronous require, so a promise only for the callers' sake. */
export function loadCore(): Promise<CoreModule> {
  try {
    core ??= require('./core.js') as CoreModule;
    return Promise.resolve(core);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The core if something already loaded it: lets cheap paths (diagnostics) avoid loading it. */
export function loadedCore(): CoreModule | undefined {
  return core;
}

/** dist/sandbox.js, loaded only when the built-in sandbox profile is used. */
export function loadSandbox(): Promise<SandboxModule> {
  try {
    sandbox ??= require('./sandbox.js') as SandboxModule;
    return Promise.resolve(sandbox);
  } catch (error) {
    return Promise.reject(error);
  }
}
