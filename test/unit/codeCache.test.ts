// Loading a bundle through V8's code cache (src/extension/platform/codeCache.ts): each load runs in a child
// process of its own, a fresh V8 as a new window's extension host is, and every way the cache can
// be missing, stale, damaged or unwritable still loads the bundle as require() would.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheFileOf, requireWithCodeCache } from '../../src/extension/platform/codeCache';

const LOADER = join(__dirname, '..', '..', 'src', 'extension', 'platform', 'codeCache.js');

/** A bundle-like CommonJS file: a require of a built-in, functions to compile, a value that tells versions apart. */
function bundleText(version: string): string {
  return (
    `const { createHash } = require('crypto');\nconst { sum } = require('./dep.js');\n` +
    `function digest(text) { return createHash('sha256').update(text).digest('hex').slice(0, 8); }\n` +
    `exports.version = '${version}';\nexports.digest = digest;\nexports.sum = sum;\nexports.file = __filename;\nexports.loadedWhileRunning = module.loaded;\n`
  );
}

/** Loads the bundle in a fresh process, uses it, saves the cache; says what happened. */
function loadInChild(bundle: string): { status: string; version: string; digest: string; saved: boolean } {
  const script = `
    const { requireWithCodeCache } = require(${JSON.stringify(LOADER)});
    const loaded = requireWithCodeCache(${JSON.stringify(bundle)});
    const digest = loaded.exports.digest('spot') + ':' + loaded.exports.sum([1, 2, 3]);
    loaded.save().then((saved) => console.log(JSON.stringify({ status: loaded.status, version: loaded.exports.version, digest, saved })));
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
    status: string;
    version: string;
    digest: string;
    saved: boolean;
  };
}

/** prepareCodeCache(bundle, warmUp) in a fresh process (kept alive until it answers: its worker does not keep a process alive). */
function prepareInChild(bundle: string, warmUp?: string): string {
  const script = `
    const { prepareCodeCache } = require(${JSON.stringify(LOADER)});
    const alive = setInterval(() => {}, 1000);
    prepareCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(warmUp)}).then((outcome) => { clearInterval(alive); console.log(JSON.stringify(outcome)); });
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000 })) as string;
}

const headerOf = (bundle: string) =>
  JSON.parse(
    readFileSync(cacheFileOf(bundle))
      .subarray(0, readFileSync(cacheFileOf(bundle)).indexOf(0x0a))
      .toString('utf8'),
  ) as { partial?: boolean };

describe("code cache: a bundle loaded through V8's code cache", () => {
  let dir: string;
  let bundle: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spot-code-cache-'));
    bundle = join(dir, 'core.js');
    writeFileSync(bundle, bundleText('one'));
    // Found as require() would: beside the bundle.
    writeFileSync(join(dir, 'dep.js'), 'exports.sum = (values) => values.reduce((a, b) => a + b, 0);\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles the first time and saves; the next process starts from the cache, with the same results', () => {
    const first = loadInChild(bundle);
    assert.deepEqual({ status: first.status, saved: first.saved, version: first.version }, { status: 'none', saved: true, version: 'one' });
    assert.ok(existsSync(cacheFileOf(bundle)));
    const second = loadInChild(bundle);
    assert.deepEqual(second, { ...first, status: 'used', saved: false });
    assert.deepEqual(readdirSync(dir).sort(), ['core.js', 'core.js.v8cache', 'dep.js'], 'no temporary file is left');
  });

  it("removes the temporary files an interrupted save left over an hour ago when it saves, and leaves a newer one (another window's save under way)", () => {
    const stale = join(dir, '.core.js.v8cache.4242.0a1b2c3d.tmp');
    const fresh = join(dir, '.core.js.v8cache.4343.0a1b2c3e.tmp');
    const other = join(dir, '.dep.js.4242.0a1b2c3d.tmp');
    for (const file of [stale, fresh, other]) writeFileSync(file, '');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (const file of [stale, other]) utimesSync(file, twoHoursAgo, twoHoursAgo);
    assert.equal(loadInChild(bundle).saved, true);
    assert.deepEqual(readdirSync(dir).sort(), ['.core.js.v8cache.4343.0a1b2c3e.tmp', '.dep.js.4242.0a1b2c3d.tmp', 'core.js', 'core.js.v8cache', 'dep.js']);
  });

  it('ignores the cache of a bundle that changed, even to the same length, and replaces it', () => {
    loadInChild(bundle);
    const changed = bundleText('two');
    assert.equal(changed.length, bundleText('one').length);
    writeFileSync(bundle, changed);
    const stale = loadInChild(bundle);
    assert.deepEqual({ status: stale.status, version: stale.version, saved: stale.saved }, { status: 'none', version: 'two', saved: true });
    assert.equal(loadInChild(bundle).status, 'used');
  });

  it('never hands a damaged cache to V8: the bundle is compiled, and the cache written anew', () => {
    loadInChild(bundle);
    const cache = readFileSync(cacheFileOf(bundle));
    cache[cache.length - 10] ^= 0xff;
    writeFileSync(cacheFileOf(bundle), cache);
    const damaged = loadInChild(bundle);
    assert.deepEqual({ status: damaged.status, version: damaged.version, saved: damaged.saved }, { status: 'rejected', version: 'one', saved: true });
    assert.equal(loadInChild(bundle).status, 'used');
    writeFileSync(cacheFileOf(bundle), 'not a cache at all');
    assert.equal(loadInChild(bundle).status, 'none');
  });

  it('loads all the same where the cache cannot be written, and leaves nothing behind', () => {
    // A folder where the cache file would go: the rename over it fails.
    mkdirSync(join(cacheFileOf(bundle), 'inside'), { recursive: true });
    const loaded = loadInChild(bundle);
    assert.deepEqual({ status: loaded.status, version: loaded.version, saved: loaded.saved }, { status: 'none', version: 'one', saved: false });
    assert.deepEqual(readdirSync(dir).sort(), ['core.js', 'core.js.v8cache', 'dep.js']);
  });

  it('is the module require() gives for that file afterwards, in the same process, run as Node runs a CommonJS file', () => {
    const loaded = requireWithCodeCache<{ version: string; file: string; loadedWhileRunning: boolean }>(bundle);
    try {
      assert.equal(require(bundle), loaded.exports);
      assert.equal(loaded.exports.file, bundle);
      assert.equal(loaded.exports.loadedWhileRunning, false);
      assert.equal(require.cache[bundle]?.loaded, true);
    } finally {
      delete require.cache[bundle];
    }
  });

  it('takes a bundle require() loaded first as it is, and saves no cache of a script that did not run', async () => {
    const required = require(bundle) as unknown;
    try {
      const loaded = requireWithCodeCache(bundle);
      assert.equal(loaded.exports, required);
      assert.equal(loaded.status, 'none');
      assert.equal(await loaded.save(), false);
      assert.ok(!existsSync(cacheFileOf(bundle)));
    } finally {
      delete require.cache[bundle];
    }
  });

  it("is built ahead of time in a worker thread, taken by the next process, and replaced once after that one's first use", () => {
    // The warm-up runs what it is given on the bundle's exports, as lazyCore's does.
    assert.equal(prepareInChild(bundle, '(exports) => exports.digest("warm-up")'), 'built');
    assert.equal(headerOf(bundle).partial, true);
    assert.deepEqual(readdirSync(dir).sort(), ['core.js', 'core.js.v8cache', 'dep.js'], 'no temporary file is left');
    const first = loadInChild(bundle);
    assert.deepEqual({ status: first.status, saved: first.saved, version: first.version }, { status: 'used', saved: true, version: 'one' });
    assert.equal(headerOf(bundle).partial, undefined, 'replaced by a whole one');
    const second = loadInChild(bundle);
    assert.deepEqual({ status: second.status, saved: second.saved }, { status: 'used', saved: false });
  });

  it('builds nothing when a cache of this bundle is there, whole or partial, and builds anew for a changed bundle', () => {
    assert.equal(prepareInChild(bundle), 'built');
    assert.equal(prepareInChild(bundle), 'present');
    loadInChild(bundle);
    assert.equal(prepareInChild(bundle), 'present');
    writeFileSync(bundle, bundleText('two'));
    assert.equal(prepareInChild(bundle), 'built');
    const loaded = loadInChild(bundle);
    assert.deepEqual({ status: loaded.status, version: loaded.version }, { status: 'used', version: 'two' });
  });

  it('still gives a cache when the warm-up fails, and says failed, leaving nothing, for a bundle that does not load', () => {
    assert.equal(prepareInChild(bundle, '() => { throw new Error("warm-up failed") }'), 'built');
    assert.equal(loadInChild(bundle).status, 'used');
    const broken = join(dir, 'broken.js');
    writeFileSync(broken, 'throw new Error("does not load");\n');
    assert.equal(prepareInChild(broken), 'failed');
    assert.ok(!existsSync(cacheFileOf(broken)));
  });
});
