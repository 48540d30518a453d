// The shipped command line: `npm pack` makes a tarball whose dist/cli.js needs nothing else, so
// `npm install -g` of it into an empty prefix (offline: there is nothing to fetch) gives a working
// `spot-import` that resolves no module outside the package.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, cleanEnv, ensureCliBuilt, scratch, spotText } from './helpers/cliProcess';

const run = promisify(execFile);

describe('spot-import package', function () {
  this.timeout(120_000);
  let folder: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  afterEach(() => folder?.cleanup());

  it('npm pack → npm install -g into an empty prefix → spot-import runs', async () => {
    folder = scratch({ 'work/walk.spot.json': spotText('packed'), 'work/bad.spot.json': spotText('bad', { latitude: 'x' }) });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const env = cleanEnv({ npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });
    // --ignore-scripts: pack the bundle this test run built, rather than rebuilding every bundle.
    await run(npm, ['pack', '--ignore-scripts', '--pack-destination', folder.dir], { cwd: ROOT, env });
    const tarball = readdirSync(folder.dir).find((name) => name.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote a tarball');
    const { stdout: listing } = await run('tar', ['-tzf', join(folder.dir, tarball)]);
    assert.deepEqual(listing.trim().split('\n').sort(), ['package/LICENSE', 'package/README.md', 'package/dist/cli.js', 'package/package.json']);

    const prefix = join(folder.dir, 'prefix');
    await run(npm, ['install', '--global', '--offline', '--prefix', prefix, join(folder.dir, tarball)], { cwd: folder.dir, env });
    assert.ok(!existsSync(join(prefix, 'lib', 'node_modules', 'spot-import', 'node_modules')), 'no dependency was installed: the bundle holds them');
    const bin = join(prefix, 'bin', 'spot-import');
    const version = await run(bin, ['--version'], { cwd: folder.dir, env });
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    const validate = await run(bin, ['validate', 'work'], { cwd: folder.dir, env }).then(
      () => assert.fail('an invalid document must exit 1'),
      (error: { code: number; stdout: string }) => error,
    );
    assert.equal(validate.code, 1);
    assert.equal(validate.stdout, 'work/bad.spot.json:7:19: latitude must be a number.\n');
  });
});
