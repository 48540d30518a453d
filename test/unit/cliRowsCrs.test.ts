// The coordinate system of a GeoJSON file against its mapping, through the bundled command line:
// a QGIS layer in EPSG:31256 with a mapping saying EPSG:31257 validated with a warning per row and
// exit 0, and convert wrote the trees into the Black Forest; a layer in EPSG:2263 (not built in)
// repeated a 400-character message on every feature, and `spot-import mapping` said nothing of it.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { ensureCliBuilt, runCli, scratch } from './helpers/cliProcess';
import { GEOJSON_TEXT } from './helpers/rowsProject';

const E2263 =
  '{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::2263"}},"features":[' +
  '{"type":"Feature","properties":{"id":"x1"},"geometry":{"type":"Point","coordinates":[987000,200000]}},' +
  '{"type":"Feature","properties":{"id":"x2"},"geometry":{"type":"Point","coordinates":[987000,200000]}}]}\n';

describe('spot-import rows: the crs of a GeoJSON file and of its mapping', function () {
  this.timeout(60_000);
  before(() => ensureCliBuilt());

  it("validate and convert refuse a mapping's crs that disagrees with the file's, once, at the mapping's crs; nothing is written", async () => {
    const mapping = '{ "topic_id": 7, "source_id": "q-{fid}", "crs": "EPSG:31257" }\n';
    const project = scratch({ 'qgis31256.geojson': GEOJSON_TEXT, 'conflict.mapping.json': mapping });
    try {
      const checked = await runCli(['validate', 'qgis31256.geojson', '--mapping', 'conflict.mapping.json'], { cwd: project.dir });
      assert.equal(checked.code, 1, checked.stdout + checked.stderr);
      const column = mapping.indexOf('"EPSG:31257"') + 1;
      assert.equal(
        checked.stdout,
        `conflict.mapping.json:1:${column}: qgis31256.geojson says EPSG:31256 (its crs member), the mapping EPSG:31257: remove crs from the mapping or make it agree.\n`,
      );
      assert.match(checked.stderr, /The rows of qgis31256\.geojson were not checked: conflict\.mapping\.json has problems/);
      const converted = await runCli(['convert', 'qgis31256.geojson', '--mapping', 'conflict.mapping.json', '--out', 'spots'], { cwd: project.dir });
      assert.notEqual(converted.code, 0);
      assert.equal(existsSync(project.path('spots/q-1.spot.json')), false, 'no spot in the Black Forest');
    } finally {
      project.cleanup();
    }
  });

  it('a crs member that is not built in: mapping says to give the proj4 definition; validate says it once, not per feature', async () => {
    const project = scratch({ 'e2263.geojson': E2263 });
    try {
      const proposed = await runCli(['mapping', 'e2263.geojson'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      assert.match(
        proposed.stderr,
        /^- crs: the file's crs member says EPSG:2263, which is not built in: give the mapping "crs": \{ "proj4": "\+proj=… \+towgs84=…" \}, the definition of EPSG:2263 \(e\.g\. from `projinfo EPSG:2263 -o PROJ` or epsg\.io\)$/m,
      );
      const checked = await runCli(['validate', 'e2263.geojson'], { cwd: project.dir });
      assert.equal(checked.code, 1, checked.stderr);
      const lines = checked.stdout.trim().split('\n');
      assert.equal(lines.filter((line) => /EPSG:2263/.test(line)).length, 1, checked.stdout);
      assert.match(
        lines[0],
        /^e2263\.mapping\.json:1:1: e2263\.geojson says its coordinates are in EPSG:2263 \(its crs member\), which is not built in: give the mapping "crs": \{ "proj4": /,
      );
      assert.equal(/e2263\.geojson:\d+:\d+:/.test(checked.stdout), false, 'no row is blamed');

      // The advice followed (`projinfo EPSG:2263 -o PROJ`): the rows are read, in Lower Manhattan.
      const mapping = JSON.parse(readFileSync(project.path('e2263.mapping.json'), 'utf8')) as Record<string, unknown>;
      mapping.topic_id = 7;
      mapping.crs = {
        proj4:
          '+proj=lcc +lat_0=40.1666666666667 +lon_0=-74 +lat_1=41.0333333333333 +lat_2=40.6666666666667 +x_0=300000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs',
      };
      project.write('e2263.mapping.json', JSON.stringify(mapping, null, 2));
      const converted = await runCli(['convert', 'e2263.geojson', '--out', 'spots'], { cwd: project.dir });
      assert.equal(converted.code, 0, converted.stdout + converted.stderr);
      const spot = JSON.parse(readFileSync(project.path('spots/e2263-x1.spot.json'), 'utf8')) as {
        data: { attributes: { latitude: number; longitude: number } };
      };
      assert.deepEqual([spot.data.attributes.latitude, spot.data.attributes.longitude], [40.7156301, -73.9900799]);
    } finally {
      project.cleanup();
    }
  });
});
