// The packaging step of `npm run package` (scripts/packageVsix.js) run for real, on a pseudo-terminal
// as a person runs it: vsce asks "Do you want to continue? [y/N]" on a terminal when package.json
// has no repository (this project has no public address, on purpose) unless it is told not to, and
// the .vsix carries the README and the changelog for users, one of each.
import * as assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, cleanEnv, ensureCliBuilt, scratch } from './helpers/cliProcess';
import { zipEntries } from './helpers/zipEntries';

/** A relative link or picture: one that leads nowhere on the extension's Details and Changelog tabs. */
const RELATIVE_LINK = /\]\((?!data:|https?:|#)[^)]+\)/;

describe('npm run package on a terminal (scripts/packageVsix.js)', function () {
  this.timeout(120_000);
  let folder: ReturnType<typeof scratch>;
  // The bundles the .vsix ships (esbuild builds them all at once; the production build of
  // `npm run package` is no different in what the .vsix holds).
  before(() => ensureCliBuilt());
  afterEach(() => folder?.cleanup());

  it('packages without a question and ships one README and one changelog for users, with no relative link, and the core with its HTTP parser', async () => {
    folder = scratch();
    const vsix = folder.path('spot-import.vsix');
    const command = `${JSON.stringify(process.execPath)} scripts/packageVsix.js ${JSON.stringify(vsix)}`;
    // script(1) gives the script a pseudo-terminal, where vsce would wait for an answer.
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn('script', ['-q', '-f', '-e', '-c', command, '/dev/null'], {
        cwd: ROOT,
        env: cleanEnv({ TERM: 'xterm' }),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      const stop = (why: string) => {
        clearTimeout(timer);
        child.kill('SIGTERM');
        reject(new Error(`${why}; output: ${output}`));
      };
      const timer = setTimeout(() => stop('packaging did not finish within 90 s'), 90_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/continue\? \[y\/N\]/.test(output)) stop('packaging stopped at a question');
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
    assert.equal(run.code, 0, run.output);
    assert.doesNotMatch(run.output, /repository' field is missing/, 'no warning about the missing repository');

    const entries = zipEntries(vsix);
    const named = (pattern: RegExp) => entries.filter((entry) => pattern.test(entry.name));
    const readmes = named(/^extension\/readme\.md$/i);
    const changelogs = named(/^extension\/changelog\.md$/i);
    assert.equal(readmes.length, 1, entries.map((entry) => entry.name).join(', '));
    assert.equal(changelogs.length, 1, `one changelog: ${entries.map((entry) => entry.name).join(', ')}`);
    const readme = readmes[0].contents.toString('utf8');
    const changelog = changelogs[0].contents.toString('utf8');
    assert.doesNotMatch(readme, RELATIVE_LINK);
    assert.doesNotMatch(readme, /repository-only/);
    assert.match(changelog, /^# Changelog/);
    const relative = RELATIVE_LINK.exec(changelog);
    assert.equal(relative, null, `a relative link in the shipped changelog: ${relative?.[0]}`);
    assert.match(changelog, /`docs\/cli\.md`/, 'a relative link becomes its plain path');
    assert.match(changelog, /\[Keep a Changelog\]\(https:\/\/keepachangelog\.com\/en\/1\.1\.0\/\)/, 'a web link stays');

    // dist/core.js reads undici's HTTP parser (WebAssembly) from the file beside it on its first
    // connection (esbuild.js, llhttpWasmFile), so the .vsix must carry it: the shipped core, alone
    // in a folder as the .vsix has it, makes a request (a token, from a server on this machine).
    const wasm = named(/^extension\/dist\/llhttp\.wasm$/);
    assert.equal(wasm.length, 1, `dist/llhttp.wasm ships: ${entries.map((entry) => entry.name).join(', ')}`);
    assert.deepEqual([...wasm[0].contents.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d], 'dist/llhttp.wasm is WebAssembly');
    for (const entry of named(/^extension\/dist\/(core\.js|llhttp\.wasm)$/)) {
      const file = folder.path(entry.name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, entry.contents);
    }
    const script = `
      const server = require('node:http').createServer((request, reply) => {
        request.resume().on('end', () => reply.setHeader('content-type', 'application/json').end(JSON.stringify({ access_token: 'shipped', token_type: 'Bearer', expires_in: 60 })));
      });
      server.listen(0, '127.0.0.1', async () => {
        const core = require(${JSON.stringify(folder.path('extension/dist/core.js'))});
        const dispatcher = core.createDispatcher();
        const tokens = new core.TokenSource({ tokenUrl: 'http://127.0.0.1:' + server.address().port + '/token', clientId: 'a', clientSecret: 'b', dispatcher });
        try {
          console.log((await tokens.getToken()).value);
        } finally {
          await dispatcher.close();
          server.close();
        }
      });
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { timeout: 20_000 });
    assert.equal(stdout.trim(), 'shipped');
  });
});

// Libraries the .vsix's bundles carry cut down at build time (esbuild.js) must answer as the whole
// libraries do wherever the extension can ask them: mime-db as a text table (dist/core.js), and
// proj4 without the datums only WKT names (dist/rows.js). The bundles are the ones in dist/.
describe("the bundles' cut-down libraries answer as the whole ones (esbuild.js)", () => {
  before(() => ensureCliBuilt());

  it("mime-types over the bundle's mime-db table: every extension's type and every type's extension", () => {
    const core = require(join(ROOT, 'dist', 'core.js')) as typeof import('../../src/core/files/mimeType');
    const mime = require('mime-types') as {
      types: Record<string, string>;
      extensions: Record<string, string[]>;
      lookup(path: string): string | false;
      extension(type: string): string | false;
    };
    const extensions = Object.keys(mime.types);
    assert.ok(extensions.length > 1000, `${extensions.length} extensions`);
    for (const extension of extensions) assert.equal(core.mimeTypeOf(`photo.${extension.toUpperCase()}`), mime.lookup(`photo.${extension}`), extension);
    for (const type of Object.keys(mime.extensions)) assert.equal(core.extensionOf(type), mime.extension(type) || undefined, type);
    assert.equal(core.mimeTypeOf('notes.unknownext'), undefined);
  });

  it('proj4 strings naming a datum (+datum=, by its short or its long name) transform as the whole library transforms them', () => {
    require(join(ROOT, 'dist', 'core.js'));
    const bundled = require(join(ROOT, 'dist', 'rows.js')) as typeof import('../../src/core/rows');
    const whole = require('../../src/core/rows') as typeof import('../../src/core/rows');
    // proj4's named datums (PROJ's own among them), and some by their long names.
    const datums = [
      'wgs84',
      'ch1903',
      'ggrs87',
      'nad83',
      'potsdam',
      'carthage',
      'hermannskogel',
      'mgi',
      'osni52',
      'ire65',
      'rassadiran',
      'nzgd49',
      'osgb36',
      's_jtsk',
      'beduaram',
      'gunung_segara',
      'rnb72',
    ];
    const longNames = ['Militar-Geographische_Institut', 'Potsdam_Rauenberg_1950_DHDN', 'Reseau_National_Belge_1972'];
    const plain = bundled.toWgs84(500_000, 5_300_000, { proj4: '+proj=utm +zone=33 +ellps=bessel +units=m +no_defs' });
    for (const datum of [...datums, ...longNames]) {
      const spec = { proj4: `+proj=utm +zone=33 +datum=${datum} +units=m +no_defs` };
      const lean = bundled.toWgs84(500_000, 5_300_000, spec);
      assert.ok(!('problem' in lean), `${datum}: ${'problem' in lean ? lean.problem : ''}`);
      assert.deepEqual(lean, whole.toWgs84(500_000, 5_300_000, spec), datum);
      if (datum === 'hermannskogel') assert.notDeepEqual(lean, plain, 'the datum shift is applied');
    }
  });
});
