// Latitude and longitude written as degrees, minutes and seconds, as GPS tools, Google Maps and
// hand-kept survey sheets write them. The expected degrees are worked out here from the written
// parts (d + m/60 + s/3600, negative for S and W), not by the decoder under test; the values of
// the export below agree with PROJ's own DMS reader (cs2cs, 9.1.1) to 1e-9°.
import * as assert from 'node:assert/strict';
import { parseDegrees } from '../../src/core/rows/values';
import { ensureCliBuilt, jsonLines, runCli, sandboxEnv, scratch } from './helpers/cliProcess';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';

const dms = (degrees: number, minutes = 0, seconds = 0, sign = 1) => sign * (degrees + minutes / 60 + seconds / 3600);

function value(text: string, axis: 'latitude' | 'longitude', decimal: '.' | ',' = '.'): number {
  const result = parseDegrees(text, axis, decimal);
  assert.ok('value' in result, `${text}: ${JSON.stringify(result)}`);
  return result.value;
}

function problem(text: string, axis: 'latitude' | 'longitude', decimal: '.' | ',' = '.'): string {
  const result = parseDegrees(text, axis, decimal);
  assert.ok('problem' in result, `${text} should be refused, got ${JSON.stringify(result)}`);
  return result.problem;
}

describe('rows: coordinates in degrees, minutes and seconds', () => {
  it('reads the ways exports write them', () => {
    const cases: Array<[string, 'latitude' | 'longitude', number, ('.' | ',')?]> = [
      [`47°04'16.3"N`, 'latitude', dms(47, 4, 16.3)],
      [`16°22'28"E`, 'longitude', dms(16, 22, 28)],
      [`47° 4' 16.3" N`, 'latitude', dms(47, 4, 16.3)],
      [`N 47° 04.271'`, 'latitude', dms(47, 4.271)],
      [`E 016° 22.467'`, 'longitude', dms(16, 22.467)],
      [`33°51′25″S`, 'latitude', dms(33, 51, 25, -1)],
      [`S 33° 51' 25"`, 'latitude', dms(33, 51, 25, -1)],
      [`151°12'40"W`, 'longitude', dms(151, 12, 40, -1)],
      [`47:04:16.3`, 'latitude', dms(47, 4, 16.3)],
      [`-70:00:45`, 'longitude', dms(70, 0, 45, -1)],
      [`47º04'16.3"n`, 'latitude', dms(47, 4, 16.3)],
      [`47d04'16.3"N`, 'latitude', dms(47, 4, 16.3)],
      [`47.5°`, 'latitude', 47.5],
      [`47.5N`, 'latitude', 47.5],
      [`47° 4' 16,3" N`, 'latitude', dms(47, 4, 16.3), ','],
      [`47° 4' 16,3" N`, 'latitude', dms(47, 4, 16.3), '.'],
      [`47°04’16.3”N`, 'latitude', dms(47, 4, 16.3)],
      // Plain numbers stay what parseNumber makes of them.
      ['47.0712', 'latitude', 47.0712],
      ['47,0712', 'latitude', 47.0712, ','],
    ];
    // A reading is rounded to ten decimals: within half a unit of the tenth (5e-11) of the sum.
    for (const [text, axis, expected, decimal] of cases) {
      assert.ok(Math.abs(value(text, axis, decimal) - expected) <= 5.000001e-11, `${text} → ${value(text, axis, decimal)}, not ${expected}`);
    }
  });

  it('gives a reading of degrees, minutes and seconds without binary noise, and a number with all its digits', () => {
    // By hand: 15 + 26/60 + 22.2/3600 = 15 + 0.4333… + 0.0061666… = 15.4395 exactly (the sum in
    // binary was 15.439499999999999); 47 + 4/60 + 16.3/3600 = 47 + 256.3/3600 = 47.07119444…,
    // 47.0711944444 to ten decimals (it was 47.071194444444444).
    assert.equal(value(`15°26'22.2"E`, 'longitude'), 15.4395);
    assert.equal(value(`47°04'16.3"N`, 'latitude'), 47.0711944444);
    assert.equal(value(`E 15° 26.37'`, 'longitude'), 15.4395);
    // A plain number is not rounded: what the cell writes is sent.
    assert.equal(value('47.071194444444444', 'latitude'), 47.071194444444444);
  });

  it('an empty cell is no value', () => {
    assert.deepEqual(parseDegrees('  ', 'latitude', '.'), { empty: true });
  });

  it('refuses what would read as something else, saying how to write it', () => {
    // GeographicLib adds pieces joined by a sign: 47°-16' would be 46.73°.
    assert.match(problem(`47°-16'`, 'latitude'), /neither a number nor degrees, minutes and seconds/);
    assert.match(problem(`47°N+1°`, 'latitude'), /neither a number/);
    assert.match(problem(`47°70'N`, 'latitude'), /minutes and seconds are under 60/);
    assert.match(problem(`47°04'60"N`, 'latitude'), /under 60/);
    assert.match(problem(`N-47°04'`, 'latitude'), /neither a number/);
    assert.match(problem(`-47°04'N`, 'latitude'), /neither a number/);
    assert.match(problem(`47°04.5'16"N`, 'latitude'), /neither a number/);
    assert.match(problem(`47°04'16.3,5"N`, 'latitude'), /neither a number/);
    assert.match(problem(`16°22'28"O`, 'longitude'), /"O" may be east \(Ost\) or west \(Oeste, Ouest\); write E or W/);
    assert.match(problem(`O 16°22'28"`, 'longitude'), /"O" may be east/);
    // Without a mark or a hemisphere letter it is not degrees, minutes and seconds: the number's own message.
    assert.match(problem('47 04 16', 'latitude'), /47 04 16/);
    assert.doesNotMatch(problem('47 04 16', 'latitude'), /degrees, minutes/);
  });

  it('a hemisphere letter of the other axis is a swap of the columns, said as such', () => {
    assert.match(problem(`16°22'28"E`, 'latitude'), /latitude 16°22'28"E is east or west, a longitude; latitude and longitude are probably swapped/);
    assert.match(problem(`47°04'16.3"S`, 'longitude'), /longitude 47°04'16\.3"S is north or south, a latitude; latitude and longitude are probably swapped/);
  });
});

describe('spot-import rows: a survey sheet in degrees, minutes and seconds', function () {
  this.timeout(60_000);
  let project: ReturnType<typeof scratch>;
  let sandbox: RunningSandbox | undefined;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = scratch()));
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    project.cleanup();
  });

  // A tree survey kept by hand in a spreadsheet (German headers, ';' and decimal commas, as Excel
  // saves it there), positions copied from a GPS in three styles; three rows are wrong as such sheets are.
  const SHEET = [
    'Baum-Nr;Art;Umfang (m);Breite;Länge',
    `B-1;Linde;1,25;47° 4' 16,3" N;15° 26' 2,1" E`,
    `B-2;Ahorn;0,8;N 47° 04,280';E 015° 26,040'`,
    `B-3;Eiche;2,1;47:04:17,5;15:26:03,9`,
    `B-4;Buche;1,4;47° 70' 10" N;15° 26' 2" E`,
    `B-5;Esche;0,95;15° 26' 2" E;47° 4' 16" N`,
    `B-6;Ulme;1,1;47° 4' 16" N;15° 26' 2" O`,
  ].join('\r\n');
  const MAPPING = { topic_id: 1, source_id: 'baum-{Baum-Nr}', latitude: 'Breite', longitude: 'Länge' };
  const EXPECTED: Record<string, [number, number]> = {
    'baum-B-1': [dms(47, 4, 16.3), dms(15, 26, 2.1)],
    'baum-B-2': [dms(47, 4.28), dms(15, 26.04)],
    'baum-B-3': [dms(47, 4, 17.5), dms(15, 26, 3.9)],
  };

  it('import sends each position as its degrees; the wrong rows are refused at their cells with what to do', async () => {
    project.write('baeume.csv', SHEET);
    project.write('baeume.mapping.json', JSON.stringify(MAPPING));
    const validate = await runCli(['validate', 'baeume.csv', '--format', 'json'], { cwd: project.dir });
    assert.equal(validate.code, 1, validate.stderr);
    const refused = jsonLines(validate.stdout).filter((record) => record.type === 'document' && record.status !== 'valid');
    const messages = Object.fromEntries(
      refused.map((record) => [record.row, (record.problems as Array<{ message: string }>).map((found) => found.message).join(' | ')]),
    );
    assert.deepEqual(Object.keys(messages).map(Number), [4, 5, 6], JSON.stringify(refused));
    assert.match(messages[4], /latitude: 47° 70' 10" N is neither a number nor degrees, minutes and seconds/);
    assert.match(messages[5], /probably swapped/);
    assert.match(messages[6], /"O" may be east \(Ost\) or west/);

    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
    const imported = await runCli(['import', 'baeume.csv'], { cwd: project.dir, env: sandboxEnv(sandbox.baseUrl) });
    assert.equal(imported.code, 1, imported.stderr);
    for (const [sourceId, [latitude, longitude]] of Object.entries(EXPECTED)) {
      const spot = sandbox.spotBySourceId(sourceId);
      assert.ok(spot, `${sourceId} was imported: ${imported.stderr}`);
      // The engine rounds degrees to what the spot keeps (COORDINATE_DECIMALS); a tenth of a second is 3e-5°.
      assert.ok(Math.abs((spot.attributes.latitude as number) - latitude) < 1e-7, `${sourceId} latitude ${String(spot.attributes.latitude)}`);
      assert.ok(Math.abs((spot.attributes.longitude as number) - longitude) < 1e-7, `${sourceId} longitude ${String(spot.attributes.longitude)}`);
    }
    assert.equal(sandbox.spotBySourceId('baum-B-4'), undefined);
  });
});
