// The proposed mapping of tables whose place is one column of latitude and longitude: the tester's
// semicolon file of decimal commas with one place copied with decimal points among them, a KoBo
// export whose only decimals are in its geopoint column, a grid's column of metres, and a table
// without any place. The expected notes are the cells' own text.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ensureCliBuilt, runCli, scratch } from './helpers/cliProcess';

describe('spot-import mapping: a position column and its notes', function () {
  this.timeout(60_000);
  let project: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = scratch()));
  afterEach(() => project.cleanup());

  async function propose(name: string, text: string): Promise<{ notes: string; mapping: Record<string, unknown> }> {
    project.write(name, text);
    const result = await runCli(['mapping', name], { cwd: project.dir });
    assert.equal(result.code, 0, result.stderr);
    const mapping = JSON.parse(readFileSync(project.path(name.replace(/\.csv$/, '.mapping.json')), 'utf8')) as Record<string, unknown>;
    return { notes: result.stderr, mapping };
  }

  it('proposes a column of decimal-comma places though one cell among them writes decimal points', async () => {
    const text =
      'Nr;Art;Höhe;Fundort\n1;Oak;12,5;48,2048 16,3577\n3;Oak;4,5;48.2048, 16.3577\n4;Oak;5,5;47,0707 15,4395 350 5\n6;Oak;7,5;48,2048, 16,3577\n8;Oak;8,5;48,205 16,358\n';
    const { notes, mapping } = await propose('dc.csv', text);
    assert.equal(mapping.position, 'Fundort', notes);
    assert.equal((mapping.source as Record<string, unknown>).decimalSeparator, ',');
  });

  it('names position and wkt where no column looks like the coordinates', async () => {
    const { notes } = await propose('plain.csv', 'Nr,Art,Ort\n1,Oak,beim Teich\n2,Beech,am Weg\n');
    assert.match(notes, /latitude, longitude: no column looks like them: name them, or name the one column that holds both as "position" .* or as "wkt"/);
  });

  it("detects the decimal separator from the place cells when they are the table's only decimals", async () => {
    const kobo = await propose('kobo.csv', '_uuid,Species,location,_index\nu1,Oak,47.0707 15.4395 350 5,1\nu2,Beech,"48.2048, 16.3577",2\n');
    assert.match(kobo.notes, /decimal separator '\.' \(detected: "47\.0707" in column "location"\)/);
    const grid = await propose('grid.csv', 'id,Species,pos\ng1,Oak,340000 3000\ng4,Oak,340000.5 3000.25 180 3\n');
    assert.match(grid.notes, /decimal separator '\.' \(detected: "340000\.5" in column "pos"\)/);
    // A semicolon file whose only decimals are the places' decimal commas reads them so.
    const comma = await propose('fundorte.csv', 'Nr;Fundort\n1;48,2048 16,3577\n2;48,21 16,36\n');
    assert.match(comma.notes, /decimal separator ',' \(detected: "48,2048" in column "Fundort"\)/);
    assert.equal(comma.mapping.position, 'Fundort');
  });
});
