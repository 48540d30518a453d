// Runs inside the extension host (as extensionTestsPath) for `npm run bench:activation`. Once the
// host has settled, it times extension.activate() of this extension and of a no-op baseline
// extension (bench/activationBaseline) in the same host, reads the time the extension logs for its
// own activate() body, and checks that the lazily loaded bundles stayed unloaded.
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import * as vscode from 'vscode';
import type * as LazyCoreModule from '../src/platform/lazyCore';

type LazyCore = typeof LazyCoreModule;

const EXTENSION_ID = 'spot-tools.spot-import';
const BASELINE_ID = 'spot-bench.activation-baseline';

function loaded(file: string): boolean {
  return Object.prototype.hasOwnProperty.call(require.cache, file);
}

async function timeActivate(id: string): Promise<{ ms: number; wasActive: boolean }> {
  const extension = vscode.extensions.getExtension(id);
  if (!extension) throw new Error(`${id} is not loaded`);
  const wasActive = extension.isActive;
  const started = performance.now();
  await extension.activate();
  return { ms: performance.now() - started, wasActive };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function findFiles(dir: string, match: (file: string) => boolean): string[] {
  if (!dir || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findFiles(full, match);
    return match(full) ? [full] : [];
  });
}

/** The "activated in N ms" line the extension logs at the end of activate(), if it shows up. */
async function loggedActivateMs(): Promise<number | undefined> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const logs = findFiles(process.env.SPOT_TEST_LOGS_DIR ?? '', (file) => file.includes(`${path.sep}${EXTENSION_ID}${path.sep}`) && file.endsWith('.log'));
    for (const file of logs) {
      const match = /activated in ([\d.]+) ms/.exec(fs.readFileSync(file, 'utf8'));
      if (match) return Number(match[1]);
    }
    await sleep(100);
  }
  return undefined;
}

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  // Let the built-in extensions that start with the window finish: they share this thread.
  await sleep(Number(process.env.SPOT_BENCH_SETTLE_MS ?? 2000));
  const dist = path.join(extension.extensionPath, 'dist');
  const baselineFirst = process.env.SPOT_BENCH_ORDER === 'baseline-first';
  const baselineBefore = baselineFirst ? await timeActivate(BASELINE_ID) : undefined;
  const ours = await timeActivate(EXTENSION_ID);
  const baseline = baselineBefore ?? (await timeActivate(BASELINE_ID));
  const coreLoadedAtActivation = loaded(path.join(dist, 'core.js'));
  const sandboxLoadedAtActivation = loaded(path.join(dist, 'sandbox.js'));
  // First use of the network code, for scale: what activation does not pay. The first network
  // use is loading the core plus its first request (a token, from a loopback server started
  // beforehand): undici builds its HTTP parser on the first connection.
  const server = await tokenServer();
  // CPU time too: on a shared machine it moves far less with the load than the wall clock.
  const cpuStarted = process.cpuUsage();
  const coreStarted = performance.now();
  // Through the extension's own loader (src/platform/lazyCore.ts, V8's code cache included), as
  // its first command loads it.
  const lazyCore = (require(path.join(dist, 'extension.js')) as { __sharedModules: Record<string, LazyCore> }).__sharedModules['src/platform/lazyCore.ts'];
  const core = await lazyCore.loadCore();
  const coreLoadMs = coreLoadedAtActivation ? 0 : performance.now() - coreStarted;
  const coreLoadCpuMs = cpuMs(process.cpuUsage(cpuStarted));
  const dispatcher = core.createDispatcher();
  const tokens = new core.TokenSource({ tokenUrl: `${server.url}/oauth/token`, clientId: 'bench', clientSecret: 'bench-secret', dispatcher });
  await tokens.getToken();
  const firstRequestMs = coreLoadedAtActivation ? 0 : performance.now() - coreStarted;
  const firstRequestCpuMs = cpuMs(process.cpuUsage(cpuStarted));
  await dispatcher.close();
  await server.close();
  // What the extension saves two seconds after its first token, now: the next cold start is a
  // later window, as a user's next window is.
  const codeCache = lazyCore.coreCodeCacheStatus();
  await lazyCore.saveCoreCodeCache();
  const result = {
    activateMs: ours.ms,
    wasActive: ours.wasActive || baseline.wasActive,
    baselineMs: baseline.ms,
    loggedActivateMs: await loggedActivateMs(),
    coreLoadedAtActivation,
    sandboxLoadedAtActivation,
    coreLoadMs,
    firstRequestMs,
    coreLoadCpuMs,
    firstRequestCpuMs,
    codeCache,
    vscode: vscode.version,
  };
  console.log(`SPOT_BENCH ${JSON.stringify(result)}`);
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** A loopback server that answers every request with a token. */
async function tokenServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ access_token: 'bench-token', token_type: 'Bearer', expires_in: 3600 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
