// Runs commands as steps: each in its own process group (stopped on Ctrl-C or SIGTERM), output
// streamed through (and kept, so mocha's closing summary can be read), with a time limit.
const { spawn } = require('child_process');
const path = require('path');

const root = path.resolve(__dirname, '..', '..');
const running = new Set();
let hooked = false;

function hookSignals() {
  if (hooked) return;
  hooked = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      for (const child of running) killGroup(child, 'SIGTERM');
      // Give the children's own cleanup (servers, browsers) a moment, then make sure.
      setTimeout(() => {
        for (const child of running) killGroup(child, 'SIGKILL');
        process.exit(130);
      }, 8000).unref();
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
 * for a non-zero exit (the caller decides). timeoutMs kills the whole group.
 */
function runStep(command, args, { env = {}, timeoutMs = 30 * 60 * 1000, quiet = false, cwd = root } = {}) {
  hookSignals();
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['inherit', 'pipe', 'pipe'],
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
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`\n[steps] ${command} ${args.join(' ')}: time limit of ${Math.round(timeoutMs / 1000)} s reached; stopping it`);
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
    }, timeoutMs);
    const finish = (code) => {
      clearTimeout(timer);
      running.delete(child);
      killGroup(child, 'SIGKILL'); // stragglers left in the group
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

module.exports = { root, runStep, bin, mochaCounts };
