// One GeoJSON Feature per line (GeoJSON text sequences, RFC 8142, with or without the record
// separator before each; issue 32, defect 3) is a GeoJSON source: a mapping needs no latitude or
// longitude columns, each row's geometry is its place, and a `crs` member is honoured. The
// fixtures are written as GDAL's GeoJSONSeq driver writes them (RS=YES for .geojsons); expected
// coordinates are the file's own numbers.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { isRowReadProblem, openMappedTable, parseMapping, rowToSpot, type MappedTable, type RowReadProblem, type SourceRow } from '../../src/core/rows';
import { positionOf, useTableFolder } from './helpers/tableFiles';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'exports', 'geo');

/** The releves fixtures' coordinates, as written. */
const EXPECTED = [
  { id: 'R-0001', longitude: 5.7245108, latitude: 45.1885271 },
  { id: 'R-0002', longitude: 5.7301942, latitude: 45.1911057 },
  { id: 'R-0003', longitude: 5.7198003, latitude: 45.1850419 },
  { id: 'R-0004', longitude: 5.7412377, latitude: 45.1970006 },
];

async function mapped(path: string, mapping: object): Promise<MappedTable> {
  return openMappedTable(path, parseMapping(path.replace(/\.[^.]+$/, '.mapping.json'), JSON.stringify(mapping)));
}

async function itemsOf(table: MappedTable['table']): Promise<Array<SourceRow | RowReadProblem>> {
  const items: Array<SourceRow | RowReadProblem> = [];
  for await (const item of table.rows()) items.push(item);
  return items;
}

describe('rows read: GeoJSON text sequences', () => {
  const folder = useTableFolder('spot-rows-geojsonseq-');

  for (const name of ['releves.geojsons', 'releves.geojsonl']) {
    it(`takes each feature's geometry as its place in ${name} (${name.endsWith('s') ? 'a record separator before each' : 'CRLF, a blank line, no last line break'}): no latitude or longitude columns needed`, async () => {
      const { table, problems, mapping } = await mapped(join(FIXTURES, name), { topic_id: 7, source_id: 'releve-{id}' });
      assert.deepEqual(
        problems.map((problem) => problem.message),
        [],
      );
      assert.equal(table.format.format, 'ndjson');
      assert.equal(table.hasGeometry, true);
      assert.deepEqual(table.columns, ['id', 'espece', 'nombre', 'date_obs', 'observateur', 'remarque']);
      assert.ok(mapping);
      const rows = (await itemsOf(table)).filter((item): item is SourceRow => !isRowReadProblem(item));
      assert.equal(rows.length, 4);
      for (const [i, row] of rows.entries()) {
        assert.equal(row.geometry?.type, 'Point');
        const spot = await rowToSpot(row, mapping);
        assert.deepEqual(spot.problems, []);
        const { attributes } = JSON.parse(spot.text).data;
        assert.deepEqual({ id: row.values.id, longitude: attributes.longitude, latitude: attributes.latitude }, EXPECTED[i]);
        assert.equal(attributes.source_id, `releve-${EXPECTED[i].id}`);
      }
    });
  }

  it('honours a crs member on the first feature, and says so of a line in another one', async () => {
    const crs = (code: number) => `"crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::${code}"}}`;
    const feature = (id: string, x: number, y: number, extra = '') =>
      `{"type": "Feature", ${extra}"properties": {"id": "${id}"}, "geometry": {"type": "Point", "coordinates": [${x}, ${y}]}}`;
    const text = [
      feature('a', 700000, 6600000, `${crs(2154)}, `),
      feature('b', 700000, 6600000),
      feature('c', 700000, 6600000, `${crs(2154)}, `),
      feature('d', 700000, 6600000, `${crs(3857)}, `),
    ].join('\n');
    const path = folder.write('lambert.geojsonl', text);
    const { table, problems, mapping } = await mapped(path, { topic_id: 7, source_id: 'x-{id}' });
    assert.deepEqual(problems, []);
    assert.equal(table.crs, 'EPSG:2154');
    assert.ok(mapping);
    const items = await itemsOf(table);
    assert.equal(items.length, 4);
    const [a, b, c, d] = items;
    for (const row of [a, b, c]) {
      assert.ok(!isRowReadProblem(row));
      // Lambert-93's origin is 3° E, 46.5° N by definition.
      const spot = await rowToSpot(row, mapping);
      const attributes = JSON.parse(spot.text).data.attributes as Record<string, unknown>;
      assert.deepEqual([attributes.longitude, attributes.latitude], [3, 46.5]);
    }
    assert.ok(isRowReadProblem(d));
    assert.deepEqual(d, {
      problem: "line 4 is in EPSG:3857, the lines before it in EPSG:2154: a file has one coordinate system (the first feature's crs)",
      ...positionOf(text, '{"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::3857"'),
      row: 4,
    });
  });

  it('keeps NDJSON of plain objects a table of columns: latitude and longitude are required there', async () => {
    const path = folder.write('obs.ndjson', '{"id": "a", "lat": 47.1, "lon": 11.4}\n{"id": "b", "lat": 47.2, "lon": 11.5}\n');
    const { table, problems } = await mapped(path, { topic_id: 7, source_id: 'x-{id}' });
    assert.notEqual(table.hasGeometry, true);
    assert.deepEqual(
      problems.map((problem) => problem.message.split(':')[0]),
      ['latitude is required', 'longitude is required'],
    );
  });
});
