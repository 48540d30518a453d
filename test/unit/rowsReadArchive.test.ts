// A table inside a ZIP archive, read in place: which entry is the table, the entry's lines as the
// rows' places, and archives that are not what they claim (cut short, an entry beyond the size
// limit, several tables, a workbook inside) refused with words that say what to do.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTable } from '../../src/core/rows/read/openTable';
import { writeZip } from './helpers/zipEntries';
import { cellNamer } from '../../src/core/rows/read/cellReference';
import { isRowReadProblem, type SourceRow, type SourceTable } from '../../src/core/rows/read/types';

async function rowsOf(table: SourceTable): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for await (const row of table.rows()) if (!isRowReadProblem(row)) rows.push(row);
  return rows;
}

describe('rows read: a table inside a ZIP archive', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-zip-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the only table, detected by its content as a file is; its cells named by the entry, line and column', async () => {
    const path = join(dir, 'export.zip');
    // A German spreadsheet's CSV: ';', a decimal comma, windows-1252 (ä as 0xE4).
    const csv = Buffer.concat([Buffer.from('id;Art;lat;lon\n1;Bergahorn '), Buffer.from([0xe4]), Buffer.from(';48,2;16,3\n2;Linde;48,1;16,2\n')]);
    await writeZip(path, { 'daten/export.csv': csv, 'media/1.jpg': Buffer.from('x') });
    const table = await openTable(path);
    assert.equal(table.format.format, 'csv');
    assert.equal(table.format.delimiter, ';');
    assert.equal(table.format.encoding, 'windows-1252');
    assert.equal(table.format.entry, 'daten/export.csv');
    const rows = await rowsOf(table);
    assert.deepEqual(
      rows.map((row) => row.values.Art),
      ['Bergahorn ä', 'Linde'],
    );
    assert.deepEqual(rows[1].cells.lat, { line: 3, column: 9 });
    assert.equal(cellNamer(table.format)!(rows[1].cells.lat), 'daten/export.csv:3:9');
    // Read again from its start, as a table's rows may be.
    assert.equal((await rowsOf(table)).length, 2);
  });

  it('reads a minified GeoJSON entry and an NDJSON entry named by source.entry', async () => {
    const path = join(dir, 'layers.zip');
    const features = Array.from({ length: 300 }, (_, i) => ({
      type: 'Feature',
      id: i,
      properties: { n: i },
      geometry: { type: 'Point', coordinates: [16 + i / 1000, 48] },
    }));
    await writeZip(path, {
      'a.geojson': JSON.stringify({ type: 'FeatureCollection', features }),
      'b.ndjson': '{"n":1,"lat":48}\n{"n":2,"lat":47}\n',
    });
    await assert.rejects(openTable(path), /layers\.zip: the archive holds 2 tables \(a\.geojson, b\.ndjson\): name one as source\.entry in the mapping/);
    const geojson = await openTable(path, { entry: 'a.geojson' });
    assert.equal(geojson.format.format, 'geojson');
    assert.equal((await rowsOf(geojson)).length, 300);
    const ndjson = await openTable(path, { entry: 'b.ndjson' });
    assert.deepEqual(
      (await rowsOf(ndjson)).map((row) => row.values.lat),
      [48, 47],
    );
    await assert.rejects(openTable(path, { entry: 'c.csv' }), /layers\.zip: the archive holds no entry c\.csv: its tables are a\.geojson, b\.ndjson/);
  });

  it('names the entry in what is wrong with the table inside', async () => {
    const path = join(dir, 'broken.zip');
    await writeZip(path, { 'form.geojson': '{"type":"Point","coordinates":[16.3,48.2]}' });
    await assert.rejects(openTable(path), /broken\.zip: form\.geojson:1:9: it is not a GeoJSON FeatureCollection/);
  });

  it('refuses a workbook inside the archive, an archive cut short, and an entry declared beyond 512 MiB, saying what to do', async () => {
    const workbook = join(dir, 'kobo.zip');
    await writeZip(workbook, { 'form.xlsx': Buffer.from('PK') });
    await assert.rejects(openTable(workbook), /form\.xlsx is a workbook inside the archive, which is not read in place: unpack it beside the archive/);

    const whole = join(dir, 'whole.zip');
    await writeZip(whole, { 'form.csv': 'id,lat,lon\n1,48,16\n'.repeat(200) });
    const cut = join(dir, 'cut.zip');
    const bytes = readFileSync(whole);
    writeFileSync(cut, bytes.subarray(0, bytes.length - 30));
    await assert.rejects(openTable(cut), /cut\.zip: it is not a ZIP archive that can be read/);

    // The sizes the central directory declares, changed in place: 600 MiB stored (no ratio to blame).
    const huge = join(dir, 'huge.zip');
    const patched = Buffer.from(bytes);
    const directory = patched.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    patched.writeUInt32LE(600 * 1024 * 1024, directory + 20);
    patched.writeUInt32LE(600 * 1024 * 1024, directory + 24);
    writeFileSync(huge, patched);
    await assert.rejects(openTable(huge), /huge\.zip: form\.csv in the archive would inflate to 600 MiB, more than 512 MiB/);
  });

  it('an entry whose bytes turn out damaged or other than declared gives the rows before, then says so at the entry', async () => {
    const lines = ['name,lat,lon', ...Array.from({ length: 20_000 }, (_, index) => `p${index},47.${index % 1000},16.${index % 977}`)];
    const csv = Buffer.from(lines.join('\n') + '\n');
    const honest = join(dir, 'honest.zip');
    await writeZip(honest, { 'form.csv': csv });
    const bytes = readFileSync(honest);
    // The central directory and the local header claim 100,000 bytes of the entry's 400,000 or so.
    const forged = Buffer.from(bytes);
    const directory = forged.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    forged.writeUInt32LE(100_000, directory + 24);
    const local = forged.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    if (forged.readUInt32LE(local + 22) === csv.length) forged.writeUInt32LE(100_000, local + 22);
    // Deflated bytes changed halfway through the entry.
    const damaged = Buffer.from(bytes);
    for (let at = Math.floor(bytes.length / 2); at < Math.floor(bytes.length / 2) + 64; at++) damaged[at] ^= 0xff;
    // Opening reads the whole entry to tell its encoding: the forged sizes are found then.
    writeFileSync(join(dir, 'forged.zip'), forged);
    await assert.rejects(openTable(join(dir, 'forged.zip')), /forged\.zip: form\.csv in the archive is damaged \(.+\): download the archive again$/);
    // With the encoding given nothing reads ahead: the rows come until the damage, then it is said.
    writeFileSync(join(dir, 'damaged.zip'), damaged);
    const items = [];
    for await (const item of (await openTable(join(dir, 'damaged.zip'), { encoding: 'windows-1252' })).rows()) items.push(item);
    // The garbage inflated before the damage shows may make rows of the wrong width (problems of their own).
    const last = items.at(-1);
    assert.ok(items.filter((item) => !isRowReadProblem(item)).length > 1000, 'the rows before the damage are read');
    assert.ok(last && isRowReadProblem(last));
    assert.match(last.problem, /^form\.csv in the archive is damaged \(.+\): the rows after line \d+ are not read; download the archive again$/);
  });
});
