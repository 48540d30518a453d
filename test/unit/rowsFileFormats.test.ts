// Which files are tables, and what a file of a format known and not read is: the one rule the
// command line and the editor ask (isTableFile), a .json told by its first bytes (a GeoJSON layer
// saved as .json is a table, a spot document stays one), a lone GeoJSON Feature read as a layer of
// one row, and the words for a KML, a GeoPackage, KoBoToolbox's API JSON and the like. Every
// expected position is found by searching the file's text in the test.
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { detectFormat, isTableFile, openTable, supportedTables, TableReadError } from '../../src/core/rows';
import { supportedArchiveEntries } from '../../src/core/rows/read/fileFormats';
import { sniffJsonText } from '../../src/core/rows/read/jsonSniff';
import { ALL_TABLE_EXTENSIONS, ARCHIVE_TABLE_EXTENSIONS, CONTENT_EXTENSIONS, TABLE_EXTENSIONS } from '../../src/core/rows/read/tableNames';
import { countFileReads } from './helpers/fileReads';
import { positionOf, readAll, useTableFolder } from './helpers/tableFiles';
import { writeZip } from './helpers/zipEntries';

const OAK = { type: 'Feature', id: 'a', properties: { Species: 'Oak' }, geometry: { type: 'Point', coordinates: [15.4395, 47.0707] } };
const COLLECTION = JSON.stringify({ type: 'FeatureCollection', features: [OAK] });
/** As QGIS writes a layer: name and crs before the features, one feature a line. */
const QGIS_COLLECTION = [
  '{',
  '"type": "FeatureCollection",',
  '"name": "trees",',
  '"crs": { "type": "name", "properties": { "name": "urn:ogc:def:crs:OGC:1.3:CRS84" } },',
  '"features": [',
  JSON.stringify(OAK),
  ']',
  '}',
  '',
].join('\n');
/** A lone feature as a tool exports one selected feature, pretty-printed. */
const FEATURE =
  JSON.stringify(
    { type: 'Feature', id: 'one', properties: { name: 'Solo', height: 12 }, geometry: { type: 'Point', coordinates: [16.3577, 48.2048] } },
    null,
    2,
  ) + '\n';
const SPOT = JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 7, source_id: 's-1', latitude: 47.07, longitude: 15.44 } } }, null, 2) + '\n';

describe('rows: which files are tables, and formats known and not read', () => {
  const folder = useTableFolder('spot-rows-formats-');

  it('a .json is a table by its first bytes: a FeatureCollection however its root begins, a Feature, one object per line; a spot document stays one', () => {
    const tables = {
      'fc.json': COLLECTION,
      'qgis.json': QGIS_COLLECTION,
      // The features before the type (a script's JSON.stringify of its own object).
      'features-first.json': JSON.stringify({ features: [OAK], type: 'FeatureCollection' }),
      'bom.json': `\uFEFF${COLLECTION}`,
      'feature.json': FEATURE,
      'lines.json': '{"id": 1, "lat": 47.07, "lon": 15.44}\n{"id": 2, "lat": 48.2, "lon": 16.37}\n',
    };
    for (const [name, text] of Object.entries(tables)) assert.equal(isTableFile(folder.write(name, text)), true, name);
    const notTables = {
      'spot.json': SPOT,
      'schema-first.json': JSON.stringify({ $schema: './spot.schema.json', data: { type: 'spots', attributes: {} } }),
      'one-line.json': `${JSON.stringify(JSON.parse(SPOT))}\n`,
      'bom-spot.json': `\uFEFF${SPOT}`,
      // Named for what it is: never read as a table, whatever it holds.
      'layer.spot.json': COLLECTION,
      'trees.mapping.json': COLLECTION,
      'settings.json': '{ "name": "x", "version": "1.0.0" }\n',
      'empty.json': '',
    };
    for (const [name, text] of Object.entries(notTables)) assert.equal(isTableFile(folder.write(name, text)), false, name);
    assert.equal(isTableFile(join(folder.dir(), 'missing.json')), false);
  });

  it('reads a .json once, and its first bytes only: a large spot document is not read whole, asked again it is not read again, changed it is read anew', async () => {
    const big = folder.write('big.json', SPOT.replace('"topic_id"', `"notes": "${'x'.repeat(4 * 1024 * 1024)}", "topic_id"`));
    const layer = folder.write('layer.json', COLLECTION);
    const reads = await countFileReads();
    try {
      for (let i = 0; i < 3; i++) {
        assert.equal(isTableFile(big), false);
        assert.equal(isTableFile(layer), true);
      }
      assert.equal(reads.of(big).opens, 1, 'opened once');
      assert.ok(reads.of(big).bytes <= 16 * 1024, `read ${reads.of(big).bytes} bytes`);
      assert.equal(reads.of(layer).opens, 1);
      // Changed (its size is other): looked at again.
      appendFileSync(layer, '\n');
      assert.equal(isTableFile(layer), true);
      assert.equal(reads.of(layer).opens, 2);
    } finally {
      reads.restore();
    }
  });

  it('tells JSON of a kind not read from a layer by its root members, wherever the text is cut', () => {
    assert.equal(sniffJsonText('{"count": 2, "next": null, "previous": null, "results": [{"_id": 1'), 'koboApi');
    assert.equal(sniffJsonText('[\n  {"id": "t1", "lat": 47.07'), 'jsonArray');
    assert.equal(
      sniffJsonText('{"displayFieldName": "", "geometryType": "esriGeometryPoint", "spatialReference": {"wkid": 4326}, "features": [{"attributes"'),
      'esriJson',
    );
    assert.equal(sniffJsonText('{"bbox": [1, 2, 3, 4], "features": [{"type": "Feature"'), 'geojson');
    // A member that says nothing, cut off before one that would: not known.
    assert.equal(sniffJsonText('{"name": "trees", "crs": {"type": "name", "properties": {"na'), undefined);
    // Brackets and braces inside strings are not the root's.
    assert.equal(sniffJsonText('{"note": "a } and a ]", "data": {"type": "spots"}}'), 'spot');
    assert.equal(sniffJsonText('{"note": "say \\"}\\" twice", "type": "Feature", "geometry": null}'), 'geojson');
  });

  it('reads a FeatureCollection saved as .json as the layer it is', async () => {
    const { table, rows, problems } = await readAll(folder.write('fc.json', QGIS_COLLECTION));
    assert.deepEqual(problems, []);
    assert.equal(table.format.format, 'geojson');
    assert.equal(table.crs, 'EPSG:4326');
    assert.deepEqual(table.columns, ['Species']);
    assert.deepEqual(
      rows.map((row) => [row.id?.value, row.values, row.geometry?.coordinates]),
      [['a', { Species: 'Oak' }, [15.4395, 47.0707]]],
    );
  });

  it("reads a lone Feature, pretty-printed, as a layer of one row: its id, properties and geometry as a collection's feature, each at its place", async () => {
    for (const name of ['single.geojson', 'single.json']) {
      const { table, rows, problems } = await readAll(folder.write(name, FEATURE));
      assert.deepEqual(problems, [], name);
      assert.equal(table.format.format, 'geojson', name);
      assert.equal(table.hasGeometry, true);
      assert.deepEqual(table.columns, ['name', 'height']);
      assert.equal(rows.length, 1, name);
      const [row] = rows;
      assert.equal(row.row, 1);
      assert.equal(row.line, 1);
      assert.deepEqual(row.values, { name: 'Solo', height: 12 });
      assert.deepEqual(row.cells, { name: positionOf(FEATURE, '"Solo"'), height: positionOf(FEATURE, '12') });
      assert.deepEqual(row.id, { value: 'one', position: positionOf(FEATURE, '"one"') });
      assert.deepEqual(row.geometry, { type: 'Point', coordinates: [16.3577, 48.2048], position: positionOf(FEATURE, '[\n      16.3577') });
      if (name.endsWith('.json')) assert.ok(table.detected.includes('format geojson (detected: a GeoJSON Feature)'), table.detected.join('; '));
    }
    // Its legacy crs is the layer's; a null geometry is said where it is.
    const withCrs =
      '{\r\n "type": "Feature",\r\n "crs": {"type": "name", "properties": {"name": "EPSG:31256"}},\r\n "properties": {"fid": 7},\r\n "geometry": null\r\n}\r\n';
    const { table, rows } = await readAll(folder.write('grid.geojson', withCrs));
    assert.equal(table.crs, 'EPSG:31256');
    assert.deepEqual(rows[0].noGeometryAt, positionOf(withCrs, 'null'));
    assert.equal(rows[0].id, undefined);
  });

  it('says what a file of a format known and not read is, and what to do in the tool that made it', async () => {
    const reasons: Record<string, [string | Uint8Array, RegExp]> = {
      'places.kml': [
        '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"></kml>',
        /^it is a KML file \(Google Earth, My Maps\), a format that is not read: export the layer as GeoJSON or CSV \(in QGIS: Export > Save Features As…\)$/,
      ],
      'places.kmz': [
        Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]),
        /^it is a KMZ file \(zipped KML: Google Earth, My Maps\), a format that is not read: export the layer as GeoJSON or CSV/,
      ],
      'track.gpx': [
        '<?xml version="1.0"?><gpx version="1.1"></gpx>',
        /^it is a GPS track file \(GPX\), a format that is not read: export its waypoints as GeoJSON or CSV/,
      ],
      'trees.ods': [
        Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]),
        /^it is an OpenDocument spreadsheet \(LibreOffice Calc\), a format that is not read: save it as \.xlsx or CSV/,
      ],
      'old.xls': [
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]),
        /^it is an Excel 97–2003 workbook \(\.xls\), a format that is not read: save it as \.xlsx/,
      ],
      'trees.gpkg': ['SQLite format 3\u0000', /^it is a GeoPackage, a format that is not read: export the layer as GeoJSON or a shapefile/],
      'kobo.json': [
        '{"count": 1, "next": null, "previous": null, "results": [{"_id": 1, "_geolocation": [47.07, 15.44]}]}',
        /^it is a reply of KoBoToolbox's API \(JSON\), a format that is not read: download the export as XLSX or CSV \(Project > Data > Downloads\)$/,
      ],
      'records.json': [
        '[\n  {"id": "t1", "lat": 47.07, "lon": 15.44}\n]\n',
        /^it is a JSON array of records, a format that is not read: save the records as CSV, or as one JSON object per line \(\.ndjson\)$/,
      ],
      'esri.json': [
        '{"geometryType": "esriGeometryPoint", "spatialReference": {"wkid": 4326}, "features": []}',
        /^it is an ArcGIS layer as Esri JSON \(not GeoJSON\)/,
      ],
    };
    for (const [name, [content, reason]] of Object.entries(reasons)) {
      const path = folder.write(name, content);
      assert.equal(isTableFile(path, true), false, name);
      await assert.rejects(openTable(path), (error) => {
        assert.ok(error instanceof TableReadError, name);
        assert.equal(error.path, path);
        assert.match(error.reason, reason, name);
        return true;
      });
    }
    // A FileGDB is a folder: not taken for a folder of photos.
    mkdirSync(join(folder.dir(), 'trees.gdb'));
    folder.write('trees.gdb/a00000001.gdbtable', 'x');
    await assert.rejects(
      openTable(join(folder.dir(), 'trees.gdb')),
      /: it is an Esri file geodatabase \(FileGDB\), a format that is not read: export the layer as GeoJSON or a shapefile/,
    );
    // In an archive: the entry (or folder of entries) that is one.
    await writeZip(join(folder.dir(), 'trees.gdb.zip'), { 'trees.gdb/a00000001.gdbtable': 'x', 'trees.gdb/gdb': 'x' });
    await assert.rejects(
      openTable(join(folder.dir(), 'trees.gdb.zip')),
      /trees\.gdb\.zip: the archive holds trees\.gdb\/, an Esri file geodatabase \(FileGDB\), a format that is not read: export the layer as GeoJSON or a shapefile/,
    );
    await writeZip(join(folder.dir(), 'export.zip'), { 'doc.kml': '<kml/>', 'images/a.jpg': 'x' });
    await assert.rejects(
      openTable(join(folder.dir(), 'export.zip')),
      /export\.zip: the archive holds doc\.kml, a KML file \(Google Earth, My Maps\), a format that is not read/,
    );
    // A mapping that names a format reads the file as that: a CSV some tool named .xls.
    const csv = folder.write('report.xls', 'id,lat,lon\n1,47.07,15.44\n');
    assert.deepEqual((await openTable(csv, { format: 'csv' })).columns, ['id', 'lat', 'lon']);
    // detectFormat (the sample alone) says the same of an archive's entry named so.
    assert.throws(() => detectFormat('places.kml', Buffer.from('<kml/>\n')), /places\.kml: it is a KML file/);
  });

  it('names every table the reader takes where a message says what to name', () => {
    assert.deepEqual(new Set(ALL_TABLE_EXTENSIONS), new Set([...TABLE_EXTENSIONS, ...CONTENT_EXTENSIONS]));
    const named = supportedTables();
    for (const extension of ALL_TABLE_EXTENSIONS) assert.match(named, new RegExp(`\\.${extension}\\b`), extension);
    assert.match(named, /folder of photos/);
    const inArchive = supportedArchiveEntries();
    for (const extension of ARCHIVE_TABLE_EXTENSIONS.filter((each) => !each.startsWith('xls')))
      assert.match(inArchive, new RegExp(`\\.${extension}\\b`), extension);
  });
});
