// The packaging step of `npm run package` (scripts/packageVsix.js) run for real, on a pseudo-terminal
// as a person runs it: vsce asks "Do you want to continue? [y/N]" on a terminal when package.json
// has no repository (this project has no public address, on purpose) unless it is told not to, and
// the .vsix carries the README and the changelog for users, one of each.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
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

  it('packages without a question and ships one README and one changelog for users, with no relative link', async () => {
    folder = scratch();
    const vsix = folder.path('spot-import.vsix');
    const command = `${JSON.stringify(process.execPath)} scripts/packageVsix.js ${JSON.stringify(vsix)}`;
    // script(1) gives the script a pseudo-terminal, where vsce would wait for an answer.
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn('script', ['-q', '-f', '-e', '-c', command, '/dev/null'], { cwd: ROOT, env: cleanEnv({ TERM: 'xterm' }), stdio: ['pipe', 'pipe', 'pipe'] });
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
  });
});
