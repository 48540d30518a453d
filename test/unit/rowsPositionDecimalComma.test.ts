// Places in one cell written with the other decimal separator than the mapping reads: a
// semicolon file of decimal commas with a place copied with decimal points among them, and a file
// of decimal points with places typed with decimal commas. A cell that reads as a place only with
// the other separator says so (never what one of its pieces is not), a cell whose halves are plain
// with the mapping's separator is read, and none is read as a place its writer did not mean
// ("47,07, 15,43" is not 47, 7 with altitude 15). Expected degrees are the cells' own digits.
import * as assert from 'node:assert/strict';
import { readPositionCell } from '../../src/core/rows/values/positionCell';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';

function read(text: string, decimalSeparator: '.' | ','): unknown {
  const result = readPositionCell(text, true, decimalSeparator);
  return 'problem' in result ? result.problem : result.geometry.coordinates;
}

const COMMAS_IN_POINT_FILE = /^"[^"]+" writes decimal commas, and the mapping reads decimal points \(source\.decimalSeparator is "\."\)/;
const POINTS_IN_COMMA_FILE = /^"[^"]+" writes decimal points, and the mapping reads decimal commas \(source\.decimalSeparator is ","\)/;

describe('rows: a position cell and the decimal separator', () => {
  it('reads "48,2048, 16,3577" with decimal commas: a comma with a blank after it parts the halves', () => {
    assert.deepEqual(read('48,2048, 16,3577', ','), [16.3577, 48.2048]);
    assert.deepEqual(read('48,2048 16,3577', ','), [16.3577, 48.2048]);
    assert.deepEqual(read('47,0707 15,4395 350 5', ','), [15.4395, 47.0707]);
  });

  it('says that a cell writes the other separator, whichever the mapping reads', () => {
    assert.match(String(read('48.2048, 16.3577', ',')), POINTS_IN_COMMA_FILE);
    assert.match(String(read('48.205 16.358', ',')), POINTS_IN_COMMA_FILE);
    assert.match(String(read('47,0707 15,4395', '.')), COMMAS_IN_POINT_FILE);
    assert.match(String(read('47,0707, 15,4395', '.')), COMMAS_IN_POINT_FILE);
    assert.match(String(read('47,07, 15,43', '.')), COMMAS_IN_POINT_FILE);
  });

  it('never reads decimal commas in a file of decimal points as another place', () => {
    for (const cell of ['47,07, 15,43', '47,5, 16,5', '47,07', '47,0707, 15,4395', '47,0707 15,4395']) {
      assert.equal(typeof read(cell, '.'), 'string', cell);
    }
    // The one comma of a copied place still parts its halves.
    assert.deepEqual(read('48.2048,16.3577', '.'), [16.3577, 48.2048]);
  });

  it("checks the tester's semicolon file: the decimal-comma cells are read, the one with decimal points says so", async () => {
    const text = [
      'Nr;Art;Höhe;Fundort',
      '1;Oak;12,5;48,2048 16,3577',
      '3;Oak;4,5;48.2048, 16.3577',
      '6;Oak;7,5;48,2048, 16,3577',
      '8;Oak;8,5;48,205 16,358',
      '',
    ].join('\n');
    const { rows } = await checkedTable('dc.csv', text, {
      source: { format: 'csv', delimiter: ';', decimalSeparator: ',', encoding: 'utf-8' },
      topic_id: 1,
      source_id: 'dc-{Nr}',
      position: 'Fundort',
    });
    const seen = rows.map((row) => (row.ok ? [attributesOfRow(row).latitude, attributesOfRow(row).longitude] : row.findings.map((finding) => finding.message)));
    assert.deepEqual(seen[0], [48.2048, 16.3577]);
    assert.match(String((seen[1] as string[])[0]), /^position: "48\.2048, 16\.3577" writes decimal points, and the mapping reads decimal commas/);
    assert.deepEqual(seen.slice(2), [
      [48.2048, 16.3577],
      [48.205, 16.358],
    ]);
  });
});
