#!/usr/bin/env node
// npm run test:integration (offline: code-server + headless Chromium) and
// npm run test:integration:electron (--electron: @vscode/test-electron, needs a VS Code download).
// Compiles first unless SPOT_SKIP_COMPILE=1. Exits with the suite's code.
const path = require('path');
const { compile } = require('./compile');
const { runStep, root } = require('./lib/steps');

async function main() {
  const electron = process.argv.includes('--electron');
  if (!(await compile())) return 1;
  const launcher = path.join(root, 'out', 'test', 'integration', 'launchers', electron ? 'electron.js' : 'codeServer.js');
  const env = { SPOT_TEST_COLOR: process.stdout.isTTY && !process.env.NO_COLOR ? '1' : '0' };
  const result = await runStep(process.execPath, [launcher], { env, timeoutMs: 30 * 60 * 1000 });
  return result.code;
}

main().then((code) => process.exit(code));
