// Where the command line keeps its journal: one per project however deep in it the command runs,
// and one per service however its address is spelt. A run from the project's folder and one from
// a folder inside it, or one given the address with a trailing slash, each kept a journal of their
// own and their own run lock: run at the same time they both uploaded every photo (the review of
// 2026-12-03 found 52 media for 26 photos). Here the second run, one after the other, must find the
// first run's journal: "already imported", nothing sent, no upload.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_CLIENT } from '../../src/sandbox/types';
import { runCli, sandboxEnv, scratch, spotText, useCliSandbox } from './helpers/cliProcess';

describe('spot-import import: one journal per project and service', function () {
  this.timeout(60_000);
  const cli = useCliSandbox();
  let folder: ReturnType<typeof scratch>;
  afterEach(() => folder?.cleanup());

  const project = () =>
    scratch({
      'spots/walk.spot.json': spotText('walk', { fld_1_5: null }),
      'spots/walk.media/fld_1_5/1.jpg': 'jpeg one',
      'spots/walk.media/fld_1_5/2.jpg': 'jpeg two',
    });

  async function importTwice(first: { cwd: string; env: Record<string, string> }, second: { cwd: string; env: Record<string, string>; path: string }) {
    const one = await runCli(['import', 'spots'], first);
    assert.equal(one.code, 0, one.stderr);
    const media = cli.sandbox().counters.uploads;
    const two = await runCli(['import', second.path], second);
    assert.equal(two.code, 0, two.stderr);
    assert.match(two.stdout, /already imported "walk"/, two.stdout + two.stderr);
    assert.equal(cli.sandbox().counters.uploads, media, 'no photo sent again');
  }

  it('a run from a folder inside a repository uses the journal at its top (.git), as a run from the top did', async () => {
    const env = await cli.start();
    folder = project();
    mkdirSync(folder.path('.git'));
    await importTwice({ cwd: folder.dir, env }, { cwd: folder.path('spots'), env, path: '.' });
    assert.equal(existsSync(join(folder.path('spots'), '.spot-import')), false, 'no second journal in the folder inside');
  });

  it('a run from a folder below spot-import.json uses the journal beside it', async () => {
    await cli.start();
    folder = project();
    folder.write('spot-import.json', JSON.stringify({ baseUrl: cli.sandbox().baseUrl, clientId: DEMO_CLIENT.clientId }));
    const env = { SPOT_CLIENT_SECRET: DEMO_CLIENT.clientSecret };
    await importTwice({ cwd: folder.dir, env }, { cwd: folder.path('spots'), env, path: '.' });
    assert.equal(existsSync(join(folder.path('spots'), '.spot-import')), false, 'no second journal in the folder inside');
  });

  it('the service address with a trailing slash or in capitals is the same service', async () => {
    const env = await cli.start();
    folder = project();
    const { baseUrl } = cli.sandbox();
    await importTwice({ cwd: folder.dir, env }, { cwd: folder.dir, env: sandboxEnv(`${baseUrl.replace('http://', 'HTTP://')}/`), path: 'spots' });
  });

  it('a repository below the folder of spot-import.json keeps its own journal at its top (the nearer wins)', async () => {
    await cli.start();
    folder = project();
    // The settings file one level up, as in a home folder; the repository is the folder the documents are in.
    folder.write('spot-import.json', JSON.stringify({ baseUrl: cli.sandbox().baseUrl, clientId: DEMO_CLIENT.clientId }));
    mkdirSync(folder.path('spots/.git'));
    const env = { SPOT_CLIENT_SECRET: DEMO_CLIENT.clientSecret };
    const run = await runCli(['import', '.'], { cwd: folder.path('spots'), env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(join(folder.path('spots'), '.spot-import')), true, 'the journal at the top of the repository');
    assert.equal(existsSync(join(folder.dir, '.spot-import')), false, 'not beside the settings file above it');
  });
});
