// spot-import on a shapefile layer as a colleague hands one over (points, a .prj, a .cpg): mapping
// takes the places from the geometry, validate names a problem by its feature
// (baeume.shp:feature 2), import sends the valid features, and a second run sends nothing.
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { createWriteStream, existsSync, readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { ZipFile } from 'yazl';
import { jsonLines, runCli, scratch, useCliSandbox } from './helpers/cliProcess';
import { validateJsonLine } from './helpers/cliSchemas';
import { writeShapefile } from './helpers/shapefileWriter';
import { GEOJSON_TREES } from './helpers/rowsProject';
import { writeZip } from './helpers/zipEntries';

const TOPIC = { topic_id: 12, name: 'Baumkataster', fields: { fld_12_2: { label: 'Höhe (m)', type: 'number', minimum: 0, maximum: 120 } } };
/** What ArcGIS writes for EPSG:31256 (no AUTHORITY: known by its name). */
const ESRI_GK_EAST =
  'PROJCS["MGI_Austria_GK_East",GEOGCS["GCS_MGI",DATUM["D_MGI",SPHEROID["Bessel_1841",6377397.155,299.1528128]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",-5000000.0],PARAMETER["Central_Meridian",16.33333333333333],PARAMETER["Scale_Factor",1.0],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';
const WGS84 =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

describe('spot-import rows: a shapefile layer', function () {
  this.timeout(60_000);
  const service = useCliSandbox();

  it('mapping takes the geometry; validate names a problem by its feature; import sends the valid features; a second run sends nothing', async () => {
    const project = scratch({ 'spot-topics/12.topic.json': JSON.stringify(TOPIC) });
    try {
      writeShapefile(project.path('baeume'), {
        shapes: [{ point: [16.3738, 48.2081] }, { point: [16.3723, 48.2076] }, { point: [16.3701, 48.2079] }],
        fields: ['FID', 'HOEHE'],
        records: [
          ['b-1', '14.5'],
          ['b-2', '130'],
          ['b-3', '3'],
        ],
        encode: (text) => Buffer.from(text, 'utf8'),
        cpg: 'UTF-8',
        prj: WGS84,
      });
      const proposed = await runCli(['mapping', 'baeume.shp'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      const mapping = JSON.parse(readFileSync(project.path('baeume.mapping.json'), 'utf8')) as Record<string, unknown>;
      assert.equal((mapping.source as Record<string, unknown>).format, 'shapefile');
      assert.equal(mapping.latitude, undefined, 'the places come from the geometry');
      Object.assign(mapping, { topic_id: 12, source_id: 'shp-{FID}', fields: { fld_12_2: 'HOEHE' } });
      project.write('baeume.mapping.json', JSON.stringify(mapping, null, 2));

      const checked = await runCli(['validate', 'baeume.shp'], { cwd: project.dir });
      assert.equal(checked.code, 1, checked.stdout + checked.stderr);
      assert.match(checked.stdout, /^baeume\.shp:feature 2: .*130/m);
      const json = await runCli(['validate', 'baeume.shp', '--format', 'json'], { cwd: project.dir });
      for (const line of jsonLines(json.stdout)) validateJsonLine(line);

      const env = await service.start();
      const sandbox = service.sandbox();
      const first = await runCli(['import', 'baeume.shp'], { cwd: project.dir, env });
      assert.equal(first.code, 1, first.stderr);
      // A feature imported is named as its problems are: by its number.
      assert.match(first.stdout, /^baeume\.shp:feature 1: imported /m);
      const spot = sandbox.spotBySourceId('shp-b-1');
      assert.ok(spot, first.stdout);
      assert.deepEqual([spot.attributes.latitude, spot.attributes.longitude, spot.attributes.fld_12_2], [48.2081, 16.3738, 14.5]);
      assert.equal(sandbox.counters.imports, 2);
      await runCli(['import', 'baeume.shp'], { cwd: project.dir, env });
      assert.equal(sandbox.counters.imports, 2, 'the second run sends nothing');

      // convert writes the valid features as documents, their places transformed as the import sends them.
      const converted = await runCli(['convert', 'baeume.shp', '--out', 'spots'], { cwd: project.dir });
      assert.equal(converted.code, 1, 'the invalid feature is reported and not written');
      assert.match(converted.stdout, /baeume\.shp:feature \d+: /);
      const document = JSON.parse(readFileSync(project.path('spots/shp-b-1.spot.json'), 'utf8')) as { data: { attributes: Record<string, unknown> } };
      assert.deepEqual([document.data.attributes.latitude, document.data.attributes.longitude], [48.2081, 16.3738]);
    } finally {
      project.cleanup();
    }
  });

  it('a feature whose shape is null is a problem at that feature, and Node prints no warning of its own', async () => {
    const project = scratch({ 'spot-topics/12.topic.json': JSON.stringify(TOPIC) });
    try {
      writeShapefile(project.path('baeume'), {
        shapes: [{ point: [16.3738, 48.2081] }, { none: true }, { point: [16.3701, 48.2079] }],
        fields: ['FID'],
        records: [['b-1'], ['b-2'], ['b-3']],
        encode: (text) => Buffer.from(text, 'utf8'),
        cpg: 'UTF-8',
        prj: WGS84,
      });
      project.write('baeume.mapping.json', JSON.stringify({ topic_id: 12, source_id: 'baum-{FID}' }));
      const result = await runCli(['validate', 'baeume.shp'], { cwd: project.dir });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stdout, /^baeume\.shp:feature 2: /m);
      assert.equal(result.stdout.trim().split('\n').length, 1, result.stdout);
      assert.doesNotMatch(result.stderr, /DeprecationWarning|DEP0005/);
      assert.match(result.stderr, /^3 rows of baeume\.shp checked: 1 invalid, 2 valid\.$/m);
    } finally {
      project.cleanup();
    }
  });

  it('a layer in a national grid without a .cpg (MGI / Austria GK East, zipped): places within 1e-6 degrees of cs2cs; a second run sends nothing', async () => {
    const project = scratch({ 'spot-topics/12.topic.json': JSON.stringify(TOPIC) });
    try {
      writeShapefile(project.path('kataster'), {
        shapes: GEOJSON_TREES.map((tree) => ({ point: [tree.x, tree.y] as [number, number] })),
        fields: ['FID', 'BAUMART'],
        records: GEOJSON_TREES.map((tree) => [String(tree.fid), tree.baumart]),
        // No .cpg and no language driver: the attributes are latin1, as the DBF's default is.
        encode: (text) => Buffer.from(text, 'latin1'),
        prj: ESRI_GK_EAST,
      });
      await zipFiles(
        project.path('kataster.zip'),
        ['shp', 'dbf', 'prj'].map((extension) => project.path(`kataster.${extension}`)),
      );
      for (const extension of ['shp', 'dbf', 'prj']) rmSync(project.path(`kataster.${extension}`));
      const proposed = await runCli(['mapping', 'kataster.zip'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      const mapping = JSON.parse(readFileSync(project.path('kataster.mapping.json'), 'utf8')) as Record<string, unknown>;
      assert.equal(mapping.crs, undefined, "the .prj is the layer's crs: the mapping need not say it");
      Object.assign(mapping, { topic_id: 12, source_id: 'gk-{FID}' });
      project.write('kataster.mapping.json', JSON.stringify(mapping, null, 2));

      const env = await service.start();
      const sandbox = service.sandbox();
      const first = await runCli(['import', 'kataster.zip'], { cwd: project.dir, env });
      assert.equal(first.code, 0, first.stdout + first.stderr);
      for (const tree of GEOJSON_TREES) {
        const spot = sandbox.spotBySourceId(`gk-${tree.fid}`);
        assert.ok(spot, first.stdout);
        assert.ok(
          Math.abs((spot.attributes.latitude as number) - tree.latitude) < 1e-6,
          `latitude ${String(spot.attributes.latitude)}, cs2cs ${tree.latitude}`,
        );
        assert.ok(
          Math.abs((spot.attributes.longitude as number) - tree.longitude) < 1e-6,
          `longitude ${String(spot.attributes.longitude)}, cs2cs ${tree.longitude}`,
        );
      }
      const imports = sandbox.counters.imports;
      await runCli(['import', 'kataster.zip'], { cwd: project.dir, env });
      assert.equal(sandbox.counters.imports, imports, 'the second run sends nothing');
    } finally {
      project.cleanup();
    }
  });

  it('mapping of an archive of two layers proposes one as source.entry and names the other; validate reads it', async () => {
    const project = scratch({ 'spot-topics/12.topic.json': JSON.stringify(TOPIC) });
    try {
      const utf8 = (text: string) => Buffer.from(text, 'utf8');
      writeShapefile(project.path('baeume'), {
        shapes: [{ point: [16.3738, 48.2081] }, { point: [16.3723, 48.2076] }],
        fields: ['FID', 'HOEHE'],
        records: [
          ['b-1', '14.5'],
          ['b-2', '9'],
        ],
        encode: utf8,
        cpg: 'UTF-8',
        prj: WGS84,
      });
      writeShapefile(project.path('baenke_2024'), {
        shapes: [{ point: [16.3701, 48.2079] }],
        fields: ['FID', 'MATERIAL'],
        records: [['k-1', 'Lärche']],
        encode: utf8,
        cpg: 'UTF-8',
      });
      // As a colleague zips a folder on a Mac: the layers under export/, a resource fork beside each file.
      const entries: Record<string, Buffer> = {};
      for (const layer of ['baenke_2024', 'baeume'])
        for (const extension of ['shp', 'shx', 'dbf', 'prj', 'cpg'].filter((each) => existsSync(project.path(`${layer}.${each}`)))) {
          entries[`export/${layer}.${extension}`] = readFileSync(project.path(`${layer}.${extension}`));
          entries[`__MACOSX/export/._${layer}.${extension}`] = Buffer.from('junk');
          rmSync(project.path(`${layer}.${extension}`));
        }
      await writeZip(project.path('kataster.zip'), entries);

      const proposed = await runCli(['mapping', 'kataster.zip'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      assert.match(proposed.stderr, /source\.entry: "export\/baeume\.shp", .*the others: "export\/baenke_2024\.shp"/);
      const mapping = JSON.parse(readFileSync(project.path('kataster.mapping.json'), 'utf8')) as Record<string, Record<string, unknown>>;
      assert.deepEqual(mapping.source, { format: 'shapefile', encoding: 'utf-8', entry: 'export/baeume.shp' });
      Object.assign(mapping, { topic_id: 12, source_id: 'shp-{FID}', fields: { fld_12_2: 'HOEHE' } });
      project.write('kataster.mapping.json', JSON.stringify(mapping, null, 2));
      const checked = await runCli(['validate', 'kataster.zip', '--format', 'json'], { cwd: project.dir });
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      assert.equal(jsonLines(checked.stdout).filter((line) => line.status === 'valid').length, 2, checked.stdout);
    } finally {
      project.cleanup();
    }
  });
});

/** The files, by their own names, in a ZIP archive. */
async function zipFiles(path: string, files: string[]): Promise<void> {
  const zip = new ZipFile();
  for (const file of files) zip.addFile(file, basename(file));
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}
