#!/usr/bin/env node
// Makes sure the Debian packages the VS Code test harness needs are present.
// As root it installs what is missing with apt-get (after an update); otherwise it stops with a
// message naming the packages, so a fresh machine either gets fixed or says exactly what to do.
//
// Usage: node scripts/ensureSystemDeps.js [browser] [build] [tools]   (no argument = all)
//   browser: chromium-headless-shell (headless workbench for the integration and e2e tests)
//   build:   libkrb5-dev, g++, make, python3 (code-server's native `kerberos` module)
//   tools:   openssl (test certificates for the https tests), bsdutils (`script`: the command
//            line's terminal tests)
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const CHECKS = {
  browser: [{ pkg: 'chromium-headless-shell', present: () => fs.existsSync('/usr/bin/chromium-headless-shell') }],
  build: [
    { pkg: 'libkrb5-dev', present: () => fs.existsSync('/usr/include/gssapi/gssapi.h') || onPath('krb5-config') },
    { pkg: 'g++', present: () => onPath('g++') },
    { pkg: 'make', present: () => onPath('make') },
    { pkg: 'python3', present: () => onPath('python3') },
  ],
  tools: [
    { pkg: 'openssl', present: () => onPath('openssl') },
    { pkg: 'bsdutils', present: () => onPath('script') },
  ],
};

/** Whether an executable named `command` is in one of PATH's folders (no shell involved). */
function onPath(command, envPath = process.env.PATH ?? '') {
  return envPath
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        const file = path.join(dir, command);
        fs.accessSync(file, fs.constants.X_OK);
        return fs.statSync(file).isFile();
      } catch {
        return false;
      }
    });
}

function missingPackages(groups) {
  const wanted = groups.length ? groups : Object.keys(CHECKS);
  const missing = [];
  for (const group of wanted) {
    const checks = CHECKS[group];
    if (!checks) throw new Error(`unknown group "${group}" (use ${Object.keys(CHECKS).join(', ')})`);
    for (const check of checks) if (!check.present() && !missing.includes(check.pkg)) missing.push(check.pkg);
  }
  return missing;
}

function run(command, args) {
  console.log(`[system-deps] ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 10 * 60 * 1000,
  });
  if (result.status !== 0) throw new Error(`${command} ${args[0]} failed (exit ${result.status ?? result.signal})`);
}

/** Installs (as root) or reports missing packages. Returns normally when everything is present. */
function ensureSystemDeps(groups = []) {
  const missing = missingPackages(groups);
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) {
    const list = missing.join(' ');
    throw new Error(`Missing Debian package(s): ${list}. Install them with: sudo apt-get update && sudo apt-get install -y ${list}`);
  }
  console.log(`[system-deps] installing missing Debian package(s): ${missing.join(', ')}`);
  run('apt-get', ['update']);
  run('apt-get', ['install', '-y', '--no-install-recommends', ...missing]);
  const still = missingPackages(groups);
  if (still.length) throw new Error(`Still missing after apt-get install: ${still.join(', ')}`);
  console.log(`[system-deps] installed ${missing.join(', ')}`);
}

module.exports = { ensureSystemDeps, missingPackages, onPath };

if (require.main === module) {
  try {
    ensureSystemDeps(process.argv.slice(2));
  } catch (error) {
    console.error(`[system-deps] ${error.message}`);
    process.exit(1);
  }
}
