// A row's place as latitude and longitude in one cell: a form's geopoint kept as one column
// ("47.0707 15.4395 350 5", as ODK and KoBoToolbox write it, altitude and accuracy after the two),
// its geotraces and geoshapes (points joined by ";"), and places copied from a map into a sheet
// ("48.2048, 16.3577", "48°12'17.3"N 16°21'28.1"E"). Expected degrees are the cells' own numbers;
// minutes and seconds and a square's centroid are worked out by hand in the comments.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readPositionCell } from '../../src/core/rows/values/positionCell';
import { convertedSpot, ensureCliBuilt, jsonLines, runCli, scratch } from './helpers/cliProcess';

function point(text: string, decimalSeparator: '.' | ',' = '.'): unknown {
  const read = readPositionCell(text, true, decimalSeparator);
  return 'problem' in read ? read.problem : read.geometry;
}

function problemOf(text: string, decimalSeparator: '.' | ',' = '.'): string {
  const read = readPositionCell(text, true, decimalSeparator);
  return 'problem' in read ? read.problem : `no problem: ${JSON.stringify(read.geometry)}`;
}

describe('rows: a place as latitude and longitude in one cell', function () {
  this.timeout(60_000);

  it('reads a geopoint, a copied place and degrees with minutes, latitude first, in GeoJSON order', () => {
    assert.deepEqual(point('47.0707 15.4395 350 5'), { type: 'Point', coordinates: [15.4395, 47.0707] });
    assert.deepEqual(point('  -33.8568   151.2153  '), { type: 'Point', coordinates: [151.2153, -33.8568] });
    assert.deepEqual(point('48.2048, 16.3577'), { type: 'Point', coordinates: [16.3577, 48.2048] });
    assert.deepEqual(point('48.2048,16.3577'), { type: 'Point', coordinates: [16.3577, 48.2048] });
    assert.deepEqual(point('48.2048; 16.3577'), { type: 'Point', coordinates: [16.3577, 48.2048] });
    assert.deepEqual(point('48,2048 16,3577', ','), { type: 'Point', coordinates: [16.3577, 48.2048] });
    assert.deepEqual(point('48,2048; 16,3577', ','), { type: 'Point', coordinates: [16.3577, 48.2048] });
    // 48 + 12/60 + 17.3/3600 = 48.2048055…, 16 + 21/60 + 28.1/3600 = 16.3578055…
    const dms = readPositionCell('48°12\'17.3"N 16°21\'28.1"E', true, '.');
    assert.ok('geometry' in dms, JSON.stringify(dms));
    const [x, y] = dms.geometry.coordinates as [number, number];
    assert.ok(Math.abs(y - 48.2048055556) < 1e-9 && Math.abs(x - 16.3578055556) < 1e-9, JSON.stringify(dms));
    assert.deepEqual(point('S 33.8568, E 151.2153'), { type: 'Point', coordinates: [151.2153, -33.8568] });
  });

  it('reads a geotrace as a line and a closed geoshape as a polygon, as ODK joins their points', () => {
    assert.deepEqual(point('47.1 15.4 0 0;47.2 15.5 0 0'), {
      type: 'LineString',
      coordinates: [
        [15.4, 47.1],
        [15.5, 47.2],
      ],
    });
    const shape = point('47.1 15.4 0 0; 47.1 15.5 0 0; 47.2 15.5 0 0; 47.2 15.4 0 0; 47.1 15.4 0 0;') as { type: string; coordinates: unknown[][] };
    assert.equal(shape.type, 'Polygon');
    assert.equal(shape.coordinates[0].length, 5);
  });

  it('says what is wrong with a cell that is not a place, and that letters of the other axis mean the two are swapped', () => {
    assert.match(problemOf('near the pond'), /"near the pond" is not a place: write the latitude and then the longitude in the cell/);
    assert.match(problemOf('47.07 15.44 350 apples'), /is not a place/);
    assert.match(problemOf('47.07'), /is not a place/);
    assert.match(problemOf('47.07 15.44 1 2 3'), /is not a place/);
    assert.match(
      problemOf('16°21\'28.1"E 48°12\'17.3"N'),
      /latitude: latitude 16°21'28.1"E is east or west, a longitude; latitude and longitude are probably swapped/,
    );
    assert.match(problemOf('48.2N 16.3O'), /"O" may be east/);
  });
});

describe('spot-import rows: a geopoint column', function () {
  this.timeout(60_000);
  let project: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = scratch()));
  afterEach(() => project.cleanup());

  it("proposes a form export's single geopoint column, and each spot is where its cell says (a geoshape at its centroid)", async () => {
    project.write(
      'baeume.csv',
      [
        'start,end,baumart,location,_id,_uuid,_submission_time',
        '2026-05-04T09:12:03.000+02:00,2026-05-04T09:14:40.000+02:00,Linde,47.0707 15.4395 350.2 4.8,101,7d1e0a3c-1b2a-4c55-9f0e-5d6c7b8a9e01,2026-05-04T07:15:02',
        '2026-05-04T09:20:11.000+02:00,2026-05-04T09:22:05.000+02:00,Ahorn,47.07123 15.43811 348 3.9,102,8e2f1b4d-2c3b-4d66-8a1f-6e7d8c9b0f12,2026-05-04T07:22:40',
        // A square of 0.1° by 0.1°: its centroid is its middle, 47.15 and 15.45.
        '2026-05-04T09:30:00.000+02:00,2026-05-04T09:35:00.000+02:00,Hecke,47.1 15.4 0 0;47.1 15.5 0 0;47.2 15.5 0 0;47.2 15.4 0 0;47.1 15.4 0 0,103,9f3a2c5e-3d4c-4e77-9b2a-7f8e9d0a1b23,2026-05-04T07:36:10',
      ].join('\r\n') + '\r\n',
    );
    const proposed = await runCli(['mapping', 'baeume.csv'], { cwd: project.dir });
    assert.equal(proposed.code, 0, proposed.stderr);
    assert.match(proposed.stderr, /position: the column location, latitude and longitude in one cell/);
    assert.match(proposed.stderr, /geometry: centroid, as some cells are Point, Polygon, not points/);
    const mapping = JSON.parse(readFileSync(project.path('baeume.mapping.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(mapping.position, 'location');
    assert.equal(mapping.latitude, undefined);
    mapping.topic_id = 1;
    mapping.source_id = 'kobo-{_id}';
    project.write('baeume.mapping.json', JSON.stringify(mapping, null, 2));
    const converted = await runCli(['convert', 'baeume.csv', '--out', 'spots'], { cwd: project.dir });
    assert.equal(converted.code, 0, converted.stdout + converted.stderr);
    assert.deepEqual(convertedSpot(project, 'kobo-101'), { ...convertedSpot(project, 'kobo-101'), latitude: 47.0707, longitude: 15.4395 });
    assert.deepEqual(convertedSpot(project, 'kobo-102'), { ...convertedSpot(project, 'kobo-102'), latitude: 47.07123, longitude: 15.43811 });
    const hedge = convertedSpot(project, 'kobo-103');
    assert.ok(Math.abs(hedge.latitude - 47.15) < 1e-9 && Math.abs(hedge.longitude - 15.45) < 1e-9, JSON.stringify(hedge));
  });

  it('proposes a sheet column of places copied from a map, and a bad or empty cell is a problem at its cell', async () => {
    project.write('sichtungen.csv', ['Nr;Fundort;Art', '1;"48.2048, 16.3577";Feuersalamander', '2;48.21, 16.36;Erdkröte'].join('\n'));
    const proposed = await runCli(['mapping', 'sichtungen.csv'], { cwd: project.dir });
    assert.equal(proposed.code, 0, proposed.stderr);
    const mapping = JSON.parse(readFileSync(project.path('sichtungen.mapping.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(mapping.position, 'Fundort', proposed.stderr);
    // A column with a cell that is not a place among the rows looked at is not proposed.
    project.write(
      'funde.csv',
      ['Nr;Fundort;Art', '1;"48.2048, 16.3577";Feuersalamander', '2;48.21, 16.36;Erdkröte', '3;beim Teich;Bergmolch', '4;;Grasfrosch'].join('\n'),
    );
    const refused = await runCli(['mapping', 'funde.csv'], { cwd: project.dir });
    assert.equal(refused.code, 0, refused.stderr);
    assert.equal((JSON.parse(readFileSync(project.path('funde.mapping.json'), 'utf8')) as Record<string, unknown>).position, undefined);
    project.write('funde.mapping.json', JSON.stringify({ topic_id: 1, source_id: 'fund-{Nr}', position: 'Fundort' }));
    const validate = await runCli(['validate', 'funde.csv', '--format', 'json'], { cwd: project.dir });
    const rows = jsonLines(validate.stdout).filter((record) => record.type === 'document');
    const problems = rows.map((record) =>
      ((record.problems ?? []) as Array<{ message: string; line: number; column: number }>).map((found) => [found.line, found.column, found.message]),
    );
    assert.deepEqual(problems.slice(0, 2), [[], []], validate.stdout);
    assert.deepEqual(
      problems.slice(2).map((found) => found.map(([line, column]) => [line, column])),
      [[[4, 3]], [[5, 3]]],
    );
    assert.match(String(problems[2][0][2]), /position: "beim Teich" is not a place/);
    assert.match(String(problems[3][0][2]), /position is empty in this row \(column "Fundort"\)/);
  });

  it('a mapping naming position and latitude, longitude, or position and wkt, is refused', async () => {
    project.write('t.csv', `id,loc,lat,lon\n1,"48.2 16.3",48.2,16.3\n`);
    project.write('t.mapping.json', JSON.stringify({ topic_id: 1, source_id: 't-{id}', position: 'loc', latitude: 'lat', longitude: 'lon' }));
    const both = await runCli(['validate', 't.csv'], { cwd: project.dir });
    assert.notEqual(both.code, 0);
    assert.match(both.stdout + both.stderr, /position and latitude, longitude name the place twice/);
    project.write('t.mapping.json', JSON.stringify({ topic_id: 1, source_id: 't-{id}', position: 'loc', wkt: 'loc' }));
    const twice = await runCli(['validate', 't.csv'], { cwd: project.dir });
    assert.notEqual(twice.code, 0);
    assert.match(twice.stdout + twice.stderr, /wkt and position name the place twice/);
  });
});
