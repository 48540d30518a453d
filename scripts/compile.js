#!/usr/bin/env node
// Builds the bundles (node esbuild.js) and compiles src, test and bench into out/ (tsc -p .).
// out/ is emptied before tsc, so a compiled test whose source was deleted or renamed never runs
// again (the integration entry and mocha pick up every *.test.js under out/).
// Usage: node scripts/compile.js [--production] [--strict] [--tsc-only]
//   --strict: a type error fails (npm test runs the type check as its own strict step; the
//   standalone test:integration / test:e2e / bench runs warn and go on with the emitted JS).
//   --tsc-only: no esbuild bundles, only out/ (npm run test:unit, compile-tests).
// Skipped entirely when SPOT_SKIP_COMPILE=1 (npm test has compiled already).
const fs = require('fs');
const path = require('path');
const { runStep, bin, root } = require('./lib/steps');

const outDir = path.join(root, 'out');

/** Empties out/ (tsc's outDir), so only what the current sources compile to is there. */
function cleanOut() {
  fs.rmSync(outDir, { recursive: true, force: true });
}

async function compile({ production = false, strict = false, tscOnly = false } = {}) {
  if (process.env.SPOT_SKIP_COMPILE === '1') return true;
  if (!tscOnly) {
    const build = await runStep(process.execPath, ['esbuild.js', '--quiet', ...(production ? ['--production'] : [])]);
    if (build.code !== 0) {
      console.error(`[compile] esbuild failed (exit ${build.code})`);
      return false;
    }
  }
  cleanOut();
  const tsc = await runStep(bin('tsc'), ['-p', '.']);
  if (tsc.code !== 0) {
    if (strict) {
      console.error(`[compile] tsc found type errors`);
      return false;
    }
    console.error('[compile] tsc reported type errors (npm test fails on them); going on with the emitted JavaScript');
  }
  return true;
}

module.exports = { compile, cleanOut };

if (require.main === module) {
  const args = process.argv.slice(2);
  compile({ production: args.includes('--production'), strict: args.includes('--strict'), tscOnly: args.includes('--tsc-only') }).then((ok) =>
    process.exit(ok ? 0 : 1),
  );
}
