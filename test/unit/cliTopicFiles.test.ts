// The command line and the files of its topics folder, as a real child process: a definition that
// is a link applies; a link to nothing, a file of 600 MB or a folder of thousands read with few
// file descriptors never stops the run: each file that cannot be read is said on its own path
// (exit 1), the other definitions still apply, and no advice about "topicsFolder" is given when no
// setting named the folder.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { symlinkSync, truncateSync } from 'node:fs';
import { CLI, cleanEnv, ensureCliBuilt, runCli, scratch } from './helpers/cliProcess';

/** Topic 7 requires fld_7_1; the document below leaves it out. */
const SEVEN = JSON.stringify({ topic_id: 7, fields: { fld_7_1: { label: 'S', type: 'number', required: true } } });
const DOCUMENT = JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 7, source_id: 'a', latitude: 47, longitude: 11, state: 1 } } });
const REQUIRED = /^spots\/a\.spot\.json:1:\d+: S \(fld_7_1\) is required by topic 7\.$/m;

describe('spot-import and the files of its topics folder', function () {
  let folder: ReturnType<typeof scratch> | undefined;
  before(() => ensureCliBuilt());
  afterEach(() => {
    folder?.cleanup();
    folder = undefined;
  });

  it('a definition that is a link applies; a link to nothing is said on its own path', async () => {
    folder = scratch({ 'shared/seven.topic.json': SEVEN, 'spots/a.spot.json': DOCUMENT });
    folder.write('spot-topics/8.topic.json', JSON.stringify({ topic_id: 8, fields: {} }));
    symlinkSync('../shared/seven.topic.json', folder.path('spot-topics/seven.topic.json'));
    symlinkSync('../nowhere.topic.json', folder.path('spot-topics/gone.topic.json'));
    const result = await runCli(['validate', 'spots'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, REQUIRED);
    assert.match(
      result.stdout,
      /^spot-topics\/gone\.topic\.json:1:1: Could not read the file: it is a link to \.\.\/nowhere\.topic\.json, which does not exist$/m,
    );
  });

  it('a file of 600 MB is said on its own path, unread; the other definitions apply', async () => {
    folder = scratch({ 'spot-topics/7.topic.json': SEVEN, 'spots/a.spot.json': DOCUMENT });
    truncateSync(folder.write('spot-topics/giant.topic.json', ''), 600 * 1024 * 1024);
    const result = await runCli(['validate', 'spots'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, REQUIRED);
    assert.match(
      result.stdout,
      /^spot-topics\/giant\.topic\.json:1:1: Could not read the file: it is 600 MiB, larger than a topic definition can be \(\d+ MiB\)$/m,
    );
    assert.doesNotMatch(result.stderr, /topicsFolder/);
  });

  it('a folder of 600 definitions is read with 64 file descriptors', () => {
    folder = scratch({ 'spots/a.spot.json': DOCUMENT, 'spot-topics/7.topic.json': SEVEN });
    for (let topic = 100; topic < 700; topic++) folder.write(`spot-topics/${topic}.topic.json`, JSON.stringify({ topic_id: topic, fields: {} }));
    const result = spawnSync('sh', ['-c', `ulimit -n 64 && exec "${process.execPath}" "${CLI}" validate spots`], {
      cwd: folder.dir,
      env: cleanEnv(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stdout, REQUIRED);
  });
});
