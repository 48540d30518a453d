#!/usr/bin/env node
// npm run test:e2e: production build, the .vsix packaged with @vscode/vsce, then the Playwright
// tests (test/e2e, mocha) against code-server with that .vsix installed. Screenshots: artifacts/e2e/.
// SPOT_SKIP_COMPILE=1 skips the tsc step (npm test has compiled); the production build always runs.
const path = require('path');
const fs = require('fs');
const { compile } = require('./compile');
const { runStep, bin, mochaCounts, root } = require('./lib/steps');

const vsix = path.join(root, 'artifacts', 'spot-import.vsix');

async function main() {
  if (!(await compile({ production: true }))) return 1;
  if (process.env.SPOT_SKIP_COMPILE === '1') {
    const build = await runStep(process.execPath, ['esbuild.js', '--quiet', '--production']);
    if (build.code !== 0) return build.code;
  }
  fs.mkdirSync(path.dirname(vsix), { recursive: true });
  fs.rmSync(vsix, { force: true });
  // Packed as npm run package packs it: the README for users (scripts/packageVsix.js).
  const { writeUserReadme, vsceArgs } = require('./packageVsix');
  writeUserReadme();
  const packArgs = vsceArgs(vsix);
  const pack = await runStep(bin('vsce'), packArgs, { quiet: true, timeoutMs: 5 * 60 * 1000 });
  if (pack.code !== 0 || !fs.existsSync(vsix)) {
    process.stderr.write(pack.output);
    console.error(`[e2e] vsce package failed (exit ${pack.code})`);
    return 1;
  }
  console.log(`[e2e] packaged ${path.relative(root, vsix)} (${(fs.statSync(vsix).size / 1024).toFixed(0)} KB)`);
  const env = process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {};
  const mocha = await runStep(bin('mocha'), ['--config', 'test/e2e/.mocharc.json', ...(process.env.SPOT_TEST_GREP ? ['--grep', process.env.SPOT_TEST_GREP] : [])], {
    env: { ...env, SPOT_E2E_VSIX: vsix },
    timeoutMs: 30 * 60 * 1000,
  });
  console.log(`[e2e] screenshots: ${path.relative(root, path.join(root, 'artifacts', 'e2e'))}/`);
  if (mocha.code === 0 && mochaCounts(mocha.output).passed === 0) {
    console.error(`[e2e] no test ran; check SPOT_TEST_GREP${process.env.SPOT_TEST_GREP ? ` (now ${JSON.stringify(process.env.SPOT_TEST_GREP)})` : ''}`);
    return 1;
  }
  return mocha.code;
}

main().then((code) => process.exit(code));
