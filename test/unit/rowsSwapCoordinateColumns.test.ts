// The quick fix for a table whose rows have latitude and longitude the wrong way round: the
// mapping's two columns exchanged, as the editor applies it (tableCodeActions.ts). An Austrian
// survey's X is its northing; a mapping that takes X for the easting puts Graz in Bosnia, and
// every row says "probably swapped" with the rule spot documents have for it. Expected positions
// are cs2cs's (PROJ 9.1.1).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyEdits } from 'jsonc-parser';
import { swapCoordinateColumns } from '../../src/core/rows/mapping/swapCoordinateColumns';
import { ensureCliBuilt, jsonLines, runCli, scratch } from './helpers/cliProcess';

const apply = (text: string, swap: NonNullable<ReturnType<typeof swapCoordinateColumns>>) => applyEdits(text, swap.edits);

describe('rows: swapping the coordinate columns of a mapping', () => {
  it('exchanges the two column names exactly as written, the rest of the file untouched', () => {
    const text = '{\r\n\t"topic_id": 1,\r\n\t"latitude": "Y",\r\n\t"longitude" : "X \\u00b0",\r\n\t"crs": "EPSG:31256",\r\n}\r\n';
    const swap = swapCoordinateColumns(text);
    assert.ok(swap && 'latitude' in swap);
    assert.deepEqual([swap.latitude, swap.longitude], ['Y', 'X °']);
    assert.equal(apply(text, swap), '{\r\n\t"topic_id": 1,\r\n\t"latitude": "X \\u00b0",\r\n\t"longitude" : "Y",\r\n\t"crs": "EPSG:31256",\r\n}\r\n');
  });

  it('offers nothing when the mapping does not name both columns once', () => {
    // A GeoJSON layer's geometry: the coordinates are in the file.
    assert.equal(swapCoordinateColumns('{"topic_id": 1, "source_id": "{id}"}'), undefined);
    assert.equal(swapCoordinateColumns('{"latitude": "lat", "longitude": "lat"}'), undefined);
    assert.equal(swapCoordinateColumns('{"latitude": "lat", "longitude": "lon", "latitude": "y"}'), undefined);
    assert.equal(swapCoordinateColumns('{"latitude": "lat", "longitude": 3}'), undefined);
    assert.equal(swapCoordinateColumns('{"nested": {"latitude": "lat", "longitude": "lon"}}'), undefined);
    assert.equal(swapCoordinateColumns('["latitude", "longitude"]'), undefined);
    assert.equal(swapCoordinateColumns(''), undefined);
  });
});

describe('spot-import rows: an Austrian survey whose X is the northing', function () {
  this.timeout(60_000);
  let project: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = scratch()));
  afterEach(() => project.cleanup());

  const SURVEY = 'Nr;X;Y;Art\r\n1;215000,00;-67800,00;Linde\r\n2;214200,00;-68500,00;Ahorn\r\n3;216100,00;-66900,00;Eiche\r\n';
  // cs2cs with the operation PROJ lists first for EPSG:31256, "MGI to WGS 84 (3)" (Austria, 1.5 m), the built-in's:
  //   printf -- "-67800 215000\n…" | cs2cs -f %.9f +proj=tmerc +lat_0=0 +lon_0=16.3333333333333 +k=1 +x_0=0 +y_0=-5000000
  //   +ellps=bessel +towgs84=577.326,90.129,463.919,5.137,1.474,5.297,2.4232 +units=m +no_defs +to +proj=longlat +datum=WGS84
  // (cs2cs with EPSG codes picks Styria's own operation (8) for Graz, 0.4 m away.)
  const CS2CS: Array<[number, number]> = [
    [47.070634802, 15.439596603],
    [47.063367175, 15.430503783],
    [47.080620267, 15.451280363],
  ];

  it('every row is said to be swapped with the rule the editor fixes by; with the columns exchanged, every row is where cs2cs puts it', async () => {
    const mapping = JSON.stringify({ topic_id: 1, source_id: 'vermessung-{Nr}', latitude: 'Y', longitude: 'X', crs: 'EPSG:31256' }, null, 2);
    project.write('vermessung.csv', SURVEY);
    project.write('vermessung.mapping.json', mapping);
    const before = await runCli(['validate', 'vermessung.csv', '--format', 'json'], { cwd: project.dir });
    const rules = jsonLines(before.stdout)
      .filter((record) => record.type === 'document')
      .map((record) => (record.problems as Array<{ rule: string; message: string }>).map((found) => [found.rule, /probably swapped/.test(found.message)]));
    assert.deepEqual(rules, [[['spot.swappedCoordinates', true]], [['spot.swappedCoordinates', true]], [['spot.swappedCoordinates', true]]], before.stdout);

    const swap = swapCoordinateColumns(mapping);
    assert.ok(swap);
    project.write('vermessung.mapping.json', apply(mapping, swap));
    const converted = await runCli(['convert', 'vermessung.csv', '--out', 'spots'], { cwd: project.dir });
    assert.equal(converted.code, 0, converted.stderr);
    CS2CS.forEach(([latitude, longitude], index) => {
      const { data } = JSON.parse(readFileSync(project.path(`spots/vermessung-${index + 1}.spot.json`), 'utf8')) as {
        data: { attributes: { latitude: number; longitude: number } };
      };
      // Rounded to 7 decimals when written (about a centimetre).
      assert.ok(Math.abs(data.attributes.latitude - latitude) < 1e-7, `row ${index + 1}: latitude ${data.attributes.latitude}, cs2cs ${latitude}`);
      assert.ok(Math.abs(data.attributes.longitude - longitude) < 1e-7, `row ${index + 1}: longitude ${data.attributes.longitude}, cs2cs ${longitude}`);
    });
  });
});
