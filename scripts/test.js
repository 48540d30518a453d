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
  // The checks, the type check and the build need nothing of each other: they run at once (each
  // single-threaded, so together they keep both cores busy), their outputs printed one after the
  // other when all have ended.
  {
    id: 'lint',
    together: 'checks',
    title: 'lint (eslint)',
    run: (options) => runStep(bin('eslint'), ['src', 'test', 'bench', 'scripts'], options),
    summary: () => 'no lint problems',
  },
  // The shape of src/ (dependency-cruiser: no import circle, no folder circle, the products apart),
  // exports no module uses (knip) and the formatting (Prettier): `npm run lint` runs the same.
  {
    id: 'imports',
    together: 'checks',
    title: 'import graph (dependency-cruiser)',
    run: (options) => runStep(npm, ['run', '--silent', 'lint:imports'], options),
    summary: () => 'no circles, products apart',
  },
  {
    id: 'exports',
    together: 'checks',
    title: 'unused files, exports and dependencies (knip)',
    run: (options) => runStep(npm, ['run', '--silent', 'lint:exports'], options),
    summary: () => 'none',
  },
  {
    id: 'format',
    together: 'checks',
    title: 'formatting (prettier --check)',
    run: (options) => runStep(npm, ['run', '--silent', 'lint:format'], options),
    summary: () => 'formatted',
  },
  {
    id: 'typecheck',
    together: 'checks',
    title: 'type check (tsc -p ., emits a clean out/)',
    run: (options) => {
      cleanOut(); // no stale compiled tests from deleted or renamed sources
      return runStep(bin('tsc'), ['-p', '.'], options);
    },
    summary: () => 'no type errors',
  },
  {
    id: 'build',
    together: 'checks',
    title: 'build (esbuild)',
    run: (options) => runStep(process.execPath, ['esbuild.js', '--quiet'], options),
    summary: () => 'bundles in dist/',
  },
  {
    id: 'unit',
    title: 'unit tests (mocha)',
    run: () => runStep(bin('mocha'), ['--config', 'test/unit/.mocharc.json'], { env: mochaEnv, timeoutMs: 15 * 60 * 1000 }),
    mocha: true,
  },
  { id: 'commands', title: 'command contributions', run: () => runStep(process.execPath, ['scripts/checkCommands.js']) },
  { id: 'l10n', title: 'translations (every string in every language: scripts/checkL10n.js)', run: () => runStep(process.execPath, ['scripts/checkL10n.js']) },
  // The integration suite and the e2e tests, once per VS Code version (scripts/lib/vscodeVersions.js:
  // oldest and newest under CI, oldest alone by default elsewhere), one version after the other: the
  // newest's install, started ahead (installCodeServersAhead), then ends beside the oldest's e2e
  // tests instead of holding up the newest's integration suite. The e2e runs after the first reuse
  // the .vsix the first one packaged.
  ...versions.flatMap((version, index) => [
    {
      id: 'integration',
      version,
      title: `integration suite in VS Code ${version} (code-server, headless Chromium)`,
      run: () =>
        runStep(process.execPath, [path.join('out', 'test', 'integration', 'launchers', 'codeServer.js')], {
          env: { SPOT_TEST_COLOR: color ? '1' : '0', SPOT_VSCODE_VERSION: version },
          timeoutMs: 30 * 60 * 1000,
        }),
      mocha: true,
    },
    {
      id: 'e2e',
      version,
      title: `end-to-end UI tests in VS Code ${version} (.vsix in code-server, Playwright)`,
      run: () =>
        runStep(process.execPath, ['scripts/e2e.js', ...(index > 0 ? ['--no-package'] : [])], {
          env: { SPOT_SKIP_COMPILE: '1', SPOT_VSCODE_VERSION: version, ...mochaEnv },
          timeoutMs: 30 * 60 * 1000,
        }),
      mocha: true,
    },
  ]),
];

/**
 * Starts installing the code-server versions the integration and e2e steps will use, one after
 * the other, in the background at the lowest priority, its output in
 * artifacts/code-server-install.log: on a fresh machine their downloads and builds then fill what
 * the unit tests and the first version's steps leave idle. A step that needs a version still being
 * installed waits for it on the install's lock (test/integration/launchers/harness/codeServer.ts).
 * A cached install makes it a no-op.
 */
function installCodeServersAhead() {
  const script = path.join(root, 'out', 'test', 'integration', 'launchers', 'prefetchCodeServer.js');
  if (!fs.existsSync(script)) return;
  const { lowerPriority, BACKGROUND_ENV } = require(path.join(root, 'out', 'test', 'integration', 'launchers', 'harness', 'processes.js'));
  fs.mkdirSync(path.join(root, 'artifacts'), { recursive: true });
  const log = fs.openSync(path.join(root, 'artifacts', 'code-server-install.log'), 'w');
  // A session of its own, at the lowest priority, and so is every process it starts (BACKGROUND_ENV):
  // at equal priority the unit step took twice as long on a fresh machine.
  const child = spawn(process.execPath, [script, ...versions], {
    cwd: root,
    detached: true,
    stdio: ['ignore', log, log],
    env: { ...process.env, [BACKGROUND_ENV]: '1' },
  });
  if (child.pid !== undefined) lowerPriority(child.pid);
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM'); // its own handler stops the installs it started
    } catch {
      // already ended
    }
  };
  process.on('exit', stop);
  child.on('error', () => undefined);
  child.on('exit', (code) => {
    process.off('exit', stop);
    fs.closeSync(log);
    if (code !== 0) console.log('[code-server] the install ahead failed (artifacts/code-server-install.log); the integration step installs it itself');
  });
}

/** A step's closing line (mocha's counts added to the totals) and its name in the summary. */
function report(step, result, totals) {
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
  return { line, name: step.version && versions.length > 1 ? `${step.id} (${step.version})` : step.id };
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
  for (let index = 0; index < steps.length;) {
    // A step, or the steps that run together with it (their output shown when all have ended).
    let end = index + 1;
    while (steps[index].together && steps[end]?.together === steps[index].together) end++;
    const group = steps.slice(index, end);
    index += group.length;
    const running = group.filter((step) => {
      if (skip.has(step.id)) console.log(`\n── ${step.title}: skipped (SPOT_TEST_SKIP)`);
      return !skip.has(step.id);
    });
    if (running.length === 1) console.log(`\n── ${running[0].title}`);
    const results = await Promise.all(running.map((step) => step.run(running.length > 1 ? { quiet: true } : {})));
    let failed;
    for (const [at, step] of running.entries()) {
      const result = results[at];
      if (running.length > 1) {
        console.log(`\n── ${step.title}`);
        if (result.output.trim()) process.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
      }
      const { line, name } = report(step, result, totals);
      const status = result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`;
      console.log(`── ${name}: ${status}: ${line} (${seconds(result.ms)})`);
      done.push(`${name} ${result.code === 0 ? 'ok' : 'FAILED'} ${seconds(result.ms)}`);
      if (result.code !== 0 && !failed) failed = { name, code: result.code };
    }
    if (!failed && running.some((step) => step.id === 'typecheck') && !skip.has('integration')) installCodeServersAhead();
    if (failed) {
      console.log(`\nnpm test stopped at "${failed.name}" after ${seconds(Date.now() - started)}. Steps: ${done.join(', ')}`);
      // CI reads this exact shape ("N passed, N failed[, N skipped]" alone on the last line).
      console.log(`${totals.passed} passed, ${Math.max(totals.failed, 1)} failed${totals.pending ? `, ${totals.pending} skipped` : ''}`);
      return failed.code || 1;
    }
  }
  console.log(`\nSteps: ${done.join(', ')} (${seconds(Date.now() - started)} in all)`);
  console.log(`${totals.passed} passed, ${totals.failed} failed${totals.pending ? `, ${totals.pending} skipped` : ''}`);
  return 0;
}

process.chdir(root);
main().then((code) => process.exit(code));
