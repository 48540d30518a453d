// A position column written longitude first ("16.3577, 48.2048", as a GIS or a web map's x, y
// writes it): the mapping says so with { "column", "order": "longitude-latitude" }, the proposal
// chooses that order when the sample says so unambiguously (a first number beyond ±90, or the
// topic's area), and a swapped row of a position mapping says what to change in the mapping, as
// its quick fix does, instead of naming two columns it does not have. Expected degrees are the
// cells' own numbers; Vienna's area is the tester's topic 11.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyEdits } from 'jsonc-parser';
import { swapCoordinateColumns } from '../../src/core/rows';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';
import { ensureCliBuilt, runCli, scratch } from './helpers/cliProcess';

const VIENNA = JSON.stringify({
  topic_id: 11,
  name: 'Vienna',
  area: { bbox: [16.18, 48.11, 16.58, 48.33] },
  fields: { fld_11_1: { label: 'Name', type: 'text' } },
});
const LON_FIRST = 'name,coordinates\nA,"16.3577, 48.2048"\nB,"16.3600, 48.2100"\n';

describe('rows: a position column written longitude first', function () {
  this.timeout(60_000);

  it('reads the cells longitude first when the mapping says so', async () => {
    const { rows } = await checkedTable('lonfirst.csv', LON_FIRST, {
      topic_id: 1,
      source_id: 'lf-{name}',
      position: { column: 'coordinates', order: 'longitude-latitude' },
    });
    assert.deepEqual(
      rows.map((row) => [row.findings, attributesOfRow(row).latitude, attributesOfRow(row).longitude]),
      [
        [[], 48.2048, 16.3577],
        [[], 48.21, 16.36],
      ],
    );
  });

  it('a swapped row of a position mapping says what to change in the mapping, degrees and grid alike', async () => {
    const degrees = await checkedTable('bad.csv', 'id,location\nb9,95 15\n', { topic_id: 1, source_id: 'b-{id}', position: 'location' });
    const message = degrees.rows[0].findings.map((finding) => finding.message).join(' | ');
    assert.match(
      message,
      /the cells of "location" probably write the longitude first.*"position": \{ "column": "location", "order": "longitude-latitude" \}/,
      message,
    );
    assert.doesNotMatch(message, /columns/);
    const grid = await checkedTable('grid.csv', 'id,pos\ng3,3000 340000\n', { topic_id: 1, source_id: 'g-{id}', position: 'pos', crs: 'EPSG:31256' });
    const gridMessage = grid.rows[0].findings.map((finding) => finding.message).join(' | ');
    assert.match(gridMessage, /the cells of "pos" probably write the longitude first/, gridMessage);
    assert.doesNotMatch(gridMessage, /columns of longitude and latitude/);
    // Read longitude first, cells written latitude first say the other way back.
    const back = await checkedTable('back.csv', 'id,location\nb9,48.2 95\n', {
      topic_id: 1,
      source_id: 'b-{id}',
      position: { column: 'location', order: 'longitude-latitude' },
    });
    assert.match(back.rows[0].findings.map((finding) => finding.message).join(' | '), /probably write the latitude first.*"position": "location"/);
  });

  it("the quick fix's edit says the order in the mapping, and says it back", () => {
    const text = '{\n  "topic_id": 11,\n  "source_id": "lf-{name}",\n  "position": "coordinates"\n}\n';
    const swap = swapCoordinateColumns(text);
    assert.ok(swap && 'position' in swap, JSON.stringify(swap));
    const swapped = applyEdits(text, swap.edits);
    assert.deepEqual(JSON.parse(swapped).position, { column: 'coordinates', order: 'longitude-latitude' });
    const back = swapCoordinateColumns(swapped);
    assert.ok(back);
    assert.equal(JSON.parse(applyEdits(swapped, back.edits)).position, 'coordinates');
  });
});

describe('spot-import mapping: a position column written longitude first', function () {
  this.timeout(60_000);
  let project: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = scratch()));
  afterEach(() => project.cleanup());

  async function proposed(name: string): Promise<{ notes: string; position: unknown }> {
    const result = await runCli(['mapping', name], { cwd: project.dir });
    assert.equal(result.code, 0, result.stderr);
    const mapping = JSON.parse(readFileSync(project.path(name.replace(/\.csv$/, '.mapping.json')), 'utf8')) as Record<string, unknown>;
    return { notes: result.stderr, position: mapping.position };
  }

  it("chooses longitude first by the topic's area, and by a first number beyond ±90", async () => {
    project.write('spot-topics/11.topic.json', VIENNA);
    project.write('lonfirst.csv', LON_FIRST);
    const byArea = await proposed('lonfirst.csv');
    assert.deepEqual(byArea.position, { column: 'coordinates', order: 'longitude-latitude' }, byArea.notes);
    assert.match(byArea.notes, /position: the column coordinates, longitude first/);
    project.write('sydney.csv', 'Nr,Place\n1,"151.2093, -33.8688"\n2,"151.2153, -33.8568"\n');
    const byRange = await proposed('sydney.csv');
    assert.deepEqual(byRange.position, { column: 'Place', order: 'longitude-latitude' }, byRange.notes);
  });

  it('keeps latitude first when nothing says otherwise', async () => {
    project.write('plain.csv', 'name,coordinates\nA,"48.2048, 16.3577"\nB,"16.3577, 48.2048"\n');
    assert.equal((await proposed('plain.csv')).position, 'coordinates');
  });
});
