// Several tables named in one run of the bundled command line. A source_id that a row of an earlier
// table already gave is no mistake in itself (two exports of one form give the same ids, on
// purpose), but imported after it, the row updates that spot: validate says so as a warning at the
// later row's source_id cell, naming the earlier row by its table as shown, row and line. Within
// one table a repeat stays an error. A table named twice is one table, as a document named twice
// is one document: its rows are neither counted twice nor reported as repeating themselves.
import * as assert from 'node:assert/strict';
import { jsonLines, runCli, scratch, useCliSandbox } from './helpers/cliProcess';

const MAPPING = JSON.stringify({ topic_id: 1, source_id: 'tree-{id}', latitude: 'lat', longitude: 'lon', fields: { fld_1_2: 'note' } });
// Row n of each table is on line n + 1 (one header line, no line breaks in cells).
const A_CSV = 'id;lat;lon;note\n1;48.2;16.37;a1\n2;48.3;16.38;a2\n3;48.4;16.39;a3\n';
// Row 3 repeats a.csv's row 2, row 5 a.csv's row 1; row 4 repeats nothing (6 is new), row 6 repeats b.csv's own row 1.
const B_CSV = 'id;lat;lon;note\n4;48.2;16.37;b1\n5;48.3;16.38;b2\n2;48.4;16.39;b3\n6;48.5;16.4;b4\n1;48.6;16.41;b5\n4;48.7;16.42;b6\n';

function tables(): ReturnType<typeof scratch> {
  return scratch({ 'a.csv': A_CSV, 'a.mapping.json': MAPPING, 'b.csv': B_CSV, 'b.mapping.json': MAPPING });
}

const repeated = (sourceId: string, earlier: string) =>
  `source_id "${sourceId}" is also the source_id of ${earlier}: both would update one spot, so this one is not imported.`;
const fromEarlierTable = (sourceId: string, table: string, row: number, line: number) =>
  `source_id "${sourceId}" is also the source_id of ${table} row ${row} (line ${line}): imported after that table, this row updates its spot.`;

describe('spot-import rows: a source_id across the tables of one run', function () {
  const cli = useCliSandbox();
  let folder: ReturnType<typeof scratch> | undefined;
  afterEach(() => {
    folder?.cleanup();
    folder = undefined;
  });

  it('validate a.csv b.csv: a row of b.csv that gives a source_id of a.csv gets a warning at its source_id cell naming the row of a.csv; a repeat within b.csv is an error', async () => {
    folder = tables();
    const result = await runCli(['validate', 'a.csv', 'b.csv'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      `b.csv:4:1: warning: ${fromEarlierTable('tree-2', 'a.csv', 2, 3)}`,
      `b.csv:6:1: warning: ${fromEarlierTable('tree-1', 'a.csv', 1, 2)}`,
      `b.csv:7:1: ${repeated('tree-4', 'b.csv row 1 (line 2)')}`,
    ]);
    assert.match(result.stderr, /^9 rows of 2 tables checked: 1 invalid, 8 valid\.$/m);
  });

  it('a row of an earlier table that is invalid gives its source_id to no spot: the later row with it is not warned of', async () => {
    folder = scratch({
      'a.csv': A_CSV.replace('1;48.2;', '1;148.2;'),
      'a.mapping.json': MAPPING,
      'c.csv': 'id;lat;lon;note\n1;48.6;16.41;c1\n',
      'c.mapping.json': MAPPING,
    });
    const result = await runCli(['validate', 'a.csv', 'c.csv'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 1, result.stdout);
    assert.match(lines[0], /^a\.csv:2:3: latitude 148\.2 is out of range/);
  });

  it('two exports of one form in two folders: every row of the later one is valid, each warned of naming the earlier table by its folder; exit 0', async () => {
    folder = scratch({ 'y2025/trees.csv': A_CSV, 'y2025/trees.mapping.json': MAPPING, 'y2026/trees.csv': A_CSV, 'y2026/trees.mapping.json': MAPPING });
    const result = await runCli(['validate', 'y2025/trees.csv', 'y2026/trees.csv', '--format', 'json'], { cwd: folder.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const warned = jsonLines(result.stdout).filter((record) => record.type === 'document' && (record.problems as unknown[] | undefined)?.length);
    assert.deepEqual(
      warned.map((record) => {
        const problems = record.problems as Array<{ line: number; column: number; rule: string; severity: string; message: string }>;
        return [record.file, record.status, problems.map((problem) => [problem.line, problem.column, problem.rule, problem.severity, problem.message])];
      }),
      [1, 2, 3].map((row) => [
        'y2026/trees.csv',
        'valid',
        [[row + 1, 1, 'spot.repeatedSourceId', 'warning', fromEarlierTable(`tree-${row}`, 'y2025/trees.csv', row, row + 1)]],
      ]),
    );
  });

  it('validate a.csv ./a.csv: the table is checked once, and said to be named twice; exit 0', async () => {
    folder = tables();
    const result = await runCli(['validate', 'a.csv', './a.csv'], { cwd: folder.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^a\.csv is named more than once: its rows are read once\.$/m);
    assert.match(result.stderr, /^3 rows of a\.csv checked: all valid\.$/m);
  });

  it('import a.csv a.csv: the table is imported once', async () => {
    folder = tables();
    const env = await cli.start();
    const result = await runCli(['import', 'a.csv', 'a.csv'], { cwd: folder.dir, env, timeoutMs: 30_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^a\.csv is named more than once: its rows are read once\.$/m);
    assert.match(result.stderr, /^3 rows of a\.csv imported\.$/m);
    assert.equal(cli.sandbox().spotCount(), 3);
  });

  it('import a.csv b.csv: refused before anything is sent (one table a run), so no run imports a source_id of two tables', async () => {
    folder = tables();
    const env = await cli.start();
    const result = await runCli(['import', 'a.csv', 'b.csv'], { cwd: folder.dir, env, timeoutMs: 30_000 });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /Import one table at a time/);
    assert.equal(cli.sandbox().spotCount(), 0);
  });
});
