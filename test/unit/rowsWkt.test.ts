// A row's place in one cell as Well-Known Text, as cities' open data and GIS exports write CSV:
// Vienna's tree register (data.gv.at, "Baumkataster") has a SHAPE column of "POINT (16.3577
// 48.2048)" and no latitude or longitude. The expected degrees are the cells' own numbers, a
// square's centroid is worked out by hand, and the EWKT point in Austria's grid is cs2cs's.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readWktCell } from '../../src/core/rows/values/wktCell';
import { convertedSpot, ensureCliBuilt, jsonLines, runCli, scratch } from './helpers/cliProcess';

const HEADER = 'FID,OBJECTID,SHAPE,BAUM_ID,BEZIRK,OBJEKT_STRASSE,GATTUNG_ART,PFLANZJAHR,STAMMUMFANG,BAUMHOEHE';
const TREES = [
  'BAUMKATOGD.2340001,2340001,POINT (16.357712476 48.204839512),119,1,Burgring,Tilia cordata (Winterlinde),1955,219,20',
  'BAUMKATOGD.2340002,2340002,POINT (16.357921068 48.205082249),120,1,Burgring,Platanus x acerifolia (Ahornblättrige Platane),1910,389,25',
  'BAUMKATOGD.2340003,2340003,POINT(16.3581 48.2053),121,1,Burgring,"Acer platanoides, Sorte ""Globosum""",2001,64,6',
];

describe('spot-import rows: places as Well-Known Text (a SHAPE column)', function () {
  this.timeout(60_000);
  let project: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = scratch()));
  afterEach(() => project.cleanup());

  it("proposes the SHAPE column of Vienna's tree register as wkt, and each tree is where its cell says", async () => {
    project.write('BAUMKATOGD.csv', `\ufeff${[HEADER, ...TREES].join('\r\n')}\r\n`);
    const proposed = await runCli(['mapping', 'BAUMKATOGD.csv'], { cwd: project.dir });
    assert.equal(proposed.code, 0, proposed.stderr);
    assert.match(proposed.stderr, /wkt: the column SHAPE, each place as Well-Known Text/);
    const mapping = JSON.parse(readFileSync(project.path('BAUMKATOGD.mapping.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(mapping.wkt, 'SHAPE');
    assert.equal(mapping.latitude, undefined);
    mapping.topic_id = 1;
    project.write('BAUMKATOGD.mapping.json', JSON.stringify(mapping, null, 2));
    const converted = await runCli(['convert', 'BAUMKATOGD.csv', '--out', 'spots'], { cwd: project.dir });
    assert.equal(converted.code, 0, converted.stdout + converted.stderr);
    assert.deepEqual(convertedSpot(project, 'BAUMKATOGD-2340001'), {
      ...convertedSpot(project, 'BAUMKATOGD-2340001'),
      latitude: 48.204839512,
      longitude: 16.357712476,
    });
    assert.deepEqual(convertedSpot(project, 'BAUMKATOGD-2340003'), { ...convertedSpot(project, 'BAUMKATOGD-2340003'), latitude: 48.2053, longitude: 16.3581 });
  });

  it("EWKT in Austria's grid as cs2cs puts it; a polygon's centroid; each bad cell a problem at its cell", async () => {
    project.write(
      'parcels.csv',
      [
        'id;geom',
        // cs2cs -f %.9f +proj=tmerc +lat_0=0 +lon_0=16.3333333333333 +k=1 +x_0=0 +y_0=-5000000 +ellps=bessel
        //   +towgs84=577.326,90.129,463.919,5.137,1.474,5.297,2.4232 +units=m +no_defs +to +proj=longlat +datum=WGS84
        //   <<< "-2500 340000"  → 16.298505342	48.198403073
        'p1;"SRID=31256;POINT(-2500 340000)"',
        // A square of 1,000 m by 1,000 m: its centroid is its middle. (EWKT's ';' quoted, as a CSV writer quotes it.)
        'p2;"srid=31256; polygon ((-3000 339500, -2000 339500, -2000 340500, -3000 340500, -3000 339500))"',
        'p3;POINT (-2500)',
        'p4;"SRID=4326;POINT(16.3 48.2)"',
        'p5;GEOMETRYCOLLECTION (POINT (-2500 340000))',
        'p6;',
      ].join('\n'),
    );
    project.write('parcels.mapping.json', JSON.stringify({ topic_id: 1, source_id: 'parcel-{id}', wkt: 'geom', crs: 'EPSG:31256', geometry: 'centroid' }));
    const validate = await runCli(['validate', 'parcels.csv', '--format', 'json'], { cwd: project.dir });
    const rows = jsonLines(validate.stdout).filter((record) => record.type === 'document');
    const problems = rows.map((record) =>
      ((record.problems ?? []) as Array<{ message: string; line: number; column: number }>).map((found) => [found.line, found.column, found.message]),
    );
    assert.deepEqual(problems.slice(0, 2), [[], []], validate.stdout);
    assert.deepEqual(
      problems.slice(2).map((found) => found.map(([line, column]) => [line, column])),
      [[[4, 4]], [[5, 4]], [[6, 4]], [[7, 4]]],
    );
    assert.match(String(problems[2][0][2]), /wkt: "POINT \(-2500\)" is not a geometry in Well-Known Text/);
    assert.match(String(problems[3][0][2]), /says SRID=4326, but the mapping reads it in EPSG:31256: set "crs": "EPSG:4326"/);
    assert.match(String(problems[4][0][2]), /is a GeometryCollection: a spot needs a point, a line or a polygon/);
    assert.match(String(problems[5][0][2]), /wkt is empty in this row \(column "geom"\)/);

    const converted = await runCli(['convert', 'parcels.csv', '--out', 'spots'], { cwd: project.dir });
    const p1 = convertedSpot(project, 'parcel-p1');
    assert.ok(Math.abs(p1.longitude - 16.298505342) < 1e-7 && Math.abs(p1.latitude - 48.198403073) < 1e-7, JSON.stringify(p1) + converted.stderr);
    const p2 = convertedSpot(project, 'parcel-p2');
    assert.ok(Math.abs(p2.longitude - 16.298505342) < 1e-7 && Math.abs(p2.latitude - 48.198403073) < 1e-7, JSON.stringify(p2));
  });

  it('a mapping naming wkt and latitude, longitude is refused, as is a wkt column the table does not have', async () => {
    project.write('t.csv', `id,SHAPE,lat,lon\n1,POINT (16.3 48.2),48.2,16.3\n`);
    project.write('t.mapping.json', JSON.stringify({ topic_id: 1, source_id: 't-{id}', wkt: 'SHAPE', latitude: 'lat', longitude: 'lon' }));
    const both = await runCli(['validate', 't.csv'], { cwd: project.dir });
    assert.notEqual(both.code, 0);
    assert.match(both.stdout + both.stderr, /wkt and latitude, longitude name the place twice/);
    project.write('t.mapping.json', JSON.stringify({ topic_id: 1, source_id: 't-{id}', wkt: 'WKT' }));
    const missing = await runCli(['validate', 't.csv'], { cwd: project.dir });
    assert.notEqual(missing.code, 0);
    assert.match(missing.stdout + missing.stderr, /has no column "WKT"/);
  });

  it('refuses a line or area by its name under the default rule before reading it, and a cell too long to read in time', () => {
    // A municipality's outline of 40,000 positions (about 920 KB): Terraformer would take seconds
    // (measured by hand: 2.3 s at 32,000); under point-only it is refused by its name alone.
    const ring = Array.from({ length: 40_000 }, (_, i) => `${(16 + i * 1e-5).toFixed(7)} ${(48 + Math.sin(i) * 1e-3).toFixed(7)}`);
    const outline = `POLYGON ((${[...ring, ring[0]].join(', ')}))`;
    const pointOnly = readWktCell(outline, 'EPSG:4326', 'point-only');
    assert.match('problem' in pointOnly ? pointOnly.problem : '', /geometry is a Polygon, not one place: say in the mapping which point stands for it/);
    const centroid = readWktCell(outline, 'EPSG:4326', 'centroid');
    assert.match('problem' in centroid ? centroid.problem : '', /is 899 KiB of Well-Known Text; at most 256 KiB are read/);
    // EWKT's SRID is a number: 04326 is 4326.
    assert.ok('geometry' in readWktCell('SRID=04326;POINT (16.3 48.2)', 'EPSG:4326', 'point-only'));
    const other = readWktCell('SRID=31256;POINT (-2500 340000)', 'EPSG:4326', 'point-only');
    assert.match('problem' in other ? other.problem : '', /set "crs": "EPSG:31256"/);
  });
});
