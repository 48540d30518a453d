// A file that names its own coordinate system (a QGIS GeoJSON's legacy crs member, a shapefile's
// .prj) and a mapping that names another: the mapping's crs won, without a word, and every spot
// of a layer in EPSG:31256 (Vienna) read as 31257 landed 600 km west, in the Black Forest, with a
// warning per row at most. Now the disagreement is one error of the mapping, at its crs; the same
// system written another way (urn, CRS84, an old number of Web Mercator) is no disagreement, and a
// proj4 definition is taken as the file's system given by hand. A file's crs that is not built in
// (EPSG:2263) was said on every feature, 400 characters each; now once, at the mapping, with the
// way out: the mapping's crs as { "proj4": "…" }.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkRows, guessMapping, openMappedTable, parseMapping, previewForMapping, type CheckedRow, type MappedTable } from '../../src/core/rows';
import { GEOJSON_TEXT, GEOJSON_TREES } from './helpers/rowsProject';
import { writeShapefile } from './helpers/shapefileWriter';
import { useTableFolder } from './helpers/tableFiles';

/** What ArcGIS writes for EPSG:31256 (no AUTHORITY: known by its name). */
const ESRI_GK_EAST =
  'PROJCS["MGI_Austria_GK_East",GEOGCS["GCS_MGI",DATUM["D_MGI",SPHEROID["Bessel_1841",6377397.155,299.1528128]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",-5000000.0],PARAMETER["Central_Meridian",16.33333333333333],PARAMETER["Scale_Factor",1.0],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';

/** EPSG:2263 (NAD83 / New York Long Island, US survey feet), as `projinfo EPSG:2263 -o PROJ` gives it. */
const NY_LONG_ISLAND =
  '+proj=lcc +lat_0=40.1666666666667 +lon_0=-74 +lat_1=41.0333333333333 +lat_2=40.6666666666667 +x_0=300000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs';

/** A FeatureCollection of points with a crs member named `name`. */
function collection(name: string, points: Array<[number, number]>): string {
  const features = points.map(
    ([x, y], index) => `{"type":"Feature","properties":{"id":"p${index + 1}"},"geometry":{"type":"Point","coordinates":[${x},${y}]}}`,
  );
  return `{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"${name}"}},"features":[\n${features.join(',\n')}\n]}\n`;
}

describe('rows: the coordinate system a file names, against the mapping', () => {
  const folder = useTableFolder('rows-crs-');

  async function mapped(table: string, mapping: object): Promise<{ opened: MappedTable; mappingText: string }> {
    const mappingText = JSON.stringify(mapping, null, 2);
    const opened = await openMappedTable(table, parseMapping(join(folder.dir(), 'layer.mapping.json'), mappingText));
    return { opened, mappingText };
  }

  async function rowsOf(opened: MappedTable): Promise<CheckedRow[]> {
    const rows: CheckedRow[] = [];
    for await (const row of checkRows(opened.table, opened.mapping!, {})) rows.push(row);
    return rows;
  }

  it("a QGIS layer in EPSG:31256 whose mapping says EPSG:31257: one error at the mapping's crs, and no row is read in either", async () => {
    const table = folder.write('kataster.geojson', GEOJSON_TEXT);
    const { opened, mappingText } = await mapped(table, { topic_id: 12, source_id: 'qgis-{fid}', crs: 'EPSG:31257' });
    assert.deepEqual(
      opened.problems.map(({ message, severity, rule }) => ({ message, severity, rule })),
      [
        {
          message: 'kataster.geojson says EPSG:31256 (its crs member), the mapping EPSG:31257: remove crs from the mapping or make it agree.',
          severity: 'error',
          rule: 'mapping.crs',
        },
      ],
    );
    assert.equal(opened.problems[0].offset, mappingText.indexOf('"EPSG:31257"'), "at the mapping's crs");
    assert.equal(opened.mapping, undefined, 'the rows are not read');

    // The advice followed: without crs, the file's own system places the trees in Vienna and Styria.
    const agreed = await mapped(table, { topic_id: 12, source_id: 'qgis-{fid}' });
    assert.deepEqual(agreed.opened.problems, []);
    const rows = await rowsOf(agreed.opened);
    rows.forEach((row, index) => {
      assert.ok(row.ok, JSON.stringify(row.findings));
      const { latitude, longitude } = (JSON.parse(row.spot!.text) as { data: { attributes: { latitude: number; longitude: number } } }).data.attributes;
      assert.ok(
        Math.abs(latitude - GEOJSON_TREES[index].latitude) < 1e-6 && Math.abs(longitude - GEOJSON_TREES[index].longitude) < 1e-6,
        `${latitude} ${longitude}`,
      );
    });
  });

  it('a mapping that names the same system is no disagreement: urn, http, CRS84 and OGC:CRS84 forms, an old number of Web Mercator', async () => {
    const vienna: Array<[number, number]> = [[16.3738, 48.2082]];
    const mercator: Array<[number, number]> = [[1822723.078, 6141562.054]];
    for (const [name, points, crs] of [
      ['urn:ogc:def:crs:EPSG::4326', vienna, 'EPSG:4326'],
      ['urn:ogc:def:crs:OGC:1.3:CRS84', vienna, 'EPSG:4326'],
      ['OGC:CRS84', vienna, 'EPSG:4326'],
      ['http://www.opengis.net/def/crs/EPSG/0/4326', vienna, 'EPSG:4326'],
      ['urn:ogc:def:crs:EPSG::3857', mercator, 'EPSG:3857'],
      ['EPSG:900913', mercator, 'EPSG:3857'],
      ['urn:ogc:def:crs:EPSG::3857', mercator, 'EPSG:900913'],
    ] as const) {
      const table = folder.write('layer.geojson', collection(name, [...points]));
      const { opened } = await mapped(table, { topic_id: 7, source_id: 't-{id}', crs });
      assert.deepEqual(
        opened.problems.map((problem) => problem.message),
        [],
        `${name} against ${crs}`,
      );
      const [row] = await rowsOf(opened);
      assert.ok(row.ok, `${name} against ${crs}: ${JSON.stringify(row.findings)}`);
      const { latitude, longitude } = (JSON.parse(row.spot!.text) as { data: { attributes: { latitude: number; longitude: number } } }).data.attributes;
      assert.ok(Math.abs(latitude - 48.2082) < 1e-3 && Math.abs(longitude - 16.3738) < 1e-3, `${name} against ${crs}: ${latitude} ${longitude}`);
    }
    // ETRS89 is not WGS 84, though within a metre of it: different codes are said.
    const table = folder.write('layer.geojson', collection('urn:ogc:def:crs:EPSG::4258', vienna));
    const { opened } = await mapped(table, { topic_id: 7, source_id: 't-{id}', crs: 'EPSG:4326' });
    assert.deepEqual(
      opened.problems.map((problem) => problem.message),
      ['layer.geojson says EPSG:4258 (its crs member), the mapping EPSG:4326: remove crs from the mapping or make it agree.'],
    );
  });

  it("a mapping's proj4 definition is the file's system given by hand (a datum shift of its own): no disagreement", async () => {
    const table = folder.write('kataster.geojson', GEOJSON_TEXT);
    const proj4 =
      '+proj=tmerc +lat_0=0 +lon_0=16.3333333333333 +k=1 +x_0=0 +y_0=-5000000 +ellps=bessel +towgs84=577.326,90.129,463.919,5.137,1.474,5.297,2.4232 +units=m +no_defs';
    const { opened } = await mapped(table, { topic_id: 12, source_id: 'qgis-{fid}', crs: { proj4 } });
    assert.deepEqual(opened.problems, []);
    assert.deepEqual(opened.mapping!.crs, { proj4 });
    assert.ok((await rowsOf(opened)).every((row) => row.ok));
  });

  it("a shapefile's .prj (ArcGIS's MGI_Austria_GK_East) against a mapping's EPSG:31257: the error names the .prj", async () => {
    const base = join(folder.dir(), 'baeume');
    writeShapefile(base, {
      shapes: [{ point: [-2500, 340000] }],
      fields: ['FID'],
      records: [['b-1']],
      encode: (text) => Buffer.from(text, 'utf8'),
      prj: ESRI_GK_EAST,
    });
    const { opened, mappingText } = await mapped(`${base}.shp`, { topic_id: 12, source_id: 'shp-{FID}', crs: 'EPSG:31257' });
    assert.deepEqual(
      opened.problems.map(({ message, rule }) => ({ message, rule })),
      [{ message: 'baeume.shp says EPSG:31256 (baeume.prj), the mapping EPSG:31257: remove crs from the mapping or make it agree.', rule: 'mapping.crs' }],
    );
    assert.equal(opened.problems[0].offset, mappingText.indexOf('"EPSG:31257"'));
    const agreeing = await mapped(`${base}.shp`, { topic_id: 12, source_id: 'shp-{FID}', crs: 'EPSG:31256' });
    assert.deepEqual(agreeing.opened.problems, []);
    assert.ok((await rowsOf(agreeing.opened)).every((row) => row.ok));
  });

  it("a mapping that reads its places from columns, not the file's geometry: its crs is theirs, no disagreement with the .prj", async () => {
    // An attribute table in GK East whose surveyors also wrote each tree's GPS degrees (WGS 84) as columns.
    const base = join(folder.dir(), 'gps');
    writeShapefile(base, {
      shapes: [{ point: [-2500, 340000] }],
      fields: ['FID', 'GPS_LAT', 'GPS_LON'],
      records: [['g-1', '48.2048', '16.3577']],
      encode: (text) => Buffer.from(text, 'utf8'),
      prj: ESRI_GK_EAST,
    });
    const { opened } = await mapped(`${base}.shp`, { topic_id: 12, source_id: 'gps-{FID}', latitude: 'GPS_LAT', longitude: 'GPS_LON', crs: 'EPSG:4326' });
    assert.deepEqual(opened.problems, []);
    const [row] = await rowsOf(opened);
    assert.ok(row.ok, JSON.stringify(row.findings));
    const { latitude, longitude } = (JSON.parse(row.spot!.text) as { data: { attributes: { latitude: number; longitude: number } } }).data.attributes;
    assert.deepEqual([latitude, longitude], [48.2048, 16.3577]);
  });

  it('a crs member that is not built in (EPSG:2263): said once, at the mapping, with the proj4 way out; the proposed mapping says it too; the definition given, the rows are read', async () => {
    const table = folder.write(
      'e2263.geojson',
      collection('urn:ogc:def:crs:EPSG::2263', [
        [987000, 200000],
        [987000, 200000],
        [988000, 201000],
      ]),
    );
    const { opened } = await mapped(table, { topic_id: 7, source_id: 'e2263-{id}' });
    assert.equal(opened.problems.length, 1, JSON.stringify(opened.problems));
    const [problem] = opened.problems;
    assert.equal(problem.rule, 'mapping.crs');
    assert.equal(problem.severity, 'error');
    assert.match(
      problem.message,
      /^e2263\.geojson says its coordinates are in EPSG:2263 \(its crs member\), which is not built in: give the mapping "crs": \{ "proj4": "\+proj=… \+towgs84=…" \}, the definition of EPSG:2263 \(e\.g\. from `projinfo EPSG:2263 -o PROJ` or epsg\.io\), and the file is read in it\. Built in: EPSG 2056, .*31254–31259, .*\.$/,
    );
    assert.equal(problem.offset, 0, 'at the mapping, not at a row');
    assert.equal(opened.mapping, undefined);

    // The same code named by the mapping is said once too, at its crs.
    const named = await mapped(table, { topic_id: 7, source_id: 'e2263-{id}', crs: 'EPSG:2263' });
    assert.equal(named.opened.problems.length, 1);
    assert.match(named.opened.problems[0].message, /^EPSG:2263 is not built in \(built in: /);
    assert.equal(named.opened.problems[0].offset, named.mappingText.indexOf('"EPSG:2263"'));

    const preview = await previewForMapping(table);
    const { notes } = await guessMapping(preview.table, preview.sample);
    assert.ok(
      notes.includes(
        'crs: the file\'s crs member says EPSG:2263, which is not built in: give the mapping "crs": { "proj4": "+proj=… +towgs84=…" }, the definition of EPSG:2263 (e.g. from `projinfo EPSG:2263 -o PROJ` or epsg.io)',
      ),
      notes.join('\n'),
    );

    const given = await mapped(table, { topic_id: 7, source_id: 'e2263-{id}', crs: { proj4: NY_LONG_ISLAND } });
    assert.deepEqual(given.opened.problems, []);
    const rows = await rowsOf(given.opened);
    assert.ok(
      rows.every((row) => row.ok),
      JSON.stringify(rows.map((row) => row.findings)),
    );
    // Lower Manhattan (cs2cs with the definition above: 40.715630 -73.990080).
    const { latitude, longitude } = (JSON.parse(rows[0].spot!.text) as { data: { attributes: { latitude: number; longitude: number } } }).data.attributes;
    assert.ok(Math.abs(latitude - 40.71563) < 1e-4 && Math.abs(longitude + 73.99008) < 1e-4, `${latitude} ${longitude}`);
  });
});
