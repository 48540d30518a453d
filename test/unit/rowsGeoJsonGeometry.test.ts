// Features that are not Points (issue 32, defect 4): a MultiPoint of one point, as QGIS and
// Shapefile conversions write point layers, is that point; for lines and polygons the mapping's
// "geometry" chooses their centroid or first position, and by default ("point-only") they are
// refused with a message that names the option. Expected values are computed here, independently
// of the project's code: Lambert-93 to degrees by the inverse Lambert conformal conic formulas
// (Snyder, Map Projections: A Working Manual, 1987, eq. 15-5 to 15-11 and 7-9, on GRS 80; RGF93
// is WGS 84 to the millimetre), centroids by decomposing each shape into rectangles or segments.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { isRowReadProblem, openMappedTable, parseMapping, rowToSpot, type ResolvedMapping, type RowSpot, type SourceRow } from '../../src/core/rows';
import { useTableFolder } from './helpers/tableFiles';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'exports', 'geo');

/** EPSG:2154 (RGF93 / Lambert-93) to longitude and latitude, by Snyder's formulas. */
function lambert93ToDegrees(x: number, y: number): { longitude: number; latitude: number } {
  const a = 6378137;
  const f = 1 / 298.257222101;
  const e = Math.sqrt(2 * f - f * f);
  const rad = Math.PI / 180;
  const [phi1, phi2, phi0, lambda0, x0, y0] = [49 * rad, 44 * rad, 46.5 * rad, 3 * rad, 700000, 6600000];
  const m = (phi: number) => Math.cos(phi) / Math.sqrt(1 - e * e * Math.sin(phi) ** 2);
  const t = (phi: number) => Math.tan(Math.PI / 4 - phi / 2) / ((1 - e * Math.sin(phi)) / (1 + e * Math.sin(phi))) ** (e / 2);
  const n = (Math.log(m(phi1)) - Math.log(m(phi2))) / (Math.log(t(phi1)) - Math.log(t(phi2)));
  const F = m(phi1) / (n * t(phi1) ** n);
  const rho0 = a * F * t(phi0) ** n;
  const dx = x - x0;
  const dy = rho0 - (y - y0);
  const tOfPoint = (Math.hypot(dx, dy) / (a * F)) ** (1 / n);
  let phi = Math.PI / 2 - 2 * Math.atan(tOfPoint);
  for (let i = 0; i < 20; i++) phi = Math.PI / 2 - 2 * Math.atan(tOfPoint * ((1 - e * Math.sin(phi)) / (1 + e * Math.sin(phi))) ** (e / 2));
  return { longitude: (Math.atan2(dx, dy) / n + lambda0) / rad, latitude: phi / rad };
}

/** Documents round to 7 decimals (half of 1e-7 degrees is at most 5.6 mm); 2 mm more for the transformation. */
const ROUNDED = 0.5e-7 + 2e-8;

interface Mapped {
  mapping: ResolvedMapping;
  rows: SourceRow[];
}

async function mappedRows(path: string, mapping: object): Promise<Mapped> {
  const opened = await openMappedTable(path, parseMapping(path.replace(/\.geojson$/, '.mapping.json'), JSON.stringify(mapping)));
  assert.deepEqual(opened.problems, []);
  assert.ok(opened.mapping);
  const rows: SourceRow[] = [];
  for await (const item of opened.table.rows()) {
    assert.ok(!isRowReadProblem(item), JSON.stringify(item));
    rows.push(item);
  }
  return { mapping: opened.mapping, rows };
}

function place(spot: RowSpot): { longitude: number; latitude: number } {
  const { longitude, latitude } = JSON.parse(spot.text).data.attributes as { longitude: number; latitude: number };
  return { longitude, latitude };
}

function assertNear(actual: { longitude: number; latitude: number }, expected: { longitude: number; latitude: number }, tolerance: number, what: string): void {
  const message = `${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
  assert.ok(Math.abs(actual.longitude - expected.longitude) <= tolerance, message);
  assert.ok(Math.abs(actual.latitude - expected.latitude) <= tolerance, message);
}

/** What the Overpass fixture's shapes give, in units of 0.0004° from each shape's own origin. */
const U = 0.0004;
const from = (originLongitude: number, originLatitude: number, x: number, y: number) => ({
  longitude: originLongitude + x * U,
  latitude: originLatitude + y * U,
});
const OVERPASS_CENTROIDS = {
  'node/3815077900': { longitude: 5.7265, latitude: 45.1881 },
  // 0.001° by 0.0005°: its middle.
  'way/240118001': { longitude: 5.7205, latitude: 45.19025 },
  // A 2 by 2 square less its upper right unit square: (4 × (1, 1) − 1 × (1.5, 1.5)) / 3.
  'way/240118002': from(5.73, 45.195, 5 / 6, 5 / 6),
  // A 3 by 3 square with a unit courtyard centred on (1, 1): (9 × (1.5, 1.5) − 1 × (1, 1)) / 8.
  'way/240118003': from(5.74, 45.2, 1.5625, 1.5625),
  // Segments of length 3 (middle (1.5, 0)) and 1 (middle (3, 0.5)), weighted by length.
  'way/240118004': from(5.75, 45.205, (3 * 1.5 + 1 * 3) / 4, (3 * 0 + 1 * 0.5) / 4),
  // Squares of area 1 (middle (0.5, 0.5)) and 2 (middle (3, 0.5)), weighted by area.
  'relation/1170001': from(5.76, 45.21, (1 * 0.5 + 2 * 3) / 3, 0.5),
};
const OVERPASS_FIRST_POINTS = {
  'node/3815077900': { longitude: 5.7265, latitude: 45.1881 },
  'way/240118001': { longitude: 5.72, latitude: 45.19 },
  'way/240118002': { longitude: 5.73, latitude: 45.195 },
  'way/240118003': { longitude: 5.74, latitude: 45.2 },
  'way/240118004': { longitude: 5.75, latitude: 45.205 },
  'relation/1170001': { longitude: 5.76, latitude: 45.21 },
};

describe('rows to spots: geometries that are not Points', () => {
  const folder = useTableFolder('spot-rows-geometry-');

  it('takes a MultiPoint of one point, as QGIS writes a point layer in Lambert-93, as that point; one of two is refused naming the "geometry" option', async () => {
    const { mapping, rows } = await mappedRows(join(FIXTURES, 'arbres-l93.geojson'), { topic_id: 7, source_id: 'arbre-{ID_ARBRE}' });
    assert.equal(mapping.crs, 'EPSG:2154');
    assert.equal(rows.length, 5);
    for (const row of rows.slice(0, 4)) {
      const spot = await rowToSpot(row, mapping);
      assert.deepEqual(spot.problems, [], String(row.values.ID_ARBRE));
      const [x, y] = (row.geometry?.coordinates as number[][])[0];
      assertNear(place(spot), lambert93ToDegrees(x, y), ROUNDED, String(row.values.ID_ARBRE));
      assert.deepEqual(spot.cells.get('/data/attributes/latitude'), row.geometry?.position);
    }
    // Lambert-93's origin is 3° E, 46.5° N by definition.
    assert.deepEqual(place(await rowToSpot(rows[3], mapping)), { longitude: 3, latitude: 46.5 });

    const two = await rowToSpot(rows[4], mapping);
    assert.deepEqual(
      two.problems.map((problem) => [problem.message, problem.at]),
      [
        [
          'The feature\'s geometry is a MultiPoint of 2 points, not one place: say in the mapping which point stands for it, "geometry": "centroid" or "first-point" (or name latitude and longitude columns).',
          rows[4].geometry?.position,
        ],
      ],
    );
  });

  it('takes the centroid of each Overpass shape with "geometry": "centroid": area-weighted for polygons (holes and parts too), length-weighted for lines', async () => {
    const { mapping, rows } = await mappedRows(join(FIXTURES, 'overpass-batiments.geojson'), { topic_id: 7, source_id: 'osm-{@id}', geometry: 'centroid' });
    assert.equal(rows.length, 6);
    for (const row of rows) {
      const spot = await rowToSpot(row, mapping);
      assert.deepEqual(spot.problems, []);
      const id = String(row.values['@id']) as keyof typeof OVERPASS_CENTROIDS;
      assertNear(place(spot), OVERPASS_CENTROIDS[id], 1e-9, id);
    }
  });

  it('takes the first position of each shape with "geometry": "first-point", and refuses all but Points by default', async () => {
    const path = join(FIXTURES, 'overpass-batiments.geojson');
    const first = await mappedRows(path, { topic_id: 7, source_id: 'osm-{@id}', geometry: 'first-point' });
    for (const row of first.rows) {
      const id = String(row.values['@id']) as keyof typeof OVERPASS_FIRST_POINTS;
      assert.deepEqual(place(await rowToSpot(row, first.mapping)), OVERPASS_FIRST_POINTS[id], id);
    }
    const pointOnly = await mappedRows(path, { topic_id: 7, source_id: 'osm-{@id}' });
    const messages = [];
    for (const row of pointOnly.rows) messages.push((await rowToSpot(row, pointOnly.mapping)).problems.map((problem) => problem.message));
    const refused = (type: string) => [
      `The feature's geometry is a ${type}, not one place: say in the mapping which point stands for it, "geometry": "centroid" or "first-point" (or name latitude and longitude columns).`,
    ];
    assert.deepEqual(messages, [[], refused('Polygon'), refused('Polygon'), refused('Polygon'), refused('LineString'), refused('MultiPolygon')]);
  });

  it("takes a centroid in the layer's own coordinates, then transforms it: a cadastre parcel in Lambert-93", async () => {
    const [x0, y0] = [652300.5, 6862300.25];
    const parcel = [
      [x0, y0],
      [x0 + 40, y0],
      [x0 + 40, y0 + 20],
      [x0, y0 + 20],
      [x0, y0],
    ];
    const text = JSON.stringify({
      type: 'FeatureCollection',
      crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2154' } },
      features: [{ type: 'Feature', properties: { idu: '751010000AB0042' }, geometry: { type: 'MultiPolygon', coordinates: [[parcel]] } }],
    });
    const { mapping, rows } = await mappedRows(folder.write('parcelles.geojson', text), { topic_id: 7, source_id: 'parcelle-{idu}', geometry: 'centroid' });
    const spot = await rowToSpot(rows[0], mapping);
    assert.deepEqual(spot.problems, []);
    assertNear(place(spot), lambert93ToDegrees(x0 + 20, y0 + 10), ROUNDED, 'the parcel');
  });

  it('says what is wrong with a geometry that has no position or positions that are not numbers', async () => {
    const features = [
      { type: 'Feature', properties: { n: 1 }, geometry: { type: 'MultiPoint', coordinates: [] } },
      {
        type: 'Feature',
        properties: { n: 2 },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              ['5.7', 45.1],
              [5.8, 45.1],
              [5.8, 45.2],
              ['5.7', 45.1],
            ],
          ],
        },
      },
      { type: 'Feature', properties: { n: 3 }, geometry: null },
    ];
    const path = folder.write('bad.geojson', JSON.stringify({ type: 'FeatureCollection', features }));
    const { mapping, rows } = await mappedRows(path, { topic_id: 7, source_id: 'x-{n}', geometry: 'centroid' });
    const messages = [];
    for (const row of rows) messages.push((await rowToSpot(row, mapping)).problems.map((problem) => problem.message));
    assert.deepEqual(messages, [
      ["The feature's MultiPoint has no position."],
      ["The feature's Polygon has coordinates that are not positions of two numbers."],
      ['The feature has no geometry: a spot needs a Point.'],
    ]);
  });

  // A layer written on one line (as APIs write GeoJSON): a feature without a geometry was placed at
  // column 1, the start of the file, whichever feature it was.
  it('a feature without a geometry is placed at its geometry null, or at the feature when it has no such member', async () => {
    const text =
      '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"n":"a"},"geometry":{"type":"Point","coordinates":[15.1,47.1]}},' +
      '{"type":"Feature","properties":{"n":"b"},"geometry":null},{"type":"Feature","properties":{"n":"c"}}]}';
    const path = folder.write('one-line.geojson', text);
    const { mapping, rows } = await mappedRows(path, { topic_id: 7, source_id: 'x-{n}' });
    const places = [];
    for (const row of rows.slice(1)) places.push((await rowToSpot(row, mapping)).problems.map((problem) => [problem.at.line, problem.at.column]));
    const column = (needle: string) => text.indexOf(needle) + 1;
    assert.deepEqual(places, [[[1, column('null')]], [[1, column('{"type":"Feature","properties":{"n":"c"}')]]]);
  });
});
