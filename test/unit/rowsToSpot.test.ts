// A row as the spot document it stands for (rowToSpot): the text, where each attribute came from
// (its JSON pointer → cell) and each problem's pointer and cell, the same for every row of a table.
import * as assert from 'node:assert/strict';
import { resolveMapping, rowToSpot, type Mapping, type SourceRow } from '../../src/core/rows';

const COLUMNS = ['id', 'lat', 'lon', 'note'];

function row(index: number, values: Record<string, string>): SourceRow {
  const line = index + 1;
  const cells = Object.fromEntries(COLUMNS.map((column, i) => [column, { line, column: 1 + i * 10 }]));
  return { row: index, line, values, cells };
}

describe('rows to spots: pointers and cells', () => {
  // A field whose name needs escaping in a JSON pointer: "~" is "~0", "/" is "~1".
  const mapping: Mapping = { topic_id: 1, source_id: 'tree-{id}', latitude: 'lat', longitude: 'lon', fields: { 'x~y/z': 'note' } };
  const resolved = resolveMapping(mapping, '/tables/trees.mapping.json', { columns: COLUMNS });

  it('names every attribute by its pointer, at its cell, row after row', async () => {
    for (let index = 1; index <= 3; index++) {
      const spot = await rowToSpot(row(index, { id: String(index), lat: '48.2', lon: '16.37', note: `n${index}` }), resolved);
      assert.deepEqual(spot.problems, []);
      const line = index + 1;
      // topic_id is the mapping's number, from no cell: it has none (a hover on the first cell says source_id only).
      assert.deepEqual(
        [...spot.cells],
        [
          ['/data/attributes/source_id', { line, column: 1 }],
          ['/data/attributes/latitude', { line, column: 11 }],
          ['/data/attributes/longitude', { line, column: 21 }],
          ['/data/attributes/x~0y~1z', { line, column: 31 }],
        ],
      );
      assert.deepEqual(JSON.parse(spot.text), {
        data: { type: 'spots', attributes: { topic_id: 1, source_id: `tree-${index}`, latitude: 48.2, longitude: 16.37, 'x~y/z': `n${index}` } },
      });
    }
  });

  it('fills a source_id template of several columns and text, row after row, and names the first empty column', async () => {
    const template = resolveMapping({ ...mapping, source_id: '{note}/x-{id}{note}.{lat}' }, '/tables/trees.mapping.json', { columns: COLUMNS });
    for (let index = 1; index <= 2; index++) {
      const spot = await rowToSpot(row(index, { id: ` ${index} `, lat: '48.2', lon: '16.37', note: `n${index}` }), template);
      assert.equal(spot.sourceId, `n${index}/x-${index}n${index}.48.2`);
      // Placed at the template's first column.
      assert.deepEqual(spot.cells.get('/data/attributes/source_id'), { line: index + 1, column: 31 });
    }
    const empty = await rowToSpot(row(3, { id: '', lat: '', lon: '16.37', note: 'n' }), template);
    assert.equal(empty.sourceId, undefined);
    const problem = empty.problems.find((found) => found.rule === 'row.sourceId');
    assert.equal(problem?.message, 'source_id is empty: the column "id" of its template {note}/x-{id}{note}.{lat} has no value in this row.');
    assert.deepEqual(problem?.at, { line: 4, column: 1 });
  });

  it('sends degrees as the cells write them', async () => {
    const spot = await rowToSpot(row(1, { id: '1', lat: '-59.0085279', lon: '-177.3763153', note: '' }), resolved);
    assert.match(spot.text, /"latitude": -59\.0085279,\n\s*"longitude": -177\.3763153\n/);
  });

  it('sends degrees, minutes and seconds as the degrees they are, without binary noise', async () => {
    // By hand: 47 + 4/60 + 16.3/3600 = 47.07119444… (47.0711944444 to ten decimals); 15 + 26/60 + 22.2/3600 = 15.4395.
    const spot = await rowToSpot(row(1, { id: '1', lat: `47°04'16.3"N`, lon: `15°26'22.2"E`, note: '' }), resolved);
    assert.deepEqual(spot.problems, []);
    assert.match(spot.text, /"latitude": 47\.0711944444,\n\s*"longitude": 15\.4395,?\n/);
  });

  it('puts each problem at its pointer and cell, row after row', async () => {
    for (let index = 1; index <= 2; index++) {
      const spot = await rowToSpot(row(index, { id: '', lat: 'north', lon: '16.37', note: '' }), resolved);
      const line = index + 1;
      assert.deepEqual(
        spot.problems.map((problem) => [problem.pointer, problem.rule, problem.at]),
        [
          ['/data/attributes/source_id', 'row.sourceId', { line, column: 1 }],
          ['/data/attributes/latitude', 'row.coordinates', { line, column: 11 }],
        ],
      );
      assert.equal(spot.sourceId, undefined);
    }
  });
});
