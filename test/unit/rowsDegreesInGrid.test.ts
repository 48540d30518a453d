// Degrees in a table whose mapping names a grid: latitude and longitude columns of 48.2048 and
// 16.3577 under "crs": "EPSG:31256" were a warning, and the spot was imported at 45.14, 16.33 in
// Croatia (the numbers as metres from MGI's false origin); a position cell of the same under
// EPSG:3857 was imported at 0.000433, 0.000147, off Africa. Such a row is now an error at its
// latitude, with the same words, and is not imported; rows in the grid's metres are read as before.
import * as assert from 'node:assert/strict';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';
import { positionOf } from './helpers/tableFiles';

describe('rows: degrees in a table mapped to a grid', () => {
  it('latitude and longitude columns of degrees under EPSG:31256: an error at the latitude, the row not imported; metres beside them are read', async () => {
    const text = 'id,Species,y,x\nd3,Oak,48.2048,16.3577\ng1,Oak,340000,-2500\n';
    const { rows } = await checkedTable('gd3.csv', text, { topic_id: 7, source_id: 'gd-{id}', latitude: 'y', longitude: 'x', crs: 'EPSG:31256' });
    const [degrees, metres] = rows;
    assert.equal(degrees.ok, false);
    assert.deepEqual(
      degrees.findings.map(({ message, severity, rule, line, column }) => ({ message, severity, rule, line, column })),
      [
        {
          message:
            'x 16.3577, y 48.2048: these look like degrees, not EPSG:31256 metres; if they are longitude and latitude, the coordinate system is EPSG:4326.',
          severity: 'error',
          rule: 'row.coordinates',
          ...positionOf(text, '48.2048'),
        },
      ],
    );
    assert.ok(metres.ok, JSON.stringify(metres.findings));
    // cs2cs EPSG:31256 → EPSG:4326 (test/unit/helpers/rowsProject.ts): 48.198403073 16.298505342.
    assert.deepEqual([attributesOfRow(metres).latitude, attributesOfRow(metres).longitude], [48.1984031, 16.2985053]);
  });

  it('a position cell of degrees under EPSG:3857: an error at the cell', async () => {
    const text = 'id,Species,pos\nd3,Oak,48.2048 16.3577\n';
    const { rows } = await checkedTable('gd2.csv', text, { topic_id: 7, source_id: 'gd-{id}', position: 'pos', crs: 'EPSG:3857' });
    assert.equal(rows[0].ok, false);
    assert.deepEqual(
      rows[0].findings.map(({ message, severity, line, column }) => ({ message, severity, line, column })),
      [
        {
          message:
            'x 16.3577, y 48.2048: these look like degrees, not EPSG:3857 metres; if they are longitude and latitude, the coordinate system is EPSG:4326.',
          severity: 'error',
          ...positionOf(text, '48.2048 16.3577'),
        },
      ],
    );
  });
});
