// spot-import validate and misplaced spots, as a real child process: a spot outside its topic's
// area is a warning (SARIF level "warning", text "warning:", the document still valid), which says
// when swapping latitude and longitude brings it in; a latitude out of range that is a longitude
// stays an error that says they are probably swapped; a broken bbox is the definition's problem.
import * as assert from 'node:assert/strict';
import { ensureCliBuilt, runCli, scratch, spotText } from './helpers/cliProcess';
import { validateSarif } from './helpers/cliSchemas';

const AREA = JSON.stringify({ topic_id: 1, name: 'Vienna trees', area: { bbox: [16.18, 48.11, 16.58, 48.33] }, fields: {} }, null, 2);

describe('spot-import validate and topic areas', function () {
  let folder: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  beforeEach(() => {
    folder = scratch({
      'spot-topics/1.topic.json': AREA,
      // Line 7 holds the latitude, its value from column 19 (spotText's layout).
      'spots/inside.spot.json': spotText('inside'),
      'spots/outside.spot.json': spotText('outside', { latitude: 47.07, longitude: 15.44 }),
      'spots/swapped.spot.json': spotText('swapped', { latitude: 16.37, longitude: 48.2 }),
    });
  });
  afterEach(() => folder.cleanup());

  it('sarif: a spot outside the area is a result of level warning on its latitude; the run passes (exit 0)', async () => {
    const result = await runCli(['validate', '--format', 'sarif', 'spots'], { cwd: folder.dir });
    assert.equal(result.code, 0, result.stderr);
    const log = JSON.parse(result.stdout);
    assert.deepEqual(validateSarif(log), []);
    const results = log.runs[0].results as Array<{
      ruleId: string;
      level: string;
      message: { text: string };
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }>;
    }>;
    assert.deepEqual(
      results.map((found) => [
        found.ruleId,
        found.level,
        found.locations[0].physicalLocation.artifactLocation.uri,
        found.locations[0].physicalLocation.region,
        found.message.text,
      ]),
      [
        [
          'topic.outsideArea',
          'warning',
          'spots/outside.spot.json',
          { startLine: 7, startColumn: 19, endLine: 7, endColumn: 24 },
          'latitude 47.07, longitude 15.44 is outside the area of topic 1 (Vienna trees) (west 16.18, south 48.11, east 16.58, north 48.33).',
        ],
        [
          'topic.outsideArea',
          'warning',
          'spots/swapped.spot.json',
          { startLine: 7, startColumn: 19, endLine: 7, endColumn: 24 },
          'latitude 16.37, longitude 48.2 is outside the area of topic 1 (Vienna trees) (west 16.18, south 48.11, east 16.58, north 48.33); swapped, it is inside: latitude and longitude are probably swapped.',
        ],
      ],
    );
    assert.match(result.stderr, /3 spot documents checked: all valid\./);
  });

  it('text: warnings beside the error of a latitude out of range that is probably swapped (exit 1)', async () => {
    folder.write('spots/out-of-range.spot.json', spotText('out-of-range', { latitude: 123.5, longitude: 16.37 }));
    const result = await runCli(['validate', 'spots'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      'spots/out-of-range.spot.json:7:19: latitude must be between -90 and 90; latitude and longitude are probably swapped.',
      'spots/outside.spot.json:7:19: warning: latitude 47.07, longitude 15.44 is outside the area of topic 1 (Vienna trees) (west 16.18, south 48.11, east 16.58, north 48.33).',
      'spots/swapped.spot.json:7:19: warning: latitude 16.37, longitude 48.2 is outside the area of topic 1 (Vienna trees) (west 16.18, south 48.11, east 16.58, north 48.33); swapped, it is inside: latitude and longitude are probably swapped.',
    ]);
    const sarif = JSON.parse((await runCli(['validate', '--format', 'sarif', 'spots/out-of-range.spot.json'], { cwd: folder.dir })).stdout);
    assert.deepEqual(
      sarif.runs[0].results.map((found: { ruleId: string; level: string }) => [found.ruleId, found.level]),
      [['spot.swappedCoordinates', 'error']],
    );
  });

  it("a bbox with its south north of its north is the definition's problem, and no area is checked (exit 1)", async () => {
    folder.write('spot-topics/1.topic.json', AREA.replace('48.11', '48.5'));
    const result = await runCli(['validate', 'spots'], { cwd: folder.dir });
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /^spot-topics\/1\.topic\.json:\d+:\d+: The bbox's south \(48\.5\) is north of its north \(48\.33\): a bbox is \[west, south, east, north\]\.$/m,
    );
    assert.doesNotMatch(result.stdout, /outside the area/);
  });
});
