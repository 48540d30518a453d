// The extension's entry (package.json "main"): loads the extension itself, dist/extension.js,
// through V8's code cache as dist/core.js is loaded (platform/codeCache.ts), so a window after the
// first compiles none of its 120 KB again, the most of activate() that is not its own work
// (docs/performance.md). The cache is saved a few seconds after activation, with what activation
// compiled; any problem with it falls back to compiling, as require() would. dist/extension.js is
// registered in require's cache under its name: the bundles that take its modules get these.
import { join } from 'node:path';
import type * as vscode from 'vscode';
import type * as Extension from './extension';
import { requireWithCodeCache, type CodeCacheStatus } from './platform/codeCache';

/** After activation, once the window's start-up work is done: what activation compiled goes into the cache. */
const SAVE_DELAY_MS = 5_000;

const main = requireWithCodeCache<typeof Extension>(join(__dirname, 'extension.js'));

export function activate(context: vscode.ExtensionContext): ReturnType<typeof Extension.activate> {
  const activated = main.exports.activate(context);
  setTimeout(() => void main.save(), SAVE_DELAY_MS).unref?.();
  return activated;
}

export function deactivate(): ReturnType<typeof Extension.deactivate> {
  return main.exports.deactivate();
}

/** Saves the cache now (the activation bench, which ends sooner than SAVE_DELAY_MS). */
export const saveCodeCache = (): Promise<boolean> => main.save();

/** Whether this window started dist/extension.js from the cache (the activation bench). */
export const codeCacheStatus = (): CodeCacheStatus => main.status;
