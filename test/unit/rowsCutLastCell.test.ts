// A download cut short inside the last row's last cell: Survey123's CSV ends its rows with CRLF and
// has `y` last, so a file cut after "614156" of "6141562.0543" reads as a whole row whose latitude
// is a complete, wrong number (5.5° instead of 48.3°, after the transformation). Such a file ends
// without a line break, which a complete export of these tools does not: the cell gets a warning
// saying so. A cell the mapping does not use, or a file that ends with its line break, says nothing.
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
    assert.match(warnings[0].message, /ends in this cell without a line break.*cut short.*"614156"/);
    const at = positionOf(text, '614156', 2);
    assert.deepEqual([warnings[0].line, warnings[0].column], [at.line, at.column]);
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
});
