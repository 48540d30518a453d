// spot-import on files whose names say little or too much: a GeoJSON layer saved as .json is a
// table for every command that takes one (a spot document .json stays a spot document), a lone
// pretty-printed Feature is a layer of one row, a table that cannot be read is named once in its
// message, and a file of a format known and not read (KML, KMZ, GPX, ODS, .xls, GeoPackage,
// FileGDB, KoBoToolbox's API JSON, an array of records) is said to be what it is, with what to do,
// by every command alike. Run as the bundled command line over real files.
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { ensureCliBuilt, runCli, scratch, spotText } from './helpers/cliProcess';
import { TRAIL_TOPIC } from './helpers/rowsProject';
import { writeZip } from './helpers/zipEntries';

const OAK = { type: 'Feature', id: 'a', properties: { Species: 'Oak' }, geometry: { type: 'Point', coordinates: [15.4395, 47.0707] } };
const BEECH = { type: 'Feature', id: 'b', properties: { Species: 'Beech' }, geometry: { type: 'Point', coordinates: [16.3577, 48.2048] } };
const COLLECTION = JSON.stringify({ type: 'FeatureCollection', features: [OAK, BEECH] });
const MAPPING = JSON.stringify({ topic_id: 7, source_id: 'k-{$id}', fields: { fld_7_1: 'Species' } });

type Project = ReturnType<typeof scratch>;

function project(files: Record<string, string | Buffer> = {}): Project {
  const made = scratch({ 'spot-topics/7.topic.json': readFileSync(TRAIL_TOPIC, 'utf8') });
  for (const [name, content] of Object.entries(files)) made.write(name, content);
  return made;
}

describe('spot-import rows: .json layers, lone features and formats not read', function () {
  this.timeout(60_000);
  let dir: Project;
  before(() => ensureCliBuilt());
  afterEach(() => dir?.cleanup());

  it('a FeatureCollection saved as .json: mapping proposes one, validate, import and convert read its rows, with its mapping beside it or named', async () => {
    dir = project({ 'fc.json': COLLECTION, 'notes.spot.json': spotText('s-1', { topic_id: 7, fld_7_1: 1 }) });
    const proposed = await runCli(['mapping', 'fc.json'], { cwd: dir.dir });
    assert.equal(proposed.code, 0, proposed.stderr);
    assert.match(proposed.stderr, /^- source: format geojson \(detected: a FeatureCollection\)$/m);
    assert.match(proposed.stderr, /^- latitude, longitude: each feature's Point geometry$/m);
    dir.write('fc.mapping.json', JSON.stringify({ source: { format: 'geojson' }, ...JSON.parse(MAPPING) }));
    const validated = await runCli(['validate', 'fc.json'], { cwd: dir.dir });
    assert.equal(validated.code, 0, validated.stderr);
    assert.match(validated.stderr, /^2 rows of fc\.json checked: all valid\.$/m);
    dir.write('other.mapping.json', MAPPING);
    const named = await runCli(['validate', 'fc.json', '--mapping', 'other.mapping.json'], { cwd: dir.dir });
    assert.equal(named.code, 0, named.stderr);
    assert.match(named.stderr, /^2 rows of fc\.json checked: all valid\.$/m);
    const dryRun = await runCli(['import', 'fc.json', '--dry-run'], { cwd: dir.dir });
    assert.equal(dryRun.code, 0, dryRun.stderr);
    assert.match(dryRun.stderr, /^Dry run: 2 of 2 rows of fc\.json would be imported; nothing was sent\.$/m);
    const converted = await runCli(['convert', 'fc.json', '--out', 'out'], { cwd: dir.dir });
    assert.equal(converted.code, 0, converted.stderr);
    assert.deepEqual(readdirSync(dir.path('out')).sort(), ['k-a.spot.json', 'k-b.spot.json']);
    // A spot document stays one, beside a layer or named with it.
    const both = await runCli(['validate', 'notes.spot.json'], { cwd: dir.dir });
    assert.equal(both.code, 0, both.stderr);
    assert.match(both.stderr, /^1 spot document checked: all valid\.$/m);
  });

  it('a spot document named .json is a spot document; asked for its mapping, it says so', async () => {
    dir = project({ 'oak.json': spotText('s-1', { topic_id: 7, fld_7_1: 1 }) });
    const validated = await runCli(['validate', 'oak.json'], { cwd: dir.dir });
    assert.equal(validated.code, 0, validated.stderr);
    assert.match(validated.stderr, /^1 spot document checked: all valid\.$/m);
    const mapping = await runCli(['mapping', 'oak.json'], { cwd: dir.dir });
    assert.equal(mapping.code, 2);
    assert.equal(
      mapping.stderr,
      'spot-import: "oak.json" is a spot document, not a table: spot-import validate oak.json checks it, spot-import import oak.json imports it.\n',
    );
  });

  it('a lone Feature, pretty-printed as on one line, is a layer of one row; a layer that cannot be read is named once', async () => {
    const feature = JSON.stringify(
      { type: 'Feature', id: 'one', properties: { Species: 'Oak' }, geometry: { type: 'Point', coordinates: [16.3577, 48.2048] } },
      null,
      2,
    );
    dir = project({
      'single.geojson': feature,
      'single.mapping.json': MAPPING,
      'topology.geojson': '{\n  "type": "Topology",\n  "objects": {}\n}\n',
      'topology.mapping.json': MAPPING,
      'empty.csv': '',
      'empty.mapping.json': MAPPING,
    });
    const validated = await runCli(['validate', 'single.geojson'], { cwd: dir.dir });
    assert.equal(validated.code, 0, validated.stderr);
    assert.match(validated.stderr, /^1 row of single\.geojson checked: all valid\.$/m);
    const converted = await runCli(['convert', 'single.geojson', '--out', 'out'], { cwd: dir.dir });
    assert.equal(converted.code, 0, converted.stderr);
    const spot = JSON.parse(readFileSync(dir.path('out/k-one.spot.json'), 'utf8')) as { data: { attributes: Record<string, unknown> } };
    assert.deepEqual([spot.data.attributes.latitude, spot.data.attributes.longitude, spot.data.attributes.fld_7_1], [48.2048, 16.3577, 1]);
    for (const args of [
      ['validate', 'topology.geojson'],
      ['import', 'topology.geojson', '--dry-run'],
      ['convert', 'topology.geojson', '--out', 'out'],
    ]) {
      const result = await runCli(args, { cwd: dir.dir });
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(result.stderr, 'spot-import: topology.geojson:2:11: it is not a GeoJSON FeatureCollection: its type is "Topology"\n', args.join(' '));
    }
    // Every reason a table cannot be read at all, with a place or without.
    const empty = await runCli(['validate', 'empty.csv'], { cwd: dir.dir });
    assert.equal(empty.stderr, 'spot-import: empty.csv: the file is empty\n');
  });

  it('a file of a format known and not read says what it is and what to do, in every command alike', async () => {
    const zipHeader = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);
    dir = project({
      'places.kml': '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>\n',
      // A mapping beside it changes nothing: it is still a KML.
      'places.mapping.json': MAPPING,
      'track.gpx': '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="test"></gpx>\n',
      'places.kmz': zipHeader,
      'trees.ods': zipHeader,
      'trees.gpkg': Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(84)]),
      'old.xls': Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]),
      'trees.gdb/a00000001.gdbtable': 'x',
      'kobo-api.json': '{"count": 1, "next": null, "previous": null, "results": [\n {"_id": 1, "_uuid": "aa-1", "_geolocation": [47.07, 15.44]}\n]}\n',
      'arr.json': '[\n  {"id": "t1", "lat": 47.0707, "lon": 15.4395}\n]\n',
    });
    await writeZip(dir.path('trees.gdb.zip'), { 'trees.gdb/a00000001.gdbtable': 'x', 'trees.gdb/gdb': 'x' });
    const said: Record<string, string> = {
      'places.kml':
        'it is a KML file (Google Earth, My Maps), a format that is not read: export the layer as GeoJSON or CSV (in QGIS: Export > Save Features As…).',
      'track.gpx':
        'it is a GPS track file (GPX), a format that is not read: export its waypoints as GeoJSON or CSV (in QGIS: open it, then Export > Save Features As… on its waypoints layer).',
      'places.kmz':
        'it is a KMZ file (zipped KML: Google Earth, My Maps), a format that is not read: export the layer as GeoJSON or CSV (in QGIS: Export > Save Features As…).',
      'trees.ods': 'it is an OpenDocument spreadsheet (LibreOffice Calc), a format that is not read: save it as .xlsx or CSV (File > Save As…).',
      'trees.gpkg': 'it is a GeoPackage, a format that is not read: export the layer as GeoJSON or a shapefile (in QGIS: Export > Save Features As…).',
      'old.xls': 'it is an Excel 97–2003 workbook (.xls), a format that is not read: save it as .xlsx (File > Save As > Excel Workbook) or as CSV.',
      'trees.gdb':
        'it is an Esri file geodatabase (FileGDB), a format that is not read: export the layer as GeoJSON or a shapefile (in QGIS: Export > Save Features As…).',
      'kobo-api.json': "it is a reply of KoBoToolbox's API (JSON), a format that is not read: download the export as XLSX or CSV (Project > Data > Downloads).",
      'arr.json': 'it is a JSON array of records, a format that is not read: save the records as CSV, or as one JSON object per line (.ndjson).',
    };
    for (const [file, reason] of Object.entries(said)) {
      for (const args of [
        ['validate', file],
        ['mapping', file],
        ['import', file, '--dry-run'],
        ['convert', file, '--out', 'out'],
      ]) {
        const result = await runCli(args, { cwd: dir.dir });
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.equal(result.stderr, `spot-import: ${file}: ${reason}\n`, args.join(' '));
      }
    }
    // Several at once: one line each.
    const several = await runCli(['validate', 'places.kml', 'track.gpx'], { cwd: dir.dir });
    assert.equal(several.stderr, `spot-import: places.kml: ${said['places.kml']}\nspot-import: track.gpx: ${said['track.gpx']}\n`);
    // A zipped FileGDB: validate, import and convert say what mapping says, not to run mapping.
    const archived =
      'the archive holds trees.gdb/, an Esri file geodatabase (FileGDB), a format that is not read: export the layer as GeoJSON or a shapefile (in QGIS: Export > Save Features As…)';
    const validated = await runCli(['validate', 'trees.gdb.zip'], { cwd: dir.dir });
    assert.equal(validated.stderr, `spot-import: trees.gdb.zip: ${archived}.\n`);
    for (const args of [
      ['mapping', 'trees.gdb.zip'],
      ['convert', 'trees.gdb.zip', '--out', 'out'],
      ['import', 'trees.gdb.zip', '--dry-run'],
    ]) {
      const result = await runCli(args, { cwd: dir.dir });
      assert.equal(result.stderr, `spot-import: trees.gdb.zip: ${archived}.\n`, args.join(' '));
    }
    assert.deepEqual(
      readdirSync(dir.dir).filter((name) => name.endsWith('.mapping.json')),
      ['places.mapping.json'],
      'no mapping was written',
    );
  });

  it('a file that is no table at all gets the whole list of what is read', async () => {
    dir = project({ 'notes.docx': 'x' });
    mkdirSync(dir.path('empty'));
    const list =
      'a CSV or TSV file (.csv, .tsv, .tab, .txt, .dat), a GeoJSON layer (.geojson, .json), an NDJSON file (.ndjson, .jsonl, .geojsonl, .geojsons, .json), an Excel workbook (.xlsx, .xlsm), a shapefile (.shp), a ZIP archive holding one of these (.zip), or a folder of photos';
    const mapping = await runCli(['mapping', 'notes.docx'], { cwd: dir.dir });
    assert.equal(mapping.stderr, `spot-import: "notes.docx" is not a table: name ${list}.\n`);
    const converted = await runCli(['convert', 'empty', '--out', 'out'], { cwd: dir.dir });
    assert.equal(converted.stderr, `spot-import: "empty" is not a table: name ${list}.\n`);
    dir.write('m.mapping.json', MAPPING);
    const named = await runCli(['validate', 'empty', '--mapping', 'm.mapping.json'], { cwd: dir.dir });
    assert.equal(named.stderr, `spot-import: --mapping names the mapping of one table: name exactly one table with it, ${list}.\n`);
  });
});
