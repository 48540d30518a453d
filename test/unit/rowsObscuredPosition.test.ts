// iNaturalist's export gives obscured observations (threatened taxa, or the observer's choice) a
// random public point up to some 20 km from the real one, with coordinates_obscured=true and the
// public_positional_accuracy widened. Imported, such a spot looked as precise as any other: the
// row now carries a warning at its latitude naming how far off it may be. Other rows say nothing.
import * as assert from 'node:assert/strict';
import { checkedTable } from './helpers/checkedTable';
import { positionOf } from './helpers/tableFiles';

const TEXT = [
  'id,observed_on,time_observed_at,latitude,longitude,positional_accuracy,public_positional_accuracy,coordinates_obscured,geoprivacy,scientific_name',
  '208765431,2024-05-02,2024-05-02 08:14:00 UTC,47.0707123,15.4395456,12,12,false,,Quercus robur',
  '208765433,2024-05-03,2024-05-03 09:30:00 UTC,47.1523,15.3987,8,25000,true,obscured,Cypripedium calceolus',
  '208765440,2024-05-04,,47.0711,15.4401,,,TRUE,,Bufo bufo',
  '',
].join('\r\n');
const MAPPING = { topic_id: 1, source_id: 'inat-{id}', latitude: 'latitude', longitude: 'longitude' };

describe('rows: an observation whose position the platform obscured', () => {
  it('warns at the latitude, with the public accuracy when the export gives it; the row is still sent', async () => {
    const { rows } = await checkedTable('observations-412345.csv', TEXT, MAPPING);
    const warnings = rows.map((row) => row.findings.filter((finding) => finding.severity === 'warning'));
    assert.deepEqual(warnings[0], []);
    assert.equal(warnings[1].length, 1, JSON.stringify(rows[1].findings));
    assert.match(warnings[1][0].message, /obscured.*coordinates_obscured.*25000 m/);
    const at = positionOf(TEXT, '47.1523');
    assert.deepEqual([warnings[1][0].line, warnings[1][0].column], [at.line, at.column]);
    assert.ok(rows[1].ok, 'still sent');
    assert.equal(warnings[2].length, 1, 'TRUE as a spreadsheet writes it, without an accuracy');
    assert.doesNotMatch(warnings[2][0].message, / m\b/);
  });
});
