// The table reader on GeoJSON (a FeatureCollection as QGIS writes it, with its legacy crs member)
// and NDJSON (one object per line, GeoJSON features among them). Every expected position is found
// by searching the file's text in the test: a value's position is its first character.
import * as assert from 'node:assert/strict';
import { TableReadError, isRowReadProblem, openTable } from '../../src/core/rows';
import { positionOf, readAll, useTableFolder } from './helpers/tableFiles';

/** A FeatureCollection as QGIS exports one in a national grid (MGI / Austria GK East). */
function qgisExport(crs: unknown, features: string[]): string {
  return [
    '{',
    '"type": "FeatureCollection",',
    '"name": "beobachtungen",',
    ...(crs === undefined ? [] : [`"crs": ${JSON.stringify(crs)},`]),
    '"features": [',
    features.join(',\r\n'),
    ']',
    '}',
    '',
  ].join('\r\n');
}

const LINDE =
  '{ "type": "Feature", "id": "baum-7", "properties": { "name": "Linde", "höhe": 12.5, "gepflanzt": "1921-04-01", "tags": ["alt", "Naturdenkmal"] }, "geometry": { "type": "Point", "coordinates": [ -2631.25, 341234.5 ] } }';
const EICHE = '{ "type": "Feature", "properties": { "name": "Eiche", "höhe": null, "umfang": 410 }, "geometry": null }';

describe('rows read: GeoJSON and NDJSON', () => {
  const folder = useTableFolder('spot-rows-json-');

  it('reads a FeatureCollection with a legacy crs member: properties as values, geometry and id kept, positions of every value', async () => {
    const text = qgisExport({ type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::31256' } }, [LINDE, EICHE]);
    const { table, rows, problems } = await readAll(folder.write('baeume.geojson', text));

    assert.deepEqual(table.format, { format: 'geojson', encoding: 'utf-8' });
    assert.equal(table.crs, 'EPSG:31256');
    assert.deepEqual(table.columns, ['name', 'höhe', 'gepflanzt', 'tags', 'umfang']);
    assert.deepEqual(problems, []);
    assert.equal(rows.length, 2);

    const [linde, eiche] = rows;
    assert.deepEqual(linde.values, { name: 'Linde', höhe: 12.5, gepflanzt: '1921-04-01', tags: ['alt', 'Naturdenkmal'] });
    assert.deepEqual([linde.row, linde.line], [1, positionOf(text, LINDE).line]);
    assert.deepEqual(linde.cells, {
      name: positionOf(text, '"Linde"'),
      höhe: positionOf(text, '12.5'),
      gepflanzt: positionOf(text, '"1921-04-01"'),
      tags: positionOf(text, '["alt"'),
    });
    assert.deepEqual(linde.geometry, { type: 'Point', coordinates: [-2631.25, 341234.5], position: positionOf(text, '[ -2631.25') });
    assert.deepEqual(linde.id, { value: 'baum-7', position: positionOf(text, '"baum-7"') });

    assert.deepEqual(eiche.values, { name: 'Eiche', höhe: null, umfang: 410 });
    assert.deepEqual(eiche.cells.umfang, positionOf(text, '410'));
    assert.equal(eiche.geometry, undefined, 'a null geometry is left out');
    assert.equal(eiche.id, undefined);
  });

  it('reads the legacy crs in each of its forms, and refuses one it cannot read, at the member', async () => {
    const crsOf = async (crs: unknown) => (await openTable(folder.write('crs.geojson', qgisExport(crs, [EICHE])))).crs;
    assert.equal(await crsOf({ type: 'name', properties: { name: 'EPSG:31256' } }), 'EPSG:31256');
    assert.equal(await crsOf({ type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG:6.6:25832' } }), 'EPSG:25832');
    assert.equal(await crsOf({ type: 'name', properties: { name: 'http://www.opengis.net/def/crs/EPSG/0/31254' } }), 'EPSG:31254');
    assert.equal(await crsOf({ type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } }), 'EPSG:4326');
    assert.equal(await crsOf({ type: 'EPSG', properties: { code: 25833 } }), 'EPSG:25833');
    assert.equal(await crsOf(undefined), undefined);
    assert.equal(await crsOf(null), undefined);

    const text = qgisExport({ type: 'link', properties: { href: 'http://example.org/crs', type: 'proj4' } }, [EICHE]);
    const path = folder.write('link.geojson', text);
    const at = positionOf(text, '{"type":"link"');
    await assert.rejects(openTable(path), (error) => {
      assert.ok(error instanceof TableReadError);
      assert.deepEqual(error.position, at);
      assert.ok(error.message.startsWith(`${path}:${at.line}:${at.column}: its crs member is not one this reader knows`), error.message);
      return true;
    });
  });

  it('refuses a GeoJSON that is neither a FeatureCollection nor a Feature, not JSON or not in its encoding, where it goes wrong', async () => {
    const topology = '{\n  "type": "Topology",\n  "objects": {}\n}\n';
    await assert.rejects(openTable(folder.write('topology.geojson', topology)), (error) => {
      assert.ok(error instanceof TableReadError);
      assert.equal(error.reason, 'it is not a GeoJSON FeatureCollection: its type is "Topology"');
      assert.deepEqual(error.position, positionOf(topology, '"Topology"'));
      return true;
    });
    const broken = '{"type": "FeatureCollection", "features": [\n  {"type": "Feature", "properties": {"a": 1,}, "geometry": null}\n]}';
    await assert.rejects(openTable(folder.write('broken.geojson', broken)), (error) => {
      assert.ok(error instanceof TableReadError);
      assert.match(error.reason, /^it is not valid JSON: /);
      assert.equal(error.position?.line, 2);
      return true;
    });
    // Saved in windows-1252: read as such when not told otherwise; told UTF-8, refused at the first bad byte.
    const latin = '{"type": "FeatureCollection", "features": [\n{"type": "Feature", "properties": {"name": "Größe"}, "geometry": null}\n]}';
    const latinPath = folder.write('latin.geojson', Buffer.from(latin, 'latin1'));
    const { table, rows } = await readAll(latinPath);
    assert.equal(table.format.encoding, 'windows-1252');
    assert.deepEqual(rows[0].values, { name: 'Größe' });
    await assert.rejects(openTable(latinPath, { encoding: 'utf-8' }), (error) => {
      assert.ok(error instanceof TableReadError);
      assert.match(error.reason, /^its encoding is given as utf-8, but the bytes at line 2, column \d+ are not utf-8: they look like windows-1252/);
      assert.deepEqual(error.position, positionOf(latin, 'ö'));
      return true;
    });
    const notArray = '{"type": "FeatureCollection", "features": {}}';
    await assert.rejects(openTable(folder.write('object.geojson', notArray)), /its features are not an array: they are an object$/);
  });

  it('reports a feature that cannot be read at the feature, and reads the others', async () => {
    const features = [
      '{ "type": "Feature", "properties": { "n": 1 }, "geometry": null }',
      '42',
      '{ "type": "Point", "coordinates": [1, 2] }',
      '{ "type": "Feature", "properties": { "n": 2, "n": 3 }, "geometry": null }',
      '{ "type": "Feature", "properties": { "n": 4 }, "geometry": { "coordinates": [1, 2] } }',
      '{ "type": "Feature", "properties": { "n": 5 }, "geometry": null }',
    ];
    const text = qgisExport(undefined, features);
    const { items } = await readAll(folder.write('mixed.geojson', text));
    assert.equal(items.length, 6);
    assert.deepEqual(
      items.map((item) => (isRowReadProblem(item) ? { problem: item.problem, row: item.row, line: item.line, column: item.column } : item.values)),
      [
        { n: 1 },
        { problem: 'feature 2 is not a GeoJSON Feature: it is the number 42', row: 2, ...positionOf(text, '42') },
        { problem: 'feature 3 is not a GeoJSON Feature: its type is "Point"', row: 3, ...positionOf(text, '"Point"') },
        { problem: 'feature 4 names the property "n" twice', row: 4, ...positionOf(text, '"n"', 3) },
        { problem: 'feature 5 has a geometry without a type', row: 5, ...positionOf(text, '{ "coordinates"') },
        { n: 5 },
      ],
    );
  });

  it('a value nested thousands deep is a problem of its feature or line, not a crash; the others are read', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const features = [
      '{ "type": "Feature", "properties": { "n": 1 }, "geometry": null }',
      `{ "type": "Feature", "properties": { "n": 2, "deep": ${deep} }, "geometry": null }`,
      '{ "type": "Feature", "properties": { "n": 3 }, "geometry": null }',
    ];
    const geojson = qgisExport(undefined, features);
    const read = await readAll(folder.write('deep.geojson', geojson));
    assert.deepEqual(
      read.items.map((item) => (isRowReadProblem(item) ? `${item.row}: ${item.problem}` : item.values.n)),
      [1, '2: feature 2 is nested deeper than 64 levels: it is not read', 3],
    );
    const ndjson = ['{"n": 1}', `{"n": 2, "deep": ${deep}}`, '{"n": 3}'].join('\n');
    const lines = await readAll(folder.write('deep.ndjson', ndjson));
    assert.deepEqual(
      lines.items.map((item) => (isRowReadProblem(item) ? `${item.line}: ${item.problem}` : item.values.n)),
      [1, '2: line 2 is nested deeper than 64 levels: it is not read', 3],
    );
  });

  it('reads NDJSON a line at a time: objects as rows, GeoJSON features as features, a bad line as a problem of its row', async () => {
    const text = [
      '{"id": "a", "lat": 47.2692, "lon": 11.3933}',
      '',
      '{"id": "b", "lat": 47.1, "extra": {"nested": true}}',
      '{"id": "c", "lat": }',
      '["not", "an", "object"]',
      '\u001e{"type": "Feature", "properties": {"id": "d"}, "geometry": {"type": "Point", "coordinates": [11.4, 47.3]}}',
      '{"id": "e"}',
    ].join('\r\n');
    const { table, items } = await readAll(folder.write('obs.ndjson', text));
    assert.deepEqual(table.format, { format: 'ndjson', encoding: 'utf-8' });
    assert.deepEqual(table.columns, ['id', 'lat', 'lon', 'extra']);
    assert.equal(items.length, 6);
    const [a, b, c, notObject, d, e] = items;

    assert.ok(!isRowReadProblem(a));
    assert.deepEqual([a.row, a.line, a.values], [1, 1, { id: 'a', lat: 47.2692, lon: 11.3933 }]);
    assert.deepEqual(a.cells, { id: positionOf(text, '"a"'), lat: positionOf(text, '47.2692'), lon: positionOf(text, '11.3933') });
    assert.ok(!isRowReadProblem(b));
    assert.deepEqual([b.row, b.line, b.values.extra, b.cells.extra], [2, 3, { nested: true }, positionOf(text, '{"nested"')]);

    assert.ok(isRowReadProblem(c));
    assert.equal(c.problem, 'line 4 is not JSON: value expected');
    assert.deepEqual([c.row, c.line, c.column], [3, 4, '{"id": "c", "lat": }'.indexOf('}') + 1]);
    assert.ok(isRowReadProblem(notObject));
    assert.deepEqual([notObject.problem, notObject.row, notObject.line, notObject.column], ['line 5 is not a JSON object: it is an array', 4, 5, 1]);

    assert.ok(!isRowReadProblem(d));
    assert.deepEqual([d.row, d.line, d.values], [5, 6, { id: 'd' }]);
    assert.deepEqual(d.cells.id, positionOf(text, '"d"'), 'columns count the record separator before the JSON');
    assert.deepEqual(d.geometry, { type: 'Point', coordinates: [11.4, 47.3], position: positionOf(text, '[11.4') });
    assert.ok(!isRowReadProblem(e));
    assert.deepEqual([e.row, e.line], [6, 7]);
  });
});
