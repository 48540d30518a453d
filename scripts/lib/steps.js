// Runs commands as steps: each in its own process group (stopped on Ctrl-C or SIGTERM), output
// streamed through (and kept, so mocha's closing summary can be read), with a time limit.
// Children get no standard input (a background job reading a TTY would stop with SIGTTIN).
const { spawn } = require('child_process');
const path = require('path');

const root = path.resolve(__dirname, '..', '..');
const running = new Set();
let hooked = false;
let stopping = false;

/**
 * How long a step gets to stop after SIGTERM before its group is killed. Longer than the
 * launchers' own cleanup budget (CLEANUP_BUDGET_MS = 10 s in
 * test/integration/launchers/harness/processes.ts: they SIGKILL their servers and browsers at once,
 * then remove their run folders), so a launcher is never killed in the middle of its cleanup.
 */
const ESCALATION_MS = 15_000;

function hookSignals() {
  if (hooked) return;
  hooked = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      if (running.size === 0) process.exit(130);
      // The children are launchers or tools: let each stop (and clean up) on SIGTERM; finish()
      // exits as soon as the last is gone, the timer makes sure.
      for (const child of running) killGroup(child, 'SIGTERM');
      setTimeout(() => {
        for (const child of running) killGroup(child, 'SIGKILL');
        process.exit(130);
      }, ESCALATION_MS).unref();
    });
  }
  process.on('exit', () => {
    for (const child of running) killGroup(child, 'SIGKILL');
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Runs command with args from the repository root. Resolves { code, output, ms }; never rejects
 * for a non-zero exit (the caller decides). timeoutMs stops the whole group (SIGTERM, then SIGKILL
 * after ESCALATION_MS).
 */
function runStep(command, args, { env = {}, timeoutMs = 30 * 60 * 1000, quiet = false, cwd = root } = {}) {
  hookSignals();
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    const chunks = [];
    const tee = (stream, target) =>
      stream.on('data', (chunk) => {
        chunks.push(chunk);
        if (!quiet) target.write(chunk);
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    let timedOut = false;
    let escalation;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`\n[steps] ${command} ${args.join(' ')}: time limit of ${Math.round(timeoutMs / 1000)} s reached; stopping it`);
      killGroup(child, 'SIGTERM');
      escalation = setTimeout(() => killGroup(child, 'SIGKILL'), ESCALATION_MS);
      escalation.unref();
    }, timeoutMs);
    let finished = false;
    const finish = (code) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(escalation);
      running.delete(child);
      killGroup(child, 'SIGKILL'); // stragglers left in the group
      if (stopping) {
        if (running.size === 0) process.exit(130); // stopped by a signal: start nothing else
        return;
      }
      resolve({ code: timedOut ? 124 : code, output: Buffer.concat(chunks).toString(), ms: Date.now() - started });
    };
    child.on('error', (error) => {
      chunks.push(Buffer.from(String(error)));
      if (!quiet) console.error(String(error));
      finish(127);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

/** npx-like: the project's own binary from node_modules/.bin. */
function bin(name) {
  return path.join(root, 'node_modules', '.bin', name);
}

/** Counts mocha's closing summary lines ("N passing", "N failing", "N pending") in output. */
function mochaCounts(output) {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const count = (word) => {
    let total = 0;
    for (const match of plain.matchAll(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'gm'))) total += Number(match[1]);
    return total;
  };
  return { passed: count('passing'), failed: count('failing'), pending: count('pending') };
}

module.exports = { root, runStep, bin, mochaCounts, ESCALATION_MS };
