// spot-import on tables as real exports come (issue 32), run as the bundled command line: a CSV cut
// inside a quoted cell (an interrupted download) with photos, a GBIF occurrence.txt (tab-separated,
// not called .tsv), an ODK Central CSV whose rows end early, a windows-1252 file whose mapping says
// UTF-8, a minified one-line GeoJSON. Expected rows and positions are counted from the text the
// test wrote, never by the reader under test.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { ensureCliBuilt, runCli, sandboxEnv, scratch } from './helpers/cliProcess';
import { positionOf, windows1252 } from './helpers/rowsProject';

type Project = ReturnType<typeof scratch>;

/** 500 rows of a KoBo-style export, each naming a photo; the last row cut inside its quoted note, which opens on its own line. */
function cutExport(): { text: string; complete: number; quoteLine: number; quoteColumn: number } {
  const lines = ['_uuid,species,notes,_point_latitude,_point_longitude,photo'];
  for (let i = 1; i <= 500; i++) {
    // Every 30th note spans two lines, as form tools write a long answer.
    const note = i % 30 === 0 ? `"seen twice,\nonce at dusk"` : `"note ${i}"`;
    lines.push(`uuid-${i},Quercus robur,${note},${(47 + i / 1000).toFixed(4)},${(11 + i / 1000).toFixed(4)},p.jpg`);
  }
  const text = lines.join('\n');
  // Cut inside the last row's quoted note: an interrupted download.
  const cut = text.slice(0, text.lastIndexOf('"note 500') + '"note 5'.length);
  // The naive count: the quote of the last row is the last '"' in the text.
  const before = cut.slice(0, cut.lastIndexOf('"'));
  return { text: cut, complete: 499, quoteLine: before.split('\n').length, quoteColumn: before.length - before.lastIndexOf('\n') };
}

const CUT_MAPPING = {
  topic_id: 1,
  source_id: 'kobo-{_uuid}',
  latitude: '_point_latitude',
  longitude: '_point_longitude',
  media: { fld_1_1: { columns: ['photo'] } },
};

describe('spot-import rows: real exports as they come', function () {
  let project: Project;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = scratch()));
  afterEach(() => project.cleanup());

  describe('a CSV cut inside a quoted cell, with photos (no row lost)', () => {
    beforeEach(() => {
      const { text } = cutExport();
      project.write('cut.csv', text);
      project.write('cut.mapping.json', JSON.stringify(CUT_MAPPING));
      project.write('p.jpg', 'jpeg bytes');
    });

    it('validate checks every complete row and reports the open quote at the line it opens on', async () => {
      const { complete, quoteLine, quoteColumn } = cutExport();
      const result = await runCli(['validate', 'cut.csv', '--format', 'json'], { cwd: project.dir });
      const records = result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const rows = records.filter((record) => record.type === 'document');
      assert.equal(rows.filter((record) => record.status === 'valid').length, complete, result.stderr);
      const quote = rows.filter((record) => record.status !== 'valid');
      assert.equal(quote.length, 1, JSON.stringify(quote));
      const finding = (quote[0].problems as Array<{ line: number; column: number; message: string }>)[0];
      assert.deepEqual({ line: finding.line, column: finding.column }, { line: quoteLine, column: quoteColumn });
      assert.match(finding.message, new RegExp(`the quote at line ${quoteLine}, column ${quoteColumn} is never closed`));
      assert.equal(result.code, 1);
    });

    it('convert writes every complete row and fails on the cut one; import --dry-run counts every complete row', async () => {
      const { complete } = cutExport();
      const convert = await runCli(['convert', 'cut.csv', '--out', 'spots'], { cwd: project.dir });
      assert.notEqual(convert.code, 0, 'a cut file is not a success');
      const written = (await import('node:fs')).readdirSync(project.path('spots')).filter((name) => name.endsWith('.json'));
      assert.equal(written.length, complete, convert.stderr);
      // Nothing is sent, so no service needs to be there.
      const dryRun = await runCli(['import', 'cut.csv', '--dry-run'], { cwd: project.dir, env: sandboxEnv('http://127.0.0.1:9') });
      assert.notEqual(dryRun.code, 0);
      assert.match(
        dryRun.stderr,
        new RegExp(`^Dry run: ${complete} of ${complete + 1} rows of cut\\.csv would be imported, 1 would not; nothing was sent\\.$`, 'm'),
        dryRun.stderr,
      );
    });
  });

  it('a GBIF occurrence.txt (tab-separated, not called .tsv) is a table by its content', async () => {
    const header = [
      'gbifID',
      'occurrenceID',
      'basisOfRecord',
      'eventDate',
      'decimalLatitude',
      'decimalLongitude',
      'coordinateUncertaintyInMeters',
      'scientificName',
      'countryCode',
    ];
    const rows = [
      ['4011676301', 'urn:catalog:WU:Herb:0042', 'PRESERVED_SPECIMEN', '2019-06-02/2019-06-03', '48.2082', '16.3738', '', 'Quercus robur L.', 'AT'],
      ['4011676302', 'urn:catalog:WU:Herb:0043', 'HUMAN_OBSERVATION', '2020-07-14T09:30:00', '47.0707', '15.4395', '30', 'Fagus sylvatica L.', 'AT'],
    ];
    project.write('occurrence.txt', [header, ...rows].map((row) => row.join('\t')).join('\n') + '\n');
    project.write(
      'occurrence.mapping.json',
      JSON.stringify({ topic_id: 1, source_id: 'gbif-{occurrenceID}', latitude: 'decimalLatitude', longitude: 'decimalLongitude' }),
    );
    const result = await runCli(['validate', 'occurrence.txt'], { cwd: project.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout, /Not valid JSON/);
    assert.match(result.stderr, /^2 rows of occurrence\.txt checked: all valid\.$/m);
  });

  it('occurrence.txt with a mapping named by --mapping is a table; without any mapping it is refused with the way to make one', async () => {
    project.write('occurrence.txt', 'occurrenceID\tdecimalLatitude\tdecimalLongitude\nurn:1\t48.1\t16.1\n');
    project.write('gbif.json', JSON.stringify({ topic_id: 1, source_id: 'gbif-{occurrenceID}', latitude: 'decimalLatitude', longitude: 'decimalLongitude' }));
    const named = await runCli(['validate', 'occurrence.txt', '--mapping', 'gbif.json'], { cwd: project.dir });
    assert.equal(named.code, 0, named.stdout + named.stderr);
    assert.match(named.stderr, /^1 row of occurrence\.txt checked: all valid\.$/m);
    const none = await runCli(['validate', 'occurrence.txt'], { cwd: project.dir });
    assert.equal(none.code, 2, none.stdout + none.stderr);
    assert.doesNotMatch(none.stdout, /JSON/);
    assert.match(
      none.stderr,
      /occurrence\.txt has no mapping beside it, so it is not read as a table \(nor is it a spot document\): spot-import mapping occurrence\.txt proposes one\./,
    );
  });

  it('a GeoJSON text sequence whose first line is longer than 64 KiB (polygons) keeps its columns and geometry', async () => {
    // A cadastre's parcels: each ring of 4,000 positions makes a line of about 100 KiB.
    const ring = (x: number) => {
      const positions = Array.from({ length: 4000 }, (_, i) => [
        x + 0.001 * Math.cos((2 * Math.PI * i) / 4000),
        48 + 0.001 * Math.sin((2 * Math.PI * i) / 4000),
      ]);
      return [...positions, positions[0]];
    };
    const lines = [16, 16.01, 16.02].map((x, i) =>
      JSON.stringify({ type: 'Feature', properties: { parcel: `P-${i + 1}` }, geometry: { type: 'Polygon', coordinates: [ring(x)] } }),
    );
    assert.ok(lines[0].length > 64 * 1024);
    project.write('parcels.geojsonl', lines.join('\n') + '\n');
    const proposed = await runCli(['mapping', 'parcels.geojsonl'], { cwd: project.dir });
    assert.equal(proposed.code, 0, proposed.stderr);
    const mapping = JSON.parse((await import('node:fs')).readFileSync(project.path('parcels.mapping.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(mapping.source_id, 'parcels-{parcel}');
    assert.equal(mapping.geometry, 'centroid');
    mapping.topic_id = 1;
    project.write('parcels.mapping.json', JSON.stringify(mapping));
    const result = await runCli(['validate', 'parcels.geojsonl'], { cwd: project.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stderr, /^3 rows of parcels\.geojsonl checked: all valid\.$/m);
  });

  it('a mapping that names the format wins over the file name (a tab-separated .csv)', async () => {
    project.write('export.csv', 'id\tlat\tlon\nA-1\t48.1\t16.1\n');
    project.write('export.mapping.json', JSON.stringify({ source: { format: 'tsv' }, topic_id: 1, source_id: 's-{id}', latitude: 'lat', longitude: 'lon' }));
    const result = await runCli(['validate', 'export.csv'], { cwd: project.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });

  it('ODK Central rows that end early (trailing empty cells left out) are read with those cells empty; too many cells stay an error', async () => {
    const text = [
      'SubmissionDate,location-Latitude,location-Longitude,location-Altitude,location-Accuracy,species,notes,KEY',
      '2024-05-01T10:00:00.000Z,48.2,16.3,180,5,oak,,uuid:aaa',
      // Short: notes and KEY left out — KEY is then empty, so this row is refused for its source_id, at its (missing) cell.
      '2024-05-02T10:00:00.000Z,48.3,16.4,181,4,beech',
      // Short by one: notes present, KEY missing.
      '2024-05-03T10:00:00.000Z,48.4,16.5',
      '2024-05-04T10:00:00.000Z,48.5,16.6,182,3,larch,x,uuid:ddd,extra',
      '',
    ].join('\n');
    project.write('odk.csv', text);
    project.write(
      'odk.mapping.json',
      JSON.stringify({ topic_id: 1, source_id: 'odk-{SubmissionDate}', latitude: 'location-Latitude', longitude: 'location-Longitude' }),
    );
    const result = await runCli(['validate', 'odk.csv'], { cwd: project.dir });
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 1, result.stdout);
    const extra = positionOf(text, ',extra');
    assert.equal(lines[0], `odk.csv:${extra.line}:${extra.column + 1}: row 4 has 9 cells, the header 8: the cells from here on have no column`);
    assert.match(result.stderr, /^4 rows of odk\.csv checked: 1 invalid, 3 valid\.$/m);
  });

  it('a row over 1 MiB is reported at its line and the rows after it are read', async () => {
    const big = `"${'x'.repeat(1024 * 1024 + 10)}"`;
    const text = ['id,lat,lon,note', 'a,48.1,16.1,ok', `b,48.2,16.2,${big}`, 'c,48.3,16.3,ok', 'd,48.4,16.4,"two\nlines"', ''].join('\n');
    project.write('big.csv', text);
    project.write('big.mapping.json', JSON.stringify({ topic_id: 1, source_id: 's-{id}', latitude: 'lat', longitude: 'lon' }));
    const result = await runCli(['validate', 'big.csv'], { cwd: project.dir });
    assert.equal(result.stdout.trim(), 'big.csv:3:1: row 2 is longer than 1 MiB: it is not read', result.stderr);
    assert.match(result.stderr, /^4 rows of big\.csv checked: 1 invalid, 3 valid\.$/m);
  });

  it('a windows-1252 CSV whose mapping says UTF-8: what was declared, what the bytes look like, and where the first bad byte is', async () => {
    project.write('baeume.csv', '');
    (await import('node:fs')).writeFileSync(project.path('baeume.csv'), windows1252('Baumart;Höhe;lat;lon\nEiche;12;48,1;16,1\n'));
    project.write(
      'baeume.mapping.json',
      JSON.stringify({ source: { encoding: 'utf-8' }, topic_id: 1, source_id: 'b-{Baumart}', latitude: 'lat', longitude: 'lon' }),
    );
    const result = await runCli(['validate', 'baeume.csv'], { cwd: project.dir });
    assert.notEqual(result.code, 0);
    const message = result.stdout + result.stderr;
    assert.doesNotMatch(message, /blank/);
    assert.match(message, /utf-8/);
    assert.match(message, /windows-1252/);
    assert.match(message, /line 1, column 10/);
  });

  it('a minified one-line GeoJSON over 64 KiB is read', async () => {
    const features = Array.from({ length: 1500 }, (_, i) => ({
      type: 'Feature',
      id: i + 1,
      properties: { name: `tree ${i + 1}`, note: 'a'.repeat(20) },
      geometry: { type: 'Point', coordinates: [16 + i / 10000, 48 + i / 10000] },
    }));
    const text = JSON.stringify({ type: 'FeatureCollection', features });
    assert.ok(text.length > 64 * 1024 && !text.includes('\n'));
    project.write('layer.geojson', text);
    project.write('layer.mapping.json', JSON.stringify({ topic_id: 1, source_id: 'l-{name}' }));
    const result = await runCli(['validate', 'layer.geojson'], { cwd: project.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stderr, /^1500 rows of layer\.geojson checked: all valid\.$/m);
  });

  describe('against the sandbox', function () {
    this.timeout(60_000);
    let sandbox: RunningSandbox;
    let env: Record<string, string>;
    beforeEach(async () => {
      sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
      env = sandboxEnv(sandbox.baseUrl);
      project.write('trees.csv', 'id,lat,lon,height\na,48.1,16.1,12\nb,48.2,16.2,NA\n');
      project.write(
        'trees.mapping.json',
        JSON.stringify({ topic_id: 1, source_id: 't-{id}', latitude: 'lat', longitude: 'lon', fields: { fld_1_1: { column: 'height', type: 'number' } } }),
      );
    });
    afterEach(() => sandbox.close());

    it('a re-import says which spots are new and which were updated; a second run with nothing to send asks for no token', async () => {
      const first = await runCli(['import', 'trees.csv'], { cwd: project.dir, env });
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /^trees\.csv:2: imported "t-a" as new spot \d+$/m);
      assert.match(first.stdout, /^trees\.csv:3: imported "t-b" as new spot \d+$/m);
      const tokensAfterFirst = sandbox.counters.tokenRequests;
      assert.equal(tokensAfterFirst, 1);

      const second = await runCli(['import', 'trees.csv'], { cwd: project.dir, env });
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /^trees\.csv:2: already imported "t-a"/m);
      assert.equal(sandbox.counters.tokenRequests, tokensAfterFirst, 'nothing to send: no token asked for');

      writeFileSync(project.path('trees.csv'), 'id,lat,lon,height\na,48.1,16.1,12\nb,48.2,16.2,14\n');
      const third = await runCli(['import', 'trees.csv', '--format', 'json'], { cwd: project.dir, env });
      assert.equal(third.code, 0, third.stderr);
      const spots = third.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((record) => record.type === 'spot');
      assert.deepEqual(
        spots.map((spot) => [spot.sourceId, spot.status, spot.change]),
        [
          ['t-a', 'alreadyImported', undefined],
          ['t-b', 'imported', 'updated'],
        ],
      );
      const text = await runCli(['import', 'trees.csv'], { cwd: project.dir, env });
      assert.match(text.stdout, /^trees\.csv:3: already imported "t-b"/m);
    });

    it('rejected credentials on a table: nothing was sent, one line, exit 2; rows already imported are still said', async () => {
      const first = await runCli(['import', 'trees.csv'], { cwd: project.dir, env });
      assert.equal(first.code, 0, first.stderr);
      writeFileSync(project.path('trees.csv'), 'id,lat,lon,height\na,48.1,16.1,12\nb,48.2,16.2,14\n');
      const imports = sandbox.counters.imports;
      const rejected = await runCli(['import', 'trees.csv'], { cwd: project.dir, env: { ...env, SPOT_CLIENT_SECRET: 'wrong' } });
      assert.equal(rejected.code, 2, rejected.stderr);
      assert.equal(
        rejected.stdout.trim(),
        `trees.csv:2: already imported "t-a" as spot ${String(sandbox.spotBySourceId('t-a')!.id)} (the journal says this exact text was imported; nothing sent)`,
      );
      assert.match(rejected.stderr, /^spot-import: Nothing was sent\. The client id or secret was rejected/m);
      assert.doesNotMatch(rejected.stderr, /not attempted|wrong/);
      assert.equal(sandbox.counters.imports, imports);
    });

    // That the run stops at once (and sends nothing when a later token would come) is cliFirstTokenGate.test.ts's; here, the command's answer.
    it('a first token that cannot be had (a 503 every time): nothing sent, nothing said as done, exit 2', async () => {
      sandbox.setFaults({ rate503: 1, appliesTo: ['token'] });
      const result = await runCli(['import', 'trees.csv'], { cwd: project.dir, env });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^spot-import: Nothing was sent\. .*503/m);
      assert.equal(sandbox.counters.imports, 0);
    });
  });
});
