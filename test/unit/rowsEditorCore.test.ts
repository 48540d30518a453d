// The core the editor's table features stand on (src/core/rows: mappedTable, cellUses, checkRow):
// a table opened with its mapping as the command line opens it, one problem per wrong coordinate
// pair (not a second "required" for the coordinate left out), and what each cell becomes.
import * as assert from 'assert';
import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cellAt, checkRows, openMappedTable, parseMapping, usesOfCell, type CheckedRow } from '../../src/core/rows';

async function tableWith(csv: string, mapping: object): Promise<{ dir: string; table: string; mappingPath: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rows-editor-core-'));
  const table = path.join(dir, 'trees.csv');
  await fs.writeFile(table, csv);
  const mappingPath = path.join(dir, 'trees.mapping.json');
  await fs.writeFile(mappingPath, JSON.stringify(mapping, null, 2));
  return { dir, table, mappingPath };
}

async function checkedRows(table: string, mappingPath: string): Promise<CheckedRow[]> {
  const parsed = parseMapping(mappingPath, await fs.readFile(mappingPath, 'utf8'));
  const mapped = await openMappedTable(table, parsed);
  assert.ok(mapped.mapping, JSON.stringify(mapped.problems));
  const rows: CheckedRow[] = [];
  for await (const row of checkRows(mapped.table, mapped.mapping, {})) rows.push(row);
  return rows;
}

const MAPPING = { topic_id: 1, source_id: 'r-{id}', latitude: 'lat', longitude: 'lon', fields: { fld_1_1: 'name' } };

describe('rows in the editor: the core it uses', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it('says once what is wrong with a coordinate pair: no "longitude is required" beside "probably swapped" or an empty latitude', async () => {
    const { dir, table, mappingPath } = await tableWith('id,lat,lon,name\n1,139.69,35.68,a\n2,,15.44,b\n3,47.07,x,c\n', MAPPING);
    dirs.push(dir);
    const rows = await checkedRows(table, mappingPath);
    const messages = rows.map((row) => row.findings.map((finding) => `${finding.line}:${finding.column} ${finding.message}`));
    assert.deepStrictEqual(messages, [
      ['2:3 latitude 139.69 is out of range; latitude and longitude are probably swapped.'],
      ['3:3 latitude is empty in this row (column "lat").'],
      ['4:9 longitude: "x" is not a number (e.g. 47.2692).'],
    ]);
  });

  it('opens a table with a broken mapping without making it concrete, and says why at the mapping', async () => {
    const { dir, table, mappingPath } = await tableWith('id,lat,lon\n1,47,15\n', { ...MAPPING, latitude: 'latt', fields: {} });
    dirs.push(dir);
    const mapped = await openMappedTable(table, parseMapping(mappingPath, await fs.readFile(mappingPath, 'utf8')));
    assert.strictEqual(mapped.mapping, undefined);
    assert.deepStrictEqual(
      mapped.problems.map((problem) => problem.message),
      ['trees.csv has no column "latt"; did you mean "lat"?'],
    );
  });

  it('tells what a cell becomes: the attributes it is sent as, with their values, and nothing for a value the mapping gives', async () => {
    const { dir, table, mappingPath } = await tableWith('id,lat,lon,name\n7,"47,5","15,44",Oak\n', { ...MAPPING, source: { decimalSeparator: ',' }, state: 1 });
    dirs.push(dir);
    const [row] = await checkedRows(table, mappingPath);
    assert.ok(row.spot);
    // The first cell feeds the source_id template; the topic_id and state come from the mapping, not from it.
    assert.deepStrictEqual(usesOfCell(row.spot, { line: 2, column: 1 }), { attributes: [{ attribute: 'source_id', value: 'r-7' }], photos: [] });
    assert.deepStrictEqual(usesOfCell(row.spot, { line: 2, column: 3 }).attributes, [{ attribute: 'latitude', value: 47.5 }]);
    assert.deepStrictEqual(usesOfCell(row.spot, { line: 2, column: 18 }).attributes, [{ attribute: 'fld_1_1', value: 'Oak' }]);
    // A position inside a cell belongs to the cell that starts last before it.
    assert.deepStrictEqual(cellAt({ id: { line: 2, column: 1 }, lat: { line: 2, column: 3 }, lon: { line: 2, column: 10 } }, { line: 2, column: 6 }), {
      column: 'lat',
      position: { line: 2, column: 3 },
    });
    assert.strictEqual(cellAt({ id: { line: 2, column: 1 } }, { line: 1, column: 5 }), undefined, 'nothing before the row');
  });
});
