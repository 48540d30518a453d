// A row at latitude 0 and longitude 0 ("Null Island", in the Gulf of Guinea) is almost always a
// position a device or form did not have, written as zeros: some tools write 0 for a missing GPS
// fix. The photo folder already takes 0°/0° for "no position"; a table's row was imported there
// without a word. It now carries a warning at its coordinates (it is still sent: a spot may be
// there), and a row one metre away is not warned about.
import * as assert from 'node:assert/strict';
import { checkedTable } from './helpers/checkedTable';
import { positionOf } from './helpers/tableFiles';

describe('rows: a position of 0, 0', () => {
  it('is a warning at its latitude: most likely no position was recorded', async () => {
    const text = 'id,lat,lon\na,0,0\nb,0.00001,0\nc,"0,0",0\nd,-0.0,0.0\n';
    const mapping = { source: { decimalSeparator: '.' }, topic_id: 1, source_id: 'p-{id}', latitude: 'lat', longitude: 'lon' };
    const { rows } = await checkedTable('points.csv', text, mapping);
    const warnings = rows.map((row) => row.findings.filter((finding) => finding.severity === 'warning'));
    assert.equal(warnings[0].length, 1, JSON.stringify(rows[0].findings));
    assert.match(warnings[0][0].message, /latitude 0 and longitude 0 .*Null Island.*most likely no position was recorded/);
    assert.deepEqual([warnings[0][0].line, warnings[0][0].column], [positionOf(text, 'a,0,0').line, positionOf(text, 'a,0,0').column + 2]);
    assert.ok(rows[0].ok, 'still sent');
    assert.deepEqual(warnings[1], [], 'a metre from it is a place like any other');
    assert.equal(warnings[3].length, 1, '-0.0 and 0.0 are zeros too');
  });
});
