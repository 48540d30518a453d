#!/usr/bin/env node
// npm test: lint, type check (tsc also emits out/ for mocha), build, unit tests, the command
// contribution check, the integration suite in a real VS Code (offline launcher: code-server +
// headless Chromium) and the end-to-end UI tests. Stops at the first failing step.
// Each step prints its own closing summary; the last line adds up the mocha counts.
// A mocha step in which no test passed fails (a filter that matches nothing must not look green).
// Env: SPOT_TEST_SKIP=e2e,integration (comma list of step ids to leave out), SPOT_TEST_GREP,
// SPOT_VSCODE_VERSION (the VS Code versions of the integration and e2e steps, one or a comma list;
// unset: oldest and newest under CI, oldest alone otherwise; see scripts/lib/vscodeVersions.js).
// The filters are refused when CI is set (CI runs every test), and so is a SPOT_VSCODE_VERSION
// that leaves out oldest or newest.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { cleanOut } = require('./compile');
const { runStep, bin, mochaCounts, root } = require('./lib/steps');
const { inCi, vscodeVersionsToTest, CI_VERSIONS } = require('./lib/vscodeVersions');

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const mochaEnv = color ? { FORCE_COLOR: '1' } : {};

const versions = vscodeVersionsToTest();
// The lint scripts of package.json, run by name so their arguments live in one place.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

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
  // The shape of src/ (dependency-cruiser: no import circle, no folder circle, the products apart),
  // exports no module uses (knip) and the formatting (Prettier): `npm run lint` runs the same.
  {
    id: 'imports',
    title: 'import graph (dependency-cruiser)',
    run: () => runStep(npm, ['run', '--silent', 'lint:imports']),
    summary: () => 'no circles, products apart',
  },
  {
    id: 'exports',
    title: 'unused files, exports and dependencies (knip)',
    run: () => runStep(npm, ['run', '--silent', 'lint:exports']),
    summary: () => 'none',
  },
  { id: 'format', title: 'formatting (prettier --check)', run: () => runStep(npm, ['run', '--silent', 'lint:format']), summary: () => 'formatted' },
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
  { id: 'l10n', title: 'translations (every string in every language: scripts/checkL10n.js)', run: () => runStep(process.execPath, ['scripts/checkL10n.js']) },
  // The integration suite and the e2e tests, once per VS Code version (scripts/lib/vscodeVersions.js:
  // oldest and newest under CI, oldest alone by default elsewhere). The e2e runs after the first
  // reuse the .vsix the first one packaged.
  ...versions.map((version) => ({
    id: 'integration',
    version,
    title: `integration suite in VS Code ${version} (code-server, headless Chromium)`,
    run: async () => {
      await codeServerInstalls;
      return runStep(process.execPath, [path.join('out', 'test', 'integration', 'launchers', 'codeServer.js')], {
        env: { SPOT_TEST_COLOR: color ? '1' : '0', SPOT_VSCODE_VERSION: version },
        timeoutMs: 30 * 60 * 1000,
      });
    },
    mocha: true,
  })),
  ...versions.map((version, index) => ({
    id: 'e2e',
    version,
    title: `end-to-end UI tests in VS Code ${version} (.vsix in code-server, Playwright)`,
    run: () =>
      runStep(process.execPath, ['scripts/e2e.js', ...(index > 0 ? ['--no-package'] : [])], {
        env: { SPOT_SKIP_COMPILE: '1', SPOT_VSCODE_VERSION: version, ...mochaEnv },
        timeoutMs: 30 * 60 * 1000,
      }),
    mocha: true,
  })),
];

/** The code-server installs started after the type check (prefetchCodeServer.ts); resolves when they end, however. */
let codeServerInstalls = Promise.resolve();

/**
 * Starts installing the code-server versions the integration and e2e steps will use, in the
 * background at the lowest priority, its output in artifacts/code-server-install.log: on a fresh
 * machine their downloads and builds then fill what the build and the unit tests leave idle. A
 * cached install makes it a no-op.
 */
function installCodeServersAhead() {
  const script = path.join(root, 'out', 'test', 'integration', 'launchers', 'prefetchCodeServer.js');
  if (!fs.existsSync(script)) return;
  fs.mkdirSync(path.join(root, 'artifacts'), { recursive: true });
  const log = fs.openSync(path.join(root, 'artifacts', 'code-server-install.log'), 'w');
  const child = spawn(process.execPath, [script, ...versions], { cwd: root, stdio: ['ignore', log, log] });
  // At the lowest priority (its npm and compilers inherit it): the unit tests, timed and bounded,
  // keep the cores they need, and the builds take what the tests leave idle. At equal priority the
  // unit step took three times as long on a fresh machine, and a test ran past its time limit.
  try {
    os.setPriority(child.pid, 19);
  } catch {
    // Not allowed here: it runs at the tests' priority.
  }
  codeServerInstalls = new Promise((resolve) => {
    child.on('error', () => resolve());
    child.on('exit', (code) => {
      fs.closeSync(log);
      if (code !== 0) console.log('[code-server] the install ahead failed (artifacts/code-server-install.log); the integration step installs it itself');
      resolve();
    });
  });
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
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
    const missing = CI_VERSIONS.filter((version) => !versions.includes(version));
    if (missing.length) {
      console.error(
        `npm test: SPOT_VSCODE_VERSION=${JSON.stringify(process.env.SPOT_VSCODE_VERSION)} while CI is set leaves out ${missing.join(' and ')}. ` +
          `CI runs the tests on ${CI_VERSIONS.join(' and ')} VS Code; unset it (or list those too).`,
      );
      console.log('0 passed, 1 failed');
      return 1;
    }
  }
  const skip = new Set(
    (process.env.SPOT_TEST_SKIP ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
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
    const name = step.version && versions.length > 1 ? `${step.id} (${step.version})` : step.id;
    console.log(`── ${name}: ${status}: ${line} (${seconds(result.ms)})`);
    if (step.id === 'typecheck' && result.code === 0 && !skip.has('integration')) installCodeServersAhead();
    done.push(`${name} ${result.code === 0 ? 'ok' : 'FAILED'} ${seconds(result.ms)}`);
    if (result.code !== 0) {
      console.log(`\nnpm test stopped at "${name}" after ${seconds(Date.now() - started)}. Steps: ${done.join(', ')}`);
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
