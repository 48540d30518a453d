// A KoBoToolbox or ODK export saved again by a German spreadsheet: measures written with decimal
// commas beside a geopoint column, which the form tool writes with points in every locale. The
// measures decide the separator; the geopoint's numbers count only where nothing else does.
import * as assert from 'node:assert/strict';
import { readAll, useTableFolder } from './helpers/tableFiles';

describe('rows read: the decimal separator beside a geopoint column', () => {
  const folder = useTableFolder('spot-decimal-geopoint-');

  it("takes the measures' decimal comma, not the geopoint's points", async () => {
    const text = 'id;Standort;Hoehe\n1;47.0707 15.4395 350 5;12,5\n2;47.0710 15.4399 351 4;13,25\n';
    const { table } = await readAll(folder.write('geo.csv', text));
    assert.equal(table.format.decimalSeparator, ',', table.detected.join('; '));
  });

  it("takes the geopoint's points when no other cell has decimals", async () => {
    const text = 'id;Standort;Anzahl\n1;47.0707 15.4395 350 5;3\n2;47.0710 15.4399 351 4;4\n';
    const { table } = await readAll(folder.write('only.csv', text));
    assert.equal(table.format.decimalSeparator, '.', table.detected.join('; '));
  });
});
