// Places in one cell written with the other decimal separator than the mapping reads: a
// semicolon file of decimal commas with a place copied with decimal points among them (and a form's
// geopoint a German re-save kept as text), and a file of decimal points with places typed with
// decimal commas. Decimal points in a file of decimal commas are read, as they can mean nothing
// else; decimal commas in a file of decimal points say so (never what one of their pieces is not),
// and none is read as a place its writer did not mean ("47,07, 15,43" is not 47, 7 with altitude
// 15). Expected degrees are the cells' own digits.
import * as assert from 'node:assert/strict';
import { readPositionCell } from '../../src/core/rows/values/positionCell';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';

function read(text: string, decimalSeparator: '.' | ','): unknown {
  const result = readPositionCell(text, true, decimalSeparator);
  return 'problem' in result ? result.problem : result.geometry.coordinates;
}

const COMMAS_IN_POINT_FILE = /^"[^"]+" writes decimal commas, and the mapping reads decimal points \(source\.decimalSeparator is "\."\)/;

describe('rows: a position cell and the decimal separator', () => {
  it('reads "48,2048, 16,3577" with decimal commas: a comma with a blank after it parts the halves', () => {
    assert.deepEqual(read('48,2048, 16,3577', ','), [16.3577, 48.2048]);
    assert.deepEqual(read('48,2048 16,3577', ','), [16.3577, 48.2048]);
    assert.deepEqual(read('47,0707 15,4395 350 5', ','), [15.4395, 47.0707]);
  });

  it("reads decimal points in a file of decimal commas: a form's geopoint a German re-save kept as text, a place copied from a map", () => {
    assert.deepEqual(read('47.0707 15.4395 350 5', ','), [15.4395, 47.0707]);
    assert.deepEqual(read('48.2048, 16.3577', ','), [16.3577, 48.2048]);
    assert.deepEqual(read('48.205 16.358', ','), [16.358, 48.205]);
    assert.deepEqual(read('47.0707 15.4395 0 0;47.0717 15.4405 0 0', ','), [
      [15.4395, 47.0707],
      [15.4405, 47.0717],
    ]);
  });

  it('says that a cell writes decimal commas when the mapping reads decimal points', () => {
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

  it("checks the tester's semicolon file: the decimal-comma cells are read, and the one with decimal points too", async () => {
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
    assert.deepEqual(seen, [
      [48.2048, 16.3577],
      [48.2048, 16.3577],
      [48.2048, 16.3577],
      [48.205, 16.358],
    ]);
  });

  it('answers for a cell of 600,000 characters without a ";" (a pasted dump), showing it cut short', () => {
    // Read by the hemisphere-letter patterns, such a cell took time growing with its length squared
    // (13 s at 150,000 characters), past the suite's timeout at this length.
    const problem = read(`N${'1 '.repeat(300000)}x`, '.');
    assert.match(String(problem), /^"N1 1 1 .{40,60}…" is not a place/);
  });
});
