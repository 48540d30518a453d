// A table whose coordinates are a projected system's metres (Survey123's Web Mercator x/y, a
// national grid's easting/northing) mapped without "crs" said "latitude 5953623.7671 is out of
// range (-90 to 90)" and "longitude … is out of range": true, but not what to do. Such values say
// that they are metres; the row's problem says so once and names the mapping's "crs".
import * as assert from 'node:assert/strict';
import { checkedTable } from './helpers/checkedTable';
import { positionOf } from './helpers/tableFiles';

describe('rows: metres mapped as degrees', () => {
  it('one problem at the latitude naming crs, instead of two "out of range"; degrees out of range are said as before', async () => {
    const text = 'ObjectID,GlobalID,x,y\n1,{a1},1711475.2817,5953623.7671\n2,{b2},95,95\n';
    const { rows } = await checkedTable('Survey_0.csv', text, { topic_id: 1, source_id: 's-{GlobalID}', latitude: 'y', longitude: 'x' });
    const errors = rows.map((row) => row.findings.filter((finding) => finding.severity === 'error'));
    assert.equal(errors[0].length, 1, JSON.stringify(errors[0]));
    assert.match(errors[0][0].message, /5953623\.7671.*1711475\.2817.*metres.*"crs"/);
    const at = positionOf(text, '5953623.7671');
    assert.deepEqual([errors[0][0].line, errors[0][0].column], [at.line, at.column]);
    assert.deepEqual(
      errors[1].map((finding) => finding.message),
      ['latitude 95 is out of range (-90 to 90).'],
    );
  });
});
