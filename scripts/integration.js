#!/usr/bin/env node
// npm run test:integration (offline: code-server + headless Chromium) and
// npm run test:integration:electron (--electron: @vscode/test-electron, needs a VS Code download).
// Compiles first unless SPOT_SKIP_COMPILE=1. Runs once per VS Code version (SPOT_VSCODE_VERSION, one
// or a comma list; scripts/lib/vscodeVersions.js); exits 0 only when every run passed.
const path = require('path');
const { compile } = require('./compile');
const { runStep, root } = require('./lib/steps');
const { vscodeVersionsToTest } = require('./lib/vscodeVersions');

async function main() {
  const electron = process.argv.includes('--electron');
  if (!(await compile())) return 1;
  const launcher = path.join(root, 'out', 'test', 'integration', 'launchers', electron ? 'electron.js' : 'codeServer.js');
  const color = process.stdout.isTTY && !process.env.NO_COLOR ? '1' : '0';
  const versions = vscodeVersionsToTest();
  let code = 0;
  for (const version of versions) {
    if (versions.length > 1) console.log(`\n[integration] VS Code ${version}`);
    const env = { SPOT_TEST_COLOR: color, SPOT_VSCODE_VERSION: version };
    const result = await runStep(process.execPath, [launcher], { env, timeoutMs: 30 * 60 * 1000 });
    if (result.code !== 0) code = result.code;
  }
  return code;
}

main().then((code) => process.exit(code));
