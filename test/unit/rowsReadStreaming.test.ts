// Rows are read as they are asked for: a 100,000-row CSV of about 11 MB is read whole without
// memory growing with it, and what would make a reader hold the rest of a file (a quote never
// closed, a line without end) is reported instead.
import * as assert from 'node:assert/strict';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { MAX_ROW_CHARS, isRowReadProblem, openTable } from '../../src/core/rows';
import { positionOf, readAll, useTableFolder } from './helpers/tableFiles';
import { garbageCollector, heldBytes } from './helpers/heldMemory';

const ROWS = 100_000;

function observation(i: number): string {
  return `obs-${String(i).padStart(6, '0')},2024-05-01T10:15:00+02:00,Bufo bufo,47.${i % 10_000},11.${i % 777},"Teich, Ufer ${i}",Schilfgürtel am Nordufer,${i % 13}\n`;
}

describe('rows read: streaming', () => {
  const folder = useTableFolder('spot-rows-stream-');

  it('reads 100,000 rows of an 11 MB CSV one at a time: memory does not grow with the rows', async () => {
    // Written a thousand rows at a time, so the test holds no copy of the file either.
    const path = folder.write('large.csv', 'id,observed,species,lat,lon,place,habitat,count\n');
    const fd = openSync(path, 'a');
    for (let start = 1; start <= ROWS; start += 1000) {
      let chunk = '';
      for (let i = start; i < start + 1000; i++) chunk += observation(i);
      writeSync(fd, chunk);
    }
    closeSync(fd);
    const size = statSync(path).size;
    assert.ok(size > 10 * 1024 * 1024, `${size} bytes`);

    const gc = garbageCollector();
    const before = heldBytes(gc);
    const table = await openTable(path);
    let count = 0;
    let most = 0;
    let last;
    for await (const item of table.rows()) {
      assert.ok(!isRowReadProblem(item), JSON.stringify(item));
      count++;
      last = item;
      if (count % 10_000 === 0) most = Math.max(most, heldBytes(gc) - before);
    }
    assert.equal(count, ROWS);
    assert.deepEqual(last?.values, {
      id: 'obs-100000',
      observed: '2024-05-01T10:15:00+02:00',
      species: 'Bufo bufo',
      lat: '47.0',
      lon: '11.544',
      place: 'Teich, Ufer 100000',
      habitat: 'Schilfgürtel am Nordufer',
      count: '4',
    });
    assert.equal(last?.line, ROWS + 1);
    assert.deepEqual(last?.cells.place, { line: ROWS + 1, column: positionOf(observation(ROWS), '"Teich').column });
    assert.deepEqual(last?.cells.count, { line: ROWS + 1, column: positionOf(observation(ROWS), 'Nordufer,').column + 'Nordufer,'.length });
    // Holding the file's text alone would be 11 MB, its rows several times more.
    assert.ok(most < size / 2, `${(most / 1048576).toFixed(1)} MB held while ${(size / 1048576).toFixed(1)} MB were read`);
  });

  it(`stops at a quote never closed when the row grows past ${MAX_ROW_CHARS / 1048576} MiB, instead of holding the rest of the file`, async () => {
    let text = 'id,note\n1,"never closed\n';
    while (text.length < 2 * MAX_ROW_CHARS) text += 'row,after it\n'.repeat(1000);
    const { items } = await readAll(folder.write('open.csv', text));
    assert.equal(items.length, 1);
    const [problem] = items;
    assert.ok(isRowReadProblem(problem));
    assert.deepEqual([problem.line, problem.column, problem.row], [2, 3, 1]);
    assert.equal(problem.problem, 'row 1 is longer than 1 MiB: the quote at line 2, column 3 is never closed; no rows from here on are read');
  });

  it('reports an NDJSON line longer than a row may be, skips it, and reads the lines after it', async () => {
    const text = `{"a": 1}\n{"a": "${'x'.repeat(MAX_ROW_CHARS + 10)}"}\n{"a": 3}\n`;
    const { items } = await readAll(folder.write('long.ndjson', text));
    // Compared in parts: a failure must not print a megabyte.
    assert.equal(items.length, 3);
    assert.ok(isRowReadProblem(items[1]), 'the long line is a problem, not a row');
    assert.deepEqual(items[1], { problem: 'line 2 is longer than 1 MiB: it is not read', line: 2, column: 1, row: 2 });
    assert.ok(!isRowReadProblem(items[2]));
    assert.deepEqual([items[2].row, items[2].line, items[2].values], [3, 3, { a: 3 }]);
  });
});
