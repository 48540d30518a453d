// Standard launcher for machines that can download VS Code: @vscode/test-electron fetches the
// desktop build into .vscode-test/ and the same suite (test/integration/index.ts) runs in it.
// Usage: npm run test:integration:electron
// Headless Linux: xvfb-run -a npm run test:integration:electron   (Debian package xvfb)
// Env: SPOT_VSCODE_VERSION (unset or "oldest" = 1.100.3, the oldest engines.vscode accepts; "newest" =
//      the pinned newest (VSCODE_VERSIONS); "latest" = stable; or a VS Code version 1.x.y), SPOT_VSCODE_EXECUTABLE (a desktop VS Code to use instead of a
//      download), SPOT_TEST_GREP, SPOT_TEST_TIMEOUT_MS (whole suite, default 600000),
//      SPOT_KEEP_RUN=1 (keep .vscode-test/runs/electron-<pid>/).
//
// Each run gets fresh user data and extensions folders under .vscode-test/runs/electron-<pid>/
// (removed afterwards; a run killed before that is cleaned up by the next launcher start), the
// code-server launcher's user settings (TEST_USER_SETTINGS), --password-store=basic (a headless
// Linux has no desktop keyring, without which SecretStorage hangs or fails) and a time limit.
// VS Code runs in its own process group, stopped whatever happens (also on Ctrl-C / SIGTERM).
import { downloadAndUnzipVSCode } from '@vscode/test-electron';
import * as fs from 'fs';
import * as path from 'path';
import { cleanEnv, removeRunDir, removeStaleRunDirs, TEST_USER_SETTINGS, VSCODE_VERSIONS, vscodeVersionOf } from './harness/codeServer';
import { artifactsRoot, cacheRoot, ensureDir, fixtureWorkspace, freshDir, repoRoot } from './harness/paths';
import { exitCode, killGroup, onCleanup, spawnGroup, stopAll, stopRequested, TimeoutError, withTimeout } from './harness/processes';

export const PINNED_VSCODE = vscodeVersionOf(VSCODE_VERSIONS.oldest);
const DOWNLOAD_TIMEOUT_MS = 10 * 60 * 1000;

function vscodeVersion(spec = (process.env.SPOT_VSCODE_VERSION ?? '').trim()): string {
  if (spec === '' || spec === 'pinned' || spec === 'oldest') return PINNED_VSCODE;
  if (spec === 'newest') return vscodeVersionOf(VSCODE_VERSIONS.newest);
  if (spec === 'latest') return 'stable';
  if (/^4\.\d+\.\d+$/.test(spec)) return vscodeVersionOf(spec); // a code-server version
  return spec;
}

async function vscodeExecutable(version: string): Promise<string> {
  const given = process.env.SPOT_VSCODE_EXECUTABLE?.trim();
  if (given) {
    if (!fs.existsSync(given)) throw new Error(`SPOT_VSCODE_EXECUTABLE=${given} does not exist`);
    return given;
  }
  // An unreachable update server fails at once (ENOTFOUND); a stalled download is bounded.
  return withTimeout(downloadAndUnzipVSCode({ version, cachePath: cacheRoot, timeout: 60_000 }), DOWNLOAD_TIMEOUT_MS, `the download of VS Code ${version}`);
}

async function main(): Promise<number> {
  const version = vscodeVersion();
  const timeoutMs = Number(process.env.SPOT_TEST_TIMEOUT_MS ?? 600_000);
  console.log(`[integration:electron] VS Code ${version}`);
  removeStaleRunDirs();
  let executable: string;
  try {
    executable = await vscodeExecutable(version);
  } catch (error) {
    console.error(`[integration:electron] ${(error as Error).message ?? String(error)}`);
    console.error('[integration:electron] (this launcher downloads VS Code; without internet use npm run test:integration)');
    return 1;
  }

  const runDir = path.join(cacheRoot, 'runs', `electron-${process.pid}`);
  removeRunDir(runDir);
  freshDir(runDir);
  const userDataDir = path.join(runDir, 'user-data');
  const extensionsDir = ensureDir(path.join(runDir, 'extensions'));
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  ensureDir(path.dirname(settingsFile));
  fs.writeFileSync(settingsFile, JSON.stringify(TEST_USER_SETTINGS, null, 2));
  // Registered first, so on Ctrl-C it runs after VS Code is gone.
  const forgetRunDir = onCleanup(() => {
    forgetRunDir();
    if (!process.env.SPOT_KEEP_RUN) removeRunDir(runDir);
  });
  const logFile = path.join(ensureDir(path.join(artifactsRoot, 'integration-electron')), 'vscode.log');
  fs.rmSync(logFile, { force: true });

  const args = [
    fixtureWorkspace,
    '--disable-extensions',
    '--disable-workspace-trust',
    '--skip-welcome',
    '--skip-release-notes',
    '--disable-updates',
    '--no-sandbox', // as @vscode/test-electron's runTests: Chromium's sandbox needs setuid or user namespaces
    '--disable-gpu-sandbox',
    '--password-store=basic',
    `--user-data-dir=${userDataDir}`,
    `--extensions-dir=${extensionsDir}`,
    `--extensionDevelopmentPath=${repoRoot}`,
    `--extensionTestsPath=${path.join(repoRoot, 'out', 'test', 'integration', 'index.js')}`,
  ];
  const child = spawnGroup(executable, args, {
    env: {
      ...cleanEnv(),
      SPOT_IMPORT_TEST: '1',
      SPOT_TEST_COLOR: process.stdout.isTTY && !process.env.NO_COLOR ? '1' : '0',
      ...(process.env.SPOT_TEST_GREP ? { SPOT_TEST_GREP: process.env.SPOT_TEST_GREP } : {}),
    },
    logFile,
    echo: true,
  });
  const forgetChild = onCleanup(() => killGroup(child));
  const started = Date.now();
  let code: number;
  try {
    code = await withTimeout(exitCode(child), timeoutMs, 'the integration suite in VS Code to finish');
  } catch (error) {
    console.error(`[integration:electron] ${error instanceof TimeoutError ? 'time-out' : 'failure'}: ${(error as Error).message}`);
    code = 1;
  } finally {
    forgetChild();
    await killGroup(child);
    forgetRunDir();
    if (!process.env.SPOT_KEEP_RUN) removeRunDir(runDir);
  }
  console.log(`[integration:electron] exit code ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s; log: ${path.relative(repoRoot, logFile)}`);
  return code;
}

if (require.main === module) {
  void main()
    .catch((error) => {
      console.error(`[integration:electron] ${(error as Error).message ?? String(error)}`);
      return 1;
    })
    .then(async (code) => {
      await stopAll();
      process.exit(stopRequested() ? 130 : code);
    });
}
