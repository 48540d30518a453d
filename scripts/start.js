#!/usr/bin/env node
// npm start: builds the extension, starts the local sandbox (http://127.0.0.1:8787 unless that port
// is busy) and opens VS Code on examples/ with the extension loaded in development mode, its
// "Local sandbox" profile pointed at that sandbox (env SPOT_IMPORT_SANDBOX_URL), and its walkthrough
// ("Get started with Spot Import") open (env SPOT_IMPORT_OPEN_WALKTHROUGH=1).
//   - desktop VS Code when `code` is on PATH (SPOT_START_WEB=1 forces the next option);
//   - otherwise code-server (installed on first use into .vscode-test/, like the tests) on a printed
//     http://127.0.0.1:PORT address (SPOT_START_PORT, default 8080 unless busy).
// Ctrl-C stops everything it started.
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');
const { onPath } = require('./ensureSystemDeps');

const root = path.resolve(__dirname, '..');
const examples = path.join(root, 'examples');

/** The test harness (TypeScript) bundled for plain Node: the same code-server install and start. */
function loadHarness() {
  const outfile = path.join(root, 'out', 'start', 'harness.js');
  esbuild.buildSync({
    stdin: {
      contents: "export * from './codeServer'; export * from './processes'; export * from './paths';",
      resolveDir: path.join(root, 'test', 'integration', 'launchers', 'harness'),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    logLevel: 'warning',
  });
  return require(outfile);
}

async function main() {
  console.log('[start] building the extension');
  const build = spawnSync(process.execPath, ['esbuild.js', '--quiet'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) return 1;
  if (!fs.existsSync(examples)) fs.mkdirSync(examples, { recursive: true });

  const harness = loadHarness();
  const { startSandbox } = require(path.join(root, 'dist', 'sandbox.js'));
  const port = await harness.freePort(Number(process.env.SPOT_SANDBOX_PORT ?? 8787));
  const sandbox = await startSandbox({ port, dataDir: path.join(root, '.sandbox-data') });
  harness.onCleanup(() => sandbox.close());
  console.log(`[start] sandbox on ${sandbox.baseUrl} (data in .sandbox-data/; client topic_1_api / sandbox-secret)`);
  const env = { SPOT_IMPORT_SANDBOX_URL: sandbox.baseUrl, SPOT_IMPORT_OPEN_WALKTHROUGH: '1' };

  if (onPath('code') && process.env.SPOT_START_WEB !== '1') {
    console.log('[start] opening desktop VS Code (extension development host); close its window or press Ctrl-C to stop');
    const code = spawn('code', ['--new-window', '--wait', `--extensionDevelopmentPath=${root}`, examples], {
      env: { ...harness.cleanEnv(), ...env },
      stdio: 'inherit',
      detached: true,
    });
    harness.onCleanup(() => {
      try {
        process.kill(-code.pid, 'SIGTERM');
      } catch {
        // already closed
      }
    });
    await new Promise((resolve) => code.once('exit', resolve));
    await harness.stopAll();
    return 0;
  }

  const install = await harness.ensureCodeServer(await harness.resolveCodeServerVersion());
  const runDir = harness.ensureDir(path.join(harness.cacheRoot, 'start'));
  // First start only: quiet defaults. Later the user's own changes to settings are kept.
  const settingsFile = path.join(runDir, 'user-data', 'User', 'settings.json');
  if (!fs.existsSync(settingsFile)) {
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    const settings = { 'workbench.startupEditor': 'none', 'git.openRepositoryInParentFolders': 'never', 'telemetry.telemetryLevel': 'off' };
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  }
  const server = await harness.startCodeServer(install, {
    runDir,
    port: await harness.freePort(Number(process.env.SPOT_START_PORT ?? 8080)),
    logFile: path.join(runDir, 'code-server.log'),
    env,
  });
  const url = harness.workbenchUrl(server, { folder: examples, extensionDevelopmentPath: root });
  console.log(`\n[start] VS Code ${install.vscodeVersion} (code-server ${install.version}) with the extension in development mode:\n\n  ${url}\n`);
  console.log(`[start] (plain ${server.baseUrl}/ opens VS Code without the extension under development.) Ctrl-C stops the server and the sandbox.`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => (stopping = true));
  await new Promise((resolve) => server.child.once('exit', resolve));
  if (stopping) return new Promise(() => {}); // the harness's signal handler stops everything and exits
  console.error(`[start] code-server exited; log: ${path.relative(root, path.join(runDir, 'code-server.log'))}`);
  await harness.stopAll();
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[start] ${error.message}`);
    process.exit(1);
  },
);
