// The network code (undici, zod), the rest of the core and the sandbox are separate bundles next
// to dist/extension.js. Loading them on first use keeps activation to a few milliseconds. The core
// is two bundles (esbuild.js): dist/core.js, what the first network use needs (the service client,
// its token source and dispatcher, the reply schemas), and dist/coreRest.js, the rest (documents,
// topics, the import engine, media, uploads to galleries). loadCore() hands out one namespace of
// the whole core: dist/core.js is loaded for it, and dist/coreRest.js when one of the names only it
// has is first read. Both are read by path, through V8's code cache (src/extension/platform/codeCache.ts);
// esbuild leaves the require() of './sandbox.js' alone because it is external.
import { join } from 'node:path';
import type * as Core from '../../core';
import type * as Sandbox from '../../sandbox';
import { prepareCodeCache, requireWithCodeCache, type CachedBundle, type CodeCacheStatus, type PrepareOutcome } from './codeCache';

export type CoreModule = typeof Core;
export type SandboxModule = typeof Sandbox;

/** What dist/core.js exports: part of the core, and the names only dist/coreRest.js has. */
export type ClientBundle = Partial<CoreModule> & { __restExports?: readonly string[] };

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
 * The whole core as one namespace: the names dist/core.js has read from it, the others
 * (client.__restExports) from the rest, which loadRest() loads on the first read of one of them.
 * Getters throughout, as a bundle's own namespace has them (live bindings).
 */
export function wholeCore(client: ClientBundle, loadRest: () => CoreModule): CoreModule {
  const namespace = {};
  const own = client as Record<string, unknown>;
  for (const name of Object.keys(client)) {
    if (name.startsWith('__')) continue;
    Object.defineProperty(namespace, name, { get: () => own[name], enumerable: true });
  }
  for (const name of client.__restExports ?? []) {
    Object.defineProperty(namespace, name, { get: () => (loadRest() as unknown as Record<string, unknown>)[name], enumerable: true });
  }
  return namespace as CoreModule;
}

/**
 * After the first token, the command that asked for it goes on with its requests: what they
 * compile in these seconds goes into the code cache too. Not much longer: V8 drops the compiled
 * code of functions that have not run for a while.
 */
const CODE_CACHE_SAVE_DELAY_MS = 2_000;

let clientBundle: CachedBundle<ClientBundle> | undefined;
let restBundle: CachedBundle<CoreModule> | undefined;
let saveScheduled = false;

function saveSoon(bundle: CachedBundle<unknown>): void {
  setTimeout(() => void bundle.save(), CODE_CACHE_SAVE_DELAY_MS).unref?.();
}

/**
 * dist/coreRest.js, through V8's code cache. It takes the modules it shares with dist/core.js from
 * there (so that one is loaded first). Its cache is saved shortly after it is loaded: whatever it
 * was loaded for (diagnostics, an import) runs in those seconds.
 */
function loadRest(): CoreModule {
  if (!restBundle) {
    const loaded = requireWithCodeCache<CoreModule>(join(__dirname, 'coreRest.js'));
    restBundle = loaded;
    saveSoon(loaded);
  }
  return restBundle.exports;
}

// dist/core.js, the file next to this bundle, through V8's code cache; the rest when first used.
const core = requireOnce(() => {
  clientBundle = requireWithCodeCache<ClientBundle>(join(__dirname, 'core.js'));
  return wholeCore(clientBundle.exports, loadRest);
});

/**
 * A token arrived: the core's request path has run, so its code cache can be saved (shortly).
 * Only then: a cache saved after loading alone (diagnostics load the core without a request)
 * would leave out the code the first network use needs, and, once used, is never replaced (only
 * one built ahead of time, marked partial, is: see prepareCoreCodeCacheSoon).
 */
export function noteCoreRequestDone(): void {
  if (!clientBundle || saveScheduled) return;
  saveScheduled = true;
  saveSoon(clientBundle);
}

/**
 * What the ahead-of-time build runs after loading dist/core.js in its worker: what the first
 * network use runs (clientProvider: a dispatcher, a token source, a service client), through a
 * whole token request and its reply's check, so that the request path's code is in the cache too.
 * The request goes to a server of its own on loopback (which no proxy setting diverts), closed
 * after. Run from its source text: it names nothing but its arguments. Resolves to the token.
 */
export const warmUpClient = async (core: CoreModule, load: NodeJS.Require): Promise<string> => {
  const http = load('node:http') as typeof import('node:http');
  const reply = JSON.stringify({ access_token: 'warm-up', token_type: 'Bearer', expires_in: 3600 });
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(reply));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const dispatcher = core.createDispatcher();
  try {
    const { port } = server.address() as import('node:net').AddressInfo;
    const tokens = new core.TokenSource({ tokenUrl: `http://127.0.0.1:${port}/token`, clientId: 'warm-up', clientSecret: 'warm-up', dispatcher });
    new core.ServiceClient({ baseUrl: `http://127.0.0.1:${port}`, tokens, dispatcher });
    return (await tokens.getToken()).value;
  } finally {
    try {
      await dispatcher.close();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }
};

/**
 * How long after activation dist/core.js's code cache is built when there is none (the first
 * window after an install or update): once the window's own start-up work is done, and before
 * most first network uses (a person's first command).
 */
export const CODE_CACHE_PREPARE_DELAY_MS = 3_000;

let preparing: Promise<PrepareOutcome> | undefined;

/**
 * After activation: in CODE_CACHE_PREPARE_DELAY_MS, builds dist/core.js's code cache in a worker
 * thread if there is none for it (codeCache.ts prepareCodeCache), so that the first window's
 * first network use, too, starts from a cache. Costs activation nothing but a timer.
 */
export function prepareCoreCodeCacheSoon(delayMs = CODE_CACHE_PREPARE_DELAY_MS): void {
  if (preparing) return;
  preparing = new Promise<PrepareOutcome>((resolve) => {
    setTimeout(() => {
      // Loaded from a cache already, or about to save its own after its first request: nothing to build.
      if (clientBundle?.status === 'used' || saveScheduled) return resolve('skipped');
      void prepareCodeCache(join(__dirname, 'core.js'), warmUpClient.toString()).then(resolve);
    }, delayMs).unref?.();
  });
}

/** The ahead-of-time build's outcome, once it ran (the activation bench waits for it). */
export const coreCodeCachePrepared = (): Promise<PrepareOutcome> | undefined => preparing;

// A literal path: esbuild keeps exactly this require() call external.
const sandbox = requireOnce(() => require('./sandbox.js') as SandboxModule);

/** The core (dist/core.js, and dist/coreRest.js on first use of its part), loaded once. Synchronous require, so a promise only for the callers' sake. */
export const loadCore = (): Promise<CoreModule> => core.get();

/** The core if something already loaded it: lets cheap paths (diagnostics) avoid loading it. */
export const loadedCore = (): CoreModule | undefined => core.loaded();

/** Whether loading dist/core.js started from V8's code cache (undefined: not loaded yet). */
export const coreCodeCacheStatus = (): CodeCacheStatus | undefined => clientBundle?.status;

/** Whether dist/coreRest.js is loaded (the activation bench: the first network use must not need it). */
export const coreRestLoaded = (): boolean => restBundle !== undefined;

/** Saves the code caches of what is loaded of the core now rather than a few seconds after the first token (the activation bench). */
export const saveCoreCodeCache = async (): Promise<boolean> => {
  const [client] = await Promise.all([clientBundle?.save() ?? Promise.resolve(false), restBundle?.save()]);
  return client;
};

/**
 * The whole core's bundles, loaded through their code caches: dist/rows.js and dist/sandbox.js
 * take the core's modules from both (esbuild.js), and must find them loaded rather than require()
 * them without the cache.
 */
export const loadWholeCore = async (): Promise<CoreModule> => {
  const namespace = await core.get();
  loadRest();
  return namespace;
};

/**
 * dist/sandbox.js, loaded only when the built-in sandbox profile is used. It takes the core's
 * modules from dist/core.js and dist/coreRest.js (esbuild.js): those are loaded first, through
 * their code caches, so the sandbox finds them loaded.
 */
export const loadSandbox = async (): Promise<SandboxModule> => {
  await loadWholeCore();
  return sandbox.get();
};
