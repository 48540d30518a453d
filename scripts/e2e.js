#!/usr/bin/env node
// npm run test:e2e: production build, the .vsix packaged with @vscode/vsce, then the Playwright
// tests (test/e2e, mocha) against code-server with that .vsix installed, once per VS Code version
// (SPOT_VSCODE_VERSION, scripts/lib/vscodeVersions.js). Screenshots: artifacts/e2e/ (the oldest
// version) or artifacts/e2e-vscode-<version>/.
// SPOT_SKIP_COMPILE=1 skips the tsc step (npm test has compiled); the production build always runs,
// and dist/ gets the development build back once the .vsix is packed.
// --no-package: reuse artifacts/spot-import.vsix as an earlier run in this npm test packaged it.
// --package-only: build and package, run nothing (npm run bench:map installs that .vsix).
// The run fails when it wrote anything under docs/: tests write to artifacts/ only, and
// `npm run screenshots` refreshes the documented screenshots from artifacts/e2e/.
const path = require('path');
const fs = require('fs');
const { compile } = require('./compile');
const { runStep, bin, mochaCounts, root } = require('./lib/steps');
const { vscodeVersionsToTest } = require('./lib/vscodeVersions');
const { fingerprints, changedFiles } = require('./lib/fileFingerprints');

const vsix = path.join(root, 'artifacts', 'spot-import.vsix');
const docs = path.join(root, 'docs');

async function main() {
  // npm run bench:map: the .vsix the map bench installs, and nothing else.
  if (process.argv.includes('--package-only')) return (await buildAndPackage()) ? 0 : 1;
  if (process.argv.includes('--no-package')) {
    if (!fs.existsSync(vsix)) {
      console.error(`[e2e] --no-package: ${path.relative(root, vsix)} is missing`);
      return 1;
    }
  } else if (!(await buildAndPackage())) return 1;
  const versions = vscodeVersionsToTest();
  const docsBefore = fingerprints(docs);
  let code = 0;
  for (const version of versions) {
    if (versions.length > 1) console.log(`\n[e2e] VS Code ${version}`);
    const result = await runMocha(version);
    if (result !== 0) code = result;
  }
  const written = changedFiles(docsBefore, fingerprints(docs));
  if (written.length > 0) {
    console.error(
      `[e2e] the run wrote into docs/: ${written.join(', ')}. Tests write to artifacts/ only; npm run screenshots refreshes docs/screenshots/ from artifacts/e2e/.`,
    );
    return code || 1;
  }
  return code;
}

/** Production build and the .vsix; false (after saying why) when either fails. */
async function buildAndPackage() {
  if (!(await compile({ production: true }))) return false;
  if (process.env.SPOT_SKIP_COMPILE === '1') {
    const build = await runStep(process.execPath, ['esbuild.js', '--quiet', '--production']);
    if (build.code !== 0) return false;
  }
  fs.mkdirSync(path.dirname(vsix), { recursive: true });
  fs.rmSync(vsix, { force: true });
  // Packed as npm run package packs it: the README and changelog for users (scripts/packageVsix.js).
  const { writeUserReadme, writeUserChangelog, vsceArgs } = require('./packageVsix');
  writeUserReadme();
  writeUserChangelog();
  const packArgs = vsceArgs(vsix);
  const pack = await runStep(bin('vsce'), packArgs, { quiet: true, timeoutMs: 5 * 60 * 1000 });
  if (pack.code !== 0 || !fs.existsSync(vsix)) {
    process.stderr.write(pack.output);
    console.error(`[e2e] vsce package failed (exit ${pack.code})`);
    return false;
  }
  console.log(`[e2e] packaged ${path.relative(root, vsix)} (${(fs.statSync(vsix).size / 1024).toFixed(0)} KB)`);
  // dist/ back to the development build (source maps, not minified): npm test runs the next VS Code
  // version's integration suite from it after this package (scripts/test.js).
  const restore = await runStep(process.execPath, ['esbuild.js', '--quiet'], { quiet: true });
  if (restore.code !== 0) {
    process.stderr.write(restore.output);
    console.error(`[e2e] the development build after packaging failed (exit ${restore.code})`);
    return false;
  }
  return true;
}

/** The e2e tests in code-server of one VS Code version; resolves with mocha's exit code. */
async function runMocha(version) {
  const env = process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {};
  const mocha = await runStep(
    bin('mocha'),
    ['--config', 'test/e2e/.mocharc.json', ...(process.env.SPOT_TEST_GREP ? ['--grep', process.env.SPOT_TEST_GREP] : [])],
    {
      env: { ...env, SPOT_E2E_VSIX: vsix, SPOT_VSCODE_VERSION: version },
      timeoutMs: 30 * 60 * 1000,
    },
  );
  if (mocha.code === 0 && mochaCounts(mocha.output).passed === 0) {
    console.error(`[e2e] no test ran; check SPOT_TEST_GREP${process.env.SPOT_TEST_GREP ? ` (now ${JSON.stringify(process.env.SPOT_TEST_GREP)})` : ''}`);
    return 1;
  }
  return mocha.code;
}

main().then((code) => process.exit(code));
