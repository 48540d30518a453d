// Rows as spreadsheets and form tools leave them untidy: every data row ending with a delimiter the
// header does not have (an export that writes "," after each value), lines holding only blanks, a
// tab or delimiters (a row cleared in a spreadsheet), and a Google Sheets download ending without
// a line break in a quoted or an empty last cell. The bytes are the tester's files; the expected
// values are the cells' own text, read by eye.
import * as assert from 'node:assert/strict';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';
import { positionOf } from './helpers/tableFiles';

const MAPPING = { topic_id: 1, source_id: 't-{id}', latitude: 'lat', longitude: 'lon', fields: { fld_1_1: 'Species' } };

function summary(rows: Awaited<ReturnType<typeof checkedTable>>['rows']): unknown[] {
  return rows.map((row) => [row.line, row.findings.map((finding) => finding.message), row.spot ? attributesOfRow(row).latitude : undefined]);
}

describe('rows: untidy CSV rows', () => {
  it('reads rows that end with a delimiter the header does not have when the extra cells are empty', async () => {
    const text = 'id,Species,lat,lon\r\nt1,Oak,47.0707,15.4395,\r\nt2,Beech,48.2048,16.3577,\r\n';
    const { rows } = await checkedTable('trail2.csv', text, MAPPING);
    assert.deepEqual(summary(rows), [
      [2, [], 47.0707],
      [3, [], 48.2048],
    ]);
    // An extra cell with a value still has no column.
    const more = await checkedTable('more.csv', 'id,Species,lat,lon\nt1,Oak,47.0707,15.4395,,x\n', MAPPING);
    assert.match(String(summary(more.rows)), /row 1 has 6 cells, the header 4/);
  });

  it('refuses a row one cell longer than the header, its last cell empty, in a file whose rows do not end with a delimiter', async () => {
    // A tree register saved from a sheet: CRLF, an empty last cell where there is no remark, and in
    // row 3 a species with an unquoted comma: its cells shift right by one, and the row ends empty.
    const text = [
      'id,lat,lon,Baumart,Pflanzjahr,Bemerkung',
      '101,47.0707,15.4395,Linde,1998,',
      '102,47.0712,15.4381,Spitzahorn,2004,Krone gestutzt',
      '103,47.0719,15.4377,Linde, Winterlinde,1998,',
      '104,47.0722,15.4370,Eiche,1975,',
      '',
    ].join('\r\n');
    const mapping = { topic_id: 1, source_id: 't-{id}', latitude: 'lat', longitude: 'lon', fields: { fld_1_1: 'Baumart', fld_1_4: 'Bemerkung' } };
    const { rows } = await checkedTable('baumkataster.csv', text, mapping);
    // Read so, row 3 was a spot of species "Linde" remarked "1998"; its cells past the header's six have no column.
    const end = positionOf(text, '1998,\r\n104');
    assert.deepEqual(summary(rows), [
      [2, [], 47.0707],
      [3, [], 47.0712],
      [4, ['row 3 has 7 cells, the header 6: the cells from here on have no column'], undefined],
      [5, [], 47.0722],
    ]);
    assert.deepEqual([rows[2].findings[0].line, rows[2].findings[0].column], [end.line, end.column + '1998,'.length]);
  });

  it('passes over lines holding only blanks, a tab or delimiters, as empty lines are', async () => {
    const blank = 'id,Species,lat,lon\r\n\r\nt1,Oak,47.0707,15.4395\r\n   \r\nt2,Beech,48.2048,16.3577\r\n\t\r\n';
    assert.deepEqual(summary((await checkedTable('blank2.csv', blank, MAPPING)).rows), [
      [3, [], 47.0707],
      [5, [], 48.2048],
    ]);
    const semi = 'id;Name;lat;lon\r\n1;A;47,07;15,43\r\n; ;;\r\n';
    const { rows } = await checkedTable('semi2.csv', semi, { topic_id: 1, source_id: 's-{id}', latitude: 'lat', longitude: 'lon' });
    assert.deepEqual(summary(rows), [[2, [], 47.07]]);
  });

  it('does not warn of a cut last cell when the file ends in a closed quoted cell or an empty one', async () => {
    const mapping = { ...MAPPING, fields: { fld_1_1: 'Species', fld_1_4: 'Notes' } };
    const quoted = 'id,Species,lat,lon,Notes\r\nt1,Oak,47.0707,15.4395,"Long note about the tree"\r\nt2,Beech,48.2048,16.3577,"ok"';
    const empty = 'id,Species,lat,lon,Notes\r\nt1,Oak,47.0707,15.4395,Long note about the tree\r\nt2,Beech,48.2048,16.3577,';
    for (const [name, text] of [
      ['gs5.csv', quoted],
      ['empty.csv', empty],
    ]) {
      const { rows } = await checkedTable(name, text, mapping);
      assert.deepEqual(
        rows.map((row) => row.findings.map((finding) => finding.message)),
        [[], []],
        name,
      );
    }
    // An unquoted short last value still warns (rowsCutLastCell.test.ts has the full case).
    const cut = await checkedTable('cut.csv', 'id,Species,lat,lon,Notes\r\nt1,Oak,47.0707,15.4395,Long note\r\nt2,Beech,48.2048,16.3577,ok', mapping);
    assert.equal(cut.rows[1].findings.filter((finding) => finding.rule === 'row.cutShort').length, 1);
  });
});
