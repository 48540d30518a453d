// A table of a header and no rows (a form's export before its first submission, the template a
// city publishes) and a mapping written elsewhere with --out: what the bundled command line says
// of them. The tester saw "lat and lon are empty in every row looked at" for a file of no rows,
// "0 rows of h.csv checked: all valid", and, after --out, a validate hint that did not find the
// mapping it had just written.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { ensureCliBuilt, runCli, scratch } from './helpers/cliProcess';

describe('spot-import: a table without rows, and a mapping written with --out', function () {
  this.timeout(60_000);
  let project: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = scratch()));
  afterEach(() => project.cleanup());

  it('mapping of a header alone says the table has no rows and the guesses come from the column names', async () => {
    project.write('empty.csv', 'id;lat;lon;Baumart\r\n');
    const result = await runCli(['mapping', 'empty.csv'], { cwd: project.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /empty\.csv has no rows below its header: the mapping is guessed from the column names alone; check it against an export with rows/,
    );
    assert.doesNotMatch(result.stderr, /empty in every row looked at/);
    // A GeoJSON layer of no features has no header to speak of.
    project.write('none.geojson', '{"type":"FeatureCollection","features":[]}');
    const layer = await runCli(['mapping', 'none.geojson'], { cwd: project.dir });
    assert.doesNotMatch(layer.stderr, /below its header/);
  });

  it('validate of a header alone says the table has no rows, beside the rows of another table; exit 0', async () => {
    const mapping = JSON.stringify({ topic_id: 1, source_id: 't-{id}', latitude: 'lat', longitude: 'lon' });
    project.write('empty.csv', 'id;lat;lon\r\n');
    project.write('empty.mapping.json', mapping);
    project.write('full.csv', 'id;lat;lon\r\n1;47.07;15.43\r\n');
    project.write('full.mapping.json', mapping);
    const alone = await runCli(['validate', 'empty.csv'], { cwd: project.dir });
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stderr, /^empty\.csv has no rows\.$/m);
    const both = await runCli(['validate', 'full.csv', 'empty.csv'], { cwd: project.dir });
    assert.equal(both.code, 0, both.stderr);
    assert.match(both.stderr, /^1 row of full\.csv checked: all valid; empty\.csv has no rows\.$/m);
  });

  it('mapping --out into a folder not there yet makes it, and the hint names the mapping with --mapping', async () => {
    project.write('trees.csv', 'id,lat,lon\n1,47.07,15.43\n');
    const result = await runCli(['mapping', 'trees.csv', '--out', 'mappings/trees.json'], { cwd: project.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(existsSync(project.path('mappings/trees.json')));
    assert.match(result.stderr, /then: spot-import validate trees\.csv --mapping mappings\/trees\.json$/m);
    // The hint, followed, finds the mapping (its topic_id is still the placeholder: a problem of the mapping, not "no mapping").
    const followed = await runCli(['validate', 'trees.csv', '--mapping', 'mappings/trees.json'], { cwd: project.dir });
    assert.doesNotMatch(followed.stderr + followed.stdout, /which is not there|has no mapping beside it/);
  });
});
