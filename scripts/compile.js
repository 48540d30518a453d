#!/usr/bin/env node
// Builds the bundles (node esbuild.js) and compiles src, test and bench into out/ (tsc -p .).
// Usage: node scripts/compile.js [--production] [--strict]
//   --strict: a type error fails (npm test runs the type check as its own strict step; the
//   standalone test:integration / test:e2e / bench runs warn and go on with the emitted JS).
// Skipped entirely when SPOT_SKIP_COMPILE=1 (npm test has compiled already).
const { runStep, bin } = require('./lib/steps');

async function compile({ production = false, strict = false } = {}) {
  if (process.env.SPOT_SKIP_COMPILE === '1') return true;
  const build = await runStep(process.execPath, ['esbuild.js', '--quiet', ...(production ? ['--production'] : [])]);
  if (build.code !== 0) {
    console.error(`[compile] esbuild failed (exit ${build.code})`);
    return false;
  }
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

module.exports = { compile };

if (require.main === module) {
  const args = process.argv.slice(2);
  compile({ production: args.includes('--production'), strict: args.includes('--strict') }).then((ok) => process.exit(ok ? 0 : 1));
}
