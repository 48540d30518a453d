#!/usr/bin/env node
// npm test: lint, type check (tsc also emits out/ for mocha), build, unit tests, the command
// contribution check, the integration suite in a real VS Code (offline launcher: code-server +
// headless Chromium) and the end-to-end UI tests. Stops at the first failing step.
// Each step prints its own closing summary; the last line adds up the mocha counts.
// A mocha step in which no test passed fails (a filter that matches nothing must not look green).
// Env: SPOT_TEST_SKIP=e2e,integration (comma list of step ids to leave out), SPOT_TEST_GREP.
// Both are refused when CI is set: CI runs every test.
const path = require('path');
const { cleanOut } = require('./compile');
const { runStep, bin, mochaCounts, root } = require('./lib/steps');

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const mochaEnv = color ? { FORCE_COLOR: '1' } : {};

const steps = [
  {
    // The https tests need openssl and the command line's terminal tests need `script`: installed
    // here as root (or named), so no test skips quietly for want of a tool.
    id: 'tools',
    title: 'Debian tools the tests need (openssl, bsdutils)',
    run: () => runStep(process.execPath, ['scripts/ensureSystemDeps.js', 'tools']),
    summary: () => 'present',
  },
  { id: 'lint', title: 'lint (eslint)', run: () => runStep(bin('eslint'), ['src', 'test', 'bench', 'scripts']), summary: () => 'no lint problems' },
  {
    id: 'typecheck',
    title: 'type check (tsc -p ., emits a clean out/)',
    run: () => {
      cleanOut(); // no stale compiled tests from deleted or renamed sources
      return runStep(bin('tsc'), ['-p', '.']);
    },
    summary: () => 'no type errors',
  },
  { id: 'build', title: 'build (esbuild)', run: () => runStep(process.execPath, ['esbuild.js', '--quiet']), summary: () => 'bundles in dist/' },
  {
    id: 'unit',
    title: 'unit tests (mocha)',
    run: () => runStep(bin('mocha'), ['--config', 'test/unit/.mocharc.json'], { env: mochaEnv, timeoutMs: 15 * 60 * 1000 }),
    mocha: true,
  },
  { id: 'commands', title: 'command contributions', run: () => runStep(process.execPath, ['scripts/checkCommands.js']) },
  {
    id: 'integration',
    title: 'integration suite in VS Code (code-server, headless Chromium)',
    run: () =>
      runStep(process.execPath, [path.join('out', 'test', 'integration', 'launchers', 'codeServer.js')], {
        env: { SPOT_TEST_COLOR: color ? '1' : '0' },
        timeoutMs: 30 * 60 * 1000,
      }),
    mocha: true,
  },
  {
    id: 'e2e',
    title: 'end-to-end UI tests (.vsix in code-server, Playwright)',
    run: () => runStep(process.execPath, ['scripts/e2e.js'], { env: { SPOT_SKIP_COMPILE: '1', ...mochaEnv }, timeoutMs: 30 * 60 * 1000 }),
    mocha: true,
  },
];

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** CI is set (to anything but an explicit "false" or "0"). */
function inCi() {
  const ci = (process.env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

async function main() {
  if (inCi()) {
    const filters = ['SPOT_TEST_GREP', 'SPOT_TEST_SKIP'].filter((name) => (process.env[name] ?? '').trim() !== '');
    if (filters.length) {
      console.error(
        `npm test: ${filters.map((name) => `${name}=${JSON.stringify(process.env[name])}`).join(' and ')} set while CI is set. ` +
          `CI must run every step and every test (a filtered run can pass with tests left out); unset ${filters.length > 1 ? 'them' : 'it'}.`,
      );
      console.log('0 passed, 1 failed');
      return 1;
    }
  }
  const skip = new Set((process.env.SPOT_TEST_SKIP ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  const totals = { passed: 0, failed: 0, pending: 0 };
  const started = Date.now();
  const done = [];
  for (const step of steps) {
    if (skip.has(step.id)) {
      console.log(`\n── ${step.title}: skipped (SPOT_TEST_SKIP)`);
      continue;
    }
    console.log(`\n── ${step.title}`);
    const result = await step.run();
    let line;
    if (step.mocha) {
      const counts = mochaCounts(result.output);
      totals.passed += counts.passed;
      totals.failed += counts.failed;
      totals.pending += counts.pending;
      line = `${counts.passed} passed, ${counts.failed} failed${counts.pending ? `, ${counts.pending} pending` : ''}`;
      if (result.code === 0 && counts.passed === 0) {
        // Exit 0 with nothing run: a SPOT_TEST_GREP that matches nothing, or a suite that lost its files.
        result.code = 1;
        line += ': no test ran; check SPOT_TEST_GREP';
      }
      if (result.code !== 0 && counts.failed === 0) totals.failed += 1; // a crash before mocha's summary still counts
    } else {
      const lastLine = result.output.trim().split('\n').pop() ?? '';
      line = result.code === 0 ? (step.summary ? step.summary() : lastLine) : 'failed';
    }
    const status = result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`;
    console.log(`── ${step.id}: ${status}: ${line} (${seconds(result.ms)})`);
    done.push(`${step.id} ${result.code === 0 ? 'ok' : 'FAILED'} ${seconds(result.ms)}`);
    if (result.code !== 0) {
      console.log(`\nnpm test stopped at "${step.id}" after ${seconds(Date.now() - started)}. Steps: ${done.join(', ')}`);
      // CI reads this exact shape ("N passed, N failed[, N skipped]" alone on the last line).
      console.log(`${totals.passed} passed, ${Math.max(totals.failed, 1)} failed${totals.pending ? `, ${totals.pending} skipped` : ''}`);
      return result.code || 1;
    }
  }
  console.log(`\nSteps: ${done.join(', ')} (${seconds(Date.now() - started)} in all)`);
  console.log(`${totals.passed} passed, ${totals.failed} failed${totals.pending ? `, ${totals.pending} skipped` : ''}`);
  return 0;
}

process.chdir(root);
main().then((code) => process.exit(code));
