// A download cut short inside the last row's last cell: Survey123's CSV ends its rows with CRLF and
// has `y` last, so a file cut after "614156" of "6141562.0543" reads as a whole row whose latitude
// is a complete, wrong number (5.5° instead of 48.3°, after the transformation). Such a file ends
// without a line break, which a complete export of these tools does not, and its last value is
// shorter than the column's others: the cell gets a warning saying so. A cell the mapping does not
// use, a file that ends with its line break, or a last value as long as others of its column (Google
// Sheets ends complete files without a line break) says nothing.
import * as assert from 'node:assert/strict';
import { checkedTable } from './helpers/checkedTable';
import { positionOf } from './helpers/tableFiles';

const HEADER = 'ObjectID,GlobalID,Species,x,y\r\n';
const FIRST = '1,{a1},Oak,1711475.2817,6141562.0543\r\n';
const MAPPING = { topic_id: 1, source_id: 's123-{GlobalID}', latitude: 'y', longitude: 'x', crs: 'EPSG:3857' };

describe('rows: a file that ends without a line break inside a cell it uses', () => {
  it('warns at the last cell that it may be cut short, naming the value; the row is still read', async () => {
    const text = `${HEADER}${FIRST}2,{b2},Beech,1711512.9,614156`;
    const { rows } = await checkedTable('Biodiversity_Survey_0.csv', text, MAPPING);
    assert.equal(rows.length, 2);
    assert.deepEqual(
      rows[0].findings.filter((finding) => finding.severity === 'warning').map((finding) => finding.message),
      [],
    );
    const warnings = rows[1].findings.filter((finding) => finding.rule === 'row.cutShort');
    assert.equal(warnings.length, 1, JSON.stringify(rows[1].findings));
    assert.equal(warnings[0].severity, 'warning');
    assert.match(
      warnings[0].message,
      /ends in this cell without a line break, and its value "614156" is shorter than the others of its column, as a download cut short/,
    );
    const at = positionOf(text, '614156', 2);
    assert.deepEqual([warnings[0].line, warnings[0].column], [at.line, at.column]);
  });

  it("says nothing for a complete file whose writer ends without a line break (Google Sheets' CSV download), its last value as long as its column's others", async () => {
    // Google Sheets writes CRLF between rows and none after the last; the species is the last column.
    const sheet = 'id,lat,lon,Baumart\r\n1,47.0707,15.4395,Linde\r\n2,47.0712,15.4381,Spitzahorn\r\n3,47.0719,15.4377,Eiche';
    const { rows } = await checkedTable('Baeume - Tabellenblatt1.csv', sheet, {
      topic_id: 1,
      source_id: 'b-{id}',
      latitude: 'lat',
      longitude: 'lon',
      fields: { fld_1_1: 'Baumart' },
    });
    assert.equal(rows.length, 3);
    assert.deepEqual(
      rows.flatMap((row) => row.findings.filter((finding) => finding.rule === 'row.cutShort').map((finding) => finding.message)),
      [],
    );
  });

  it('says nothing for a Google Sheets download whose last longitude has 3 decimals among others of 3 to 5 (the sheet drops trailing zeros)', async () => {
    // As Sheets writes a tree list typed in from a GPS: CRLF between rows, none after the last; the
    // longitude is last, 16.358 was 16.35800 on the device. Above it: 5, 4 and 3 decimals.
    const sheet = [
      'Nr,Baumart,Breite,Länge',
      '1,Linde,48.20481,16.35801',
      '2,Spitzahorn,48.2049,16.3579',
      '3,Rosskastanie,48.20502,16.35796',
      '4,Eiche,48.205,16.358',
      '5,Hainbuche,48.20511,16.35812',
      '6,Linde,48.20517,16.358',
    ].join('\r\n');
    const mapping = { topic_id: 1, source_id: 'wien-{Nr}', latitude: 'Breite', longitude: 'Länge', fields: { fld_1_1: 'Baumart' } };
    const { rows } = await checkedTable('Baumliste - Tabellenblatt1.csv', sheet, mapping);
    assert.equal(rows.length, 6);
    assert.deepEqual(
      rows.flatMap((row) => row.findings.map((finding) => finding.message)),
      [],
    );
    // Where the column's values above all have 4 or 5 decimals, a trailing zero written ("16.3580"),
    // "16.358" is what a cut of either leaves: that still warns.
    const fixed = ['Nr,Baumart,Breite,Länge', '1,Linde,48.20481,16.35801', '2,Spitzahorn,48.2049,16.3580', '3,Eiche,48.20517,16.358'].join('\r\n');
    const cut = await checkedTable('fixed.csv', fixed, mapping);
    assert.equal(cut.rows[2].findings.filter((finding) => finding.rule === 'row.cutShort').length, 1, JSON.stringify(cut.rows[2].findings));
  });

  it('says nothing when the file ends with its line break, or when the last cell is not used', async () => {
    const complete = await checkedTable('complete.csv', `${HEADER}${FIRST}2,{b2},Beech,1711512.9,6141563.1\r\n`, MAPPING);
    assert.deepEqual(
      complete.rows.flatMap((row) => row.findings.filter((finding) => finding.rule === 'row.cutShort')),
      [],
    );
    const unused = await checkedTable('unused.csv', 'id,lat,lon,note\n1,47.1,15.4,fine\n2,47.2,15.5,cut he', {
      topic_id: 1,
      source_id: 'u-{id}',
      latitude: 'lat',
      longitude: 'lon',
    });
    assert.deepEqual(
      unused.rows.flatMap((row) => row.findings.filter((finding) => finding.rule === 'row.cutShort')),
      [],
    );
  });

  it('compares with the filled last values only, and in a file of one row says so without comparing', async () => {
    const mapping = { topic_id: 1, source_id: 'e-{id}', latitude: 'lat', longitude: 'lon' };
    // Row 2's longitude is empty (an error of its own); row 3 is cut inside "15.4321".
    const afterEmpty = await checkedTable('after-empty.csv', 'id,lat,lon\n1,47.07,15.4312\n2,47.08,\n3,47.09,15.4', mapping);
    const cut = afterEmpty.rows[2].findings.filter((finding) => finding.rule === 'row.cutShort');
    assert.equal(cut.length, 1, JSON.stringify(afterEmpty.rows[2].findings));
    const one = await checkedTable('one.csv', 'id,lat,lon\n1,47.07,15.43', mapping);
    const alone = one.rows[0].findings.filter((finding) => finding.rule === 'row.cutShort');
    assert.equal(alone.length, 1);
    assert.match(
      alone[0].message,
      /^the file ends in this cell without a line break, as a download cut short does: check that its value "15\.43" is complete\.$/,
    );
  });
});
