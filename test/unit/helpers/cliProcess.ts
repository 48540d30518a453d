// Runs the real bundled command line (dist/cli.js) as a child process, the way a user or CI does.
// The bundle is built once per test run, and only when it is missing or older than a source file
// (npm test builds it before the unit tests; `npm run test:unit` alone compiles only out/).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startSandbox } from '../../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../../src/sandbox/types';

export const ROOT = resolve(__dirname, '../../../..');
export const CLI = join(ROOT, 'dist', 'cli.js');

let built = false;

function newestSource(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/cli.js when it is missing or stale (a few seconds, at most once per run). */
export function ensureCliBuilt(): void {
  if (built) return;
  const bundle = statSync(CLI, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(newestSource(join(ROOT, 'src')), statSync(join(ROOT, 'package.json')).mtimeMs, statSync(join(ROOT, 'esbuild.js')).mtimeMs);
  if (bundle < sources) execFileSync(process.execPath, ['esbuild.js', '--quiet'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  built = true;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Added to a clean environment (no SPOT_* or proxy variables from the machine running the tests). */
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

/** The environment a CLI test starts from: the machine's, less everything that would change the CLI's behaviour. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(SPOT_|NO_COLOR|FORCE_COLOR|HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS|NODE_OPTIONS|CI$|GITHUB_)/i.test(name)) continue;
    env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export function startCli(
  args: string[],
  options: CliOptions = {},
): { child: ChildProcess; done: Promise<CliResult>; stdout: () => string; stderr: () => string } {
  ensureCliBuilt();
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(options.input ?? '');
  const done = new Promise<CliResult>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`spot-import ${args.join(' ')} did not finish within ${options.timeoutMs ?? 15_000} ms; stderr: ${stderr}`));
    }, options.timeoutMs ?? 15_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
  return { child, done, stdout: () => stdout, stderr: () => stderr };
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done;
}

/** A temporary folder with files in it (path → content); cleanup() removes it. */
export function scratch(files: Record<string, string> = {}): {
  dir: string;
  path(name: string): string;
  write(name: string, content: string | Buffer): string;
  cleanup(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'spot-cli-'));
  const write = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  };
  for (const [name, content] of Object.entries(files)) write(name, content);
  return { dir, path: (name) => join(dir, name), write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A spot document's text, valid unless `extra` breaks it. */
export function spotText(sourceId: string, extra: Record<string, unknown> = {}): string {
  return (
    JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 48.2, longitude: 16.37, ...extra } } }, null, 2) + '\n'
  );
}

/** Lines of stdout parsed as JSON. */
/** The attributes of a spot document `spot-import convert` wrote into the project's spots/ folder. */
export function convertedSpot(project: { path(name: string): string }, name: string): { latitude: number; longitude: number } {
  return (JSON.parse(readFileSync(project.path(`spots/${name}.spot.json`), 'utf8')) as { data: { attributes: { latitude: number; longitude: number } } }).data
    .attributes;
}

export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The environment that points spot-import at a running sandbox with the demo client's credentials. */
export function sandboxEnv(baseUrl: string): Record<string, string> {
  return { SPOT_BASE_URL: baseUrl, SPOT_CLIENT_ID: DEMO_CLIENT.clientId, SPOT_CLIENT_SECRET: DEMO_CLIENT.clientSecret };
}

/**
 * For a describe block of CLI runs against a sandbox of their own: the bundle is built first, a
 * test starts the sandbox when it needs one (`start` gives the environment the CLI needs), and it is
 * closed after each test.
 */
export function useCliSandbox(): { start(): Promise<Record<string, string>>; sandbox(): RunningSandbox } {
  let running: RunningSandbox | undefined;
  before(() => ensureCliBuilt());
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  return {
    start: async () => {
      running = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
      return sandboxEnv(running.baseUrl);
    },
    sandbox: () => {
      if (!running) throw new Error('start() the sandbox first');
      return running;
    },
  };
}
