// Offline launcher: runs the integration suite (test/integration/index.ts, unchanged) inside
// code-server's real Node extension host, with the workbench open in headless Chromium.
// Usage: node out/test/integration/launchers/codeServer.js   (npm run test:integration)
// Env: SPOT_VSCODE_VERSION (one version: unset or "oldest" = VS Code 1.100.3, "newest" = the pinned
//      newest, see VSCODE_VERSIONS; "latest"; 4.x.y or 1.x.y), SPOT_TEST_GREP,
//      SPOT_TEST_TIMEOUT_MS (whole suite, default 600000), SPOT_KEEP_RUN=1 (keep .vscode-test/runs/...).
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import { launchBrowser, screenshot } from './harness/browser';
import {
  ensureCodeServer,
  ensureSystemDeps,
  installVsix,
  packFixtureExtension,
  removeRunDir,
  removeStaleRunDirs,
  resolveCodeServerVersion,
  runDirs,
  startCodeServer,
  TEST_USER_SETTINGS,
  UNTRUSTED_USER_SETTINGS,
  workbenchUrl,
} from './harness/codeServer';
import { artifactsRoot, cacheRoot, ensureDir, fixtureWorkspace, freshDir, repoRoot } from './harness/paths';
import { freePort, onCleanup, stopAll, stopRequested, TimeoutError, withTimeout } from './harness/processes';

export interface SuiteOptions {
  /** Compiled module exporting run(); default out/test/integration/index.js. */
  extensionTestsPath?: string;
  /** Folder the workbench opens; default test/fixtures/workspace. */
  workspace?: string;
  /** Extra environment for the server and so the extension host. */
  env?: NodeJS.ProcessEnv;
  /** Name for logs, screenshots and the run folder. */
  label?: string;
  timeoutMs?: number;
  /** Receives each console line of the extension host; default: printed to stdout. */
  onLog?: (line: string, type: string) => void;
  /** .vsix files installed into the run's extensions folder before the server starts. (Only one
   *  extensionDevelopmentPath works in code-server's URL payload: the last one wins.) */
  installVsixes?: string[];
  /** Test-only extensions of test/fixtures (folder names), packed and installed like installVsixes. */
  fixtureExtensions?: string[];
  /** No progress lines of the launcher's own (failures are still reported). */
  quiet?: boolean;
  /** Workspace Trust on and the folder not trusted (the Restricted Mode suite). */
  untrusted?: boolean;
}

/** Runs one suite in a fresh code-server + browser; resolves with the suite's exit code. */
export async function runSuiteInCodeServer(options: SuiteOptions = {}): Promise<number> {
  const label = options.label ?? 'integration';
  const extensionTestsPath = options.extensionTestsPath ?? path.join(repoRoot, 'out', 'test', 'integration', 'index.js');
  const workspace = options.workspace ?? fixtureWorkspace;
  const timeoutMs = options.timeoutMs ?? Number(process.env.SPOT_TEST_TIMEOUT_MS ?? 600_000);
  const onLog = options.onLog ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (!fs.existsSync(extensionTestsPath)) throw new Error(`${extensionTestsPath} is missing: compile the tests first (npx tsc -p .)`);

  ensureSystemDeps('browser');
  removeStaleRunDirs();
  const install = await ensureCodeServer(await resolveCodeServerVersion());
  const runDir = path.join(cacheRoot, 'runs', `${label}-${process.pid}`);
  removeRunDir(runDir);
  freshDir(runDir);
  // Registered first, so on Ctrl-C it runs after the browser and the server are gone.
  const forgetRunDir = onCleanup(() => {
    forgetRunDir();
    if (!process.env.SPOT_KEEP_RUN) removeRunDir(runDir);
  });
  const artifacts = ensureDir(path.join(artifactsRoot, label));
  const logFile = path.join(artifacts, `code-server-${install.version}.log`);
  fs.rmSync(logFile, { force: true });

  for (const vsix of options.installVsixes ?? []) await installVsix(install, vsix, runDir, runDirs(runDir).extensionsDir);
  for (const fixture of options.fixtureExtensions ?? [])
    await installVsix(install, await packFixtureExtension(fixture, runDir), runDir, runDirs(runDir).extensionsDir);
  const started = Date.now();
  const server = await startCodeServer(install, {
    runDir,
    port: await freePort(),
    logFile,
    userSettings: options.untrusted ? UNTRUSTED_USER_SETTINGS : TEST_USER_SETTINGS,
    workspaceTrust: options.untrusted === true,
    env: {
      SPOT_IMPORT_TEST: '1',
      SPOT_TEST_COLOR: process.stdout.isTTY && !process.env.NO_COLOR ? '1' : '0',
      // Where the extension host's log files go (the activation bench reads the extension's own log).
      SPOT_TEST_LOGS_DIR: path.join(runDir, 'user-data', 'logs'),
      ...(process.env.SPOT_TEST_GREP ? { SPOT_TEST_GREP: process.env.SPOT_TEST_GREP } : {}),
      ...options.env,
    },
  });
  const browser = await launchBrowser(path.join(runDir, 'browser-profile')).catch(async (error) => {
    await server.stop();
    throw error;
  });
  const consoleLog = fs.createWriteStream(path.join(artifacts, 'workbench-console.log'));
  let code = 1;
  let finished = false;
  /** Set when the browser side is gone (crash or close): no screenshot can be taken then. */
  let browserGone: string | undefined;
  try {
    const exited = new Promise<number>((resolve) => {
      void browser.page.exposeFunction('codeAutomationExit', (exitCode: number) => resolve(exitCode));
    });
    await browser.page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      const line = util.format(...(Array.isArray(args) ? args : [args]));
      consoleLog.write(`[${type}] ${line}\n`);
      if (!isWorkbenchNoise(line)) onLog(line, type);
    });
    const serverDied = new Promise<number>((resolve) =>
      server.child.once('exit', (exitCode) => {
        if (finished) return;
        if (stopRequested()) return resolve(130); // the signal handler killed it
        console.error(`[integration] code-server exited (${exitCode}) before the suite finished; log: ${logFile}`);
        resolve(1);
      }),
    );
    // A crashed renderer or a browser that went away never calls codeAutomationExit: end the run
    // at once instead of waiting for the suite's time limit.
    const browserDied = new Promise<number>((resolve) => {
      const gone = (what: string) => {
        if (finished || browserGone) return;
        browserGone = what;
        if (stopRequested()) return resolve(130); // the signal handler killed it
        console.error(`[integration] ${what} before the ${label} suite finished; console log: ${path.join(artifacts, 'workbench-console.log')}`);
        resolve(1);
      };
      browser.page.once('crash', () => gone("Chromium crashed: the workbench page's renderer died"));
      browser.page.once('close', () => gone('the workbench page closed (Chromium exited, crashed or was killed)'));
      browser.context.once('close', () => gone('Chromium closed (its browser process exited or was killed)'));
    });
    const url = workbenchUrl(server, { folder: workspace, extensionDevelopmentPath: repoRoot, extensionTestsPath });
    if (!options.quiet) console.log(`[integration] VS Code ${install.vscodeVersion} (code-server ${install.version}) on ${server.baseUrl}`);
    await Promise.race([browser.page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 }), browserDied]);
    code = await withTimeout(Promise.race([exited, serverDied, browserDied]), timeoutMs, `the ${label} suite to finish`);
    finished = true;
  } catch (error) {
    finished = true;
    if (!stopRequested()) console.error(`[integration] ${error instanceof TimeoutError ? 'time-out' : 'failure'}: ${(error as Error).message}`);
    code = 1;
  } finally {
    if (stopRequested()) code = 130;
    else if (code !== 0) {
      const shot = browserGone || browser.page.isClosed() ? undefined : await screenshot(browser.page, path.join(artifacts, `failure-${label}.png`));
      if (shot) console.error(`[integration] screenshot: ${path.relative(repoRoot, shot)}; server log: ${path.relative(repoRoot, logFile)}`);
      else
        console.error(
          `[integration] no screenshot (${browserGone ? 'the browser side is gone' : 'it failed'}); server log: ${path.relative(repoRoot, logFile)}`,
        );
    }
    consoleLog.end();
    await browser.close();
    await server.stop();
    forgetRunDir();
    if (!process.env.SPOT_KEEP_RUN) removeRunDir(runDir);
  }
  if (!options.quiet || code !== 0) console.log(`[integration] ${label}: exit code ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return code;
}

// The workbench's own chatter (also kept in artifacts/<label>/workbench-console.log).
const NOISE = [
  /^Resolving connection token/,
  /^Resolved connection token/,
  /^Creating a socket/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
  /^Started local extension host/,
  /^Creation of workbench contribution '.*' took \d+ms/,
  /^\[(AgentHost|ChatModelSelection|AccountPolicyGate|reconnection-grace-time|Service Worker)[^\]]*\]/,
];

function isWorkbenchNoise(line: string): boolean {
  return NOISE.some((pattern) => pattern.test(line));
}

/** The Restricted Mode suite (test/integration/untrusted/), in a window whose folder is not trusted. */
export const UNTRUSTED_SUITE: SuiteOptions = {
  label: 'integration-untrusted',
  extensionTestsPath: path.join(repoRoot, 'out', 'test', 'integration', 'untrusted', 'index.js'),
  untrusted: true,
};

/**
 * The virtual-workspace suite (test/integration/virtual/), in a window whose folder is virtual: the
 * fixture workspace served read-only under spotvfs: by a test-only file system extension
 * (test/fixtures/virtualFsExtension), as a repository opened from GitHub would be.
 */
export const VIRTUAL_SUITE: SuiteOptions = {
  label: 'integration-virtual',
  extensionTestsPath: path.join(repoRoot, 'out', 'test', 'integration', 'virtual', 'index.js'),
  workspace: 'spotvfs:/',
  fixtureExtensions: ['virtualFsExtension'],
  env: { SPOT_VFS_ROOT: fixtureWorkspace },
};

/**
 * Which suites a run takes: all three, unless SPOT_TEST_GREP names tests of one (the Restricted
 * Mode suite's titles start with "Restricted Mode", the virtual one's with "virtual workspace"; a
 * filter matches within one suite, and a suite in which no test ran fails).
 */
export function suitesToRun(grep = process.env.SPOT_TEST_GREP): SuiteOptions[] {
  if (!grep) return [{}, UNTRUSTED_SUITE, VIRTUAL_SUITE];
  if (/restricted mode/i.test(grep)) return [UNTRUSTED_SUITE];
  return /virtual workspace/i.test(grep) ? [VIRTUAL_SUITE] : [{}];
}

async function runSuites(): Promise<number> {
  let code = 0;
  for (const suite of suitesToRun()) {
    const result = await runSuiteInCodeServer(suite);
    if (result !== 0) code = result;
    if (stopRequested()) break;
  }
  return code;
}

if (require.main === module) {
  runSuites()
    .catch((error) => {
      console.error(`[integration] ${(error as Error).message}`);
      return 1;
    })
    .then(async (code) => {
      await stopAll();
      process.exit(stopRequested() ? 130 : code);
    });
}
