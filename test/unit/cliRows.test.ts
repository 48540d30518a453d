// spot-import import trees.csv, run as a real child process against the sandbox over loopback:
// every row's outcome names the table as the command line names files (relative to the folder it
// runs in, else the whole path), with its row and line, and a row that breaks a rule is reported
// at its cell and not sent.
import * as assert from 'node:assert/strict';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { ensureCliBuilt, jsonLines, runCli, sandboxEnv, scratch } from './helpers/cliProcess';

describe('spot-import import of a table', function () {
  let sandbox: RunningSandbox | undefined;
  let folder: ReturnType<typeof scratch> | undefined;
  let elsewhere: ReturnType<typeof scratch> | undefined;
  before(() => ensureCliBuilt());
  afterEach(async () => {
    await sandbox?.close();
    folder?.cleanup();
    elsewhere?.cleanup();
    sandbox = folder = elsewhere = undefined;
  });

  const mapping = JSON.stringify({ topic_id: 1, source_id: 'tree-{id}', latitude: 'lat', longitude: 'lon', fields: { fld_1_2: 'note' } });
  // Row 2 (line 3) has a latitude that is not a number: its cell starts at column 3.
  const csv = 'id,lat,lon,note\n1,48.2,16.37,a\n2,north,16.37,b\n3,48.3,16.38,c\n';

  it('names each row by the table as given relative to the folder it runs in, or by its whole path outside it', async () => {
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
    folder = scratch({ 'trees.csv': csv, 'trees.mapping.json': mapping });
    elsewhere = scratch();
    for (const [cwd, table, named] of [
      [folder.dir, 'trees.csv', 'trees.csv'],
      [elsewhere.dir, folder.path('trees.csv'), folder.path('trees.csv')],
    ]) {
      const result = await runCli(['import', table, '--format', 'json'], { cwd, env: sandboxEnv(sandbox.baseUrl), timeoutMs: 30_000 });
      const spots = jsonLines(result.stdout).filter((record) => record.type === 'spot');
      // Rows finish in any order (several are in flight at once).
      spots.sort((a, b) => Number(a.row) - Number(b.row));
      assert.deepEqual(
        spots.map((record) => [record.file, record.row, record.line, record.status === 'failed' ? 'failed' : 'sent']),
        [
          [named, 1, 2, 'sent'],
          [named, 2, 3, 'failed'],
          [named, 3, 4, 'sent'],
        ],
        result.stderr,
      );
      const failed = spots.find((record) => record.status === 'failed')!;
      const problems = failed.problems as Array<{ line: number; column: number; pointer: string; rule: string }>;
      assert.deepEqual(
        problems.filter((problem) => problem.rule === 'row.coordinates').map((problem) => [problem.line, problem.column, problem.pointer]),
        [[3, 3, '/data/attributes/latitude']],
      );
      assert.equal(result.code, 1, result.stderr);
    }
    assert.equal(sandbox.spotCount(), 2);
    assert.equal(sandbox.spotBySourceId('tree-2'), undefined);
  });
});
