// "Länge" has two spellings in Unicode: composed (ä, NFC, as keyboards type it) and decomposed
// (a + U+0308, NFD, as macOS writes names, and as a mapping made from such a header or typed on a
// Mac may hold it). A header and a mapping spelt differently did not match: "has no column
// "Länge"; did you mean "Länge"?". Both sides are read composed now, in every combination.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkRows, openMappedTable, parseMapping, type CheckedRow } from '../../src/core/rows';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';
import { writeZip } from './helpers/zipEntries';

const COMPOSED = 'L\u00e4nge';
const DECOMPOSED = 'La\u0308nge';

async function attributesOf(header: string, inMapping: string): Promise<Record<string, unknown>> {
  const mapping = { topic_id: 1, source_id: `n-{Nr}-{${inMapping}}`, latitude: 'Breite', longitude: inMapping, fields: { fld_1_1: inMapping } };
  const { rows } = await checkedTable('n.csv', `Nr;Breite;${header}\n1;47,1;15,5\n`, mapping);
  assert.deepEqual(rows[0].findings, []);
  return attributesOfRow(rows[0]);
}

describe('rows: column names in either Unicode spelling', () => {
  for (const [header, inMapping, how] of [
    [DECOMPOSED, COMPOSED, 'a Mac header, a typed mapping'],
    [COMPOSED, DECOMPOSED, 'a typed header, a mapping written on a Mac'],
    [DECOMPOSED, DECOMPOSED, 'both from a Mac'],
  ] as const)
    it(`${how}: the column is found and read`, async () => {
      const attributes = await attributesOf(header, inMapping);
      assert.equal(attributes.longitude, 15.5);
      assert.equal(attributes.fld_1_1, '15,5');
      assert.equal(attributes.source_id, 'n-1-15,5');
    });
});

// A photo's name has the same two spellings: a table typed on Windows or exported by a form tool
// names it composed, while macOS and some ZIP tools write the file's name decomposed (and the other
// way round). On a file system that keeps names as given (Linux's), "Größe_Élodie.jpg" was "not in
// the folder photos" beside the very file. Names are compared composed; the file is read by its own.
describe('rows: photo names in either Unicode spelling', () => {
  const NFC_NAME = 'Gr\u00f6\u00dfe_\u00c9lodie.jpg';
  const NFD_NAME = 'Gro\u0308\u00dfe_E\u0301lodie.jpg';
  const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('Schwarzkiefer am Hang')]);
  const mapping = (folder: string) => ({
    topic_id: 1,
    source_id: 'u-{id}',
    latitude: 'lat',
    longitude: 'lon',
    media: { fld_1_3: { columns: ['photo'], folder } },
  });
  let dir: string;
  beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rows-unicode-photos-'))));
  afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

  /** The one row of `table` (written as `text` unless there already; photos in `folder`), checked: its findings and the photos it sends. */
  async function onlyRow(table: string, text: string | undefined, folder: string) {
    if (text !== undefined) await fs.writeFile(path.join(dir, table), text);
    const parsed = parseMapping(path.join(dir, `${table.replace(/\.[^.]+$/, '')}.mapping.json`), JSON.stringify(mapping(folder)));
    const mapped = await openMappedTable(path.join(dir, table), parsed);
    assert.deepEqual(mapped.problems, []);
    const rows: CheckedRow[] = [];
    for await (const row of checkRows(mapped.table, mapped.mapping!, {})) rows.push(row);
    assert.equal(rows.length, 1);
    return { findings: rows[0].findings.map((finding) => finding.message), files: rows[0].spot?.media?.groups.flatMap((group) => group.files) ?? [] };
  }

  for (const [onDisk, inCell, how] of [
    [NFD_NAME, NFC_NAME, 'a file macOS named, a cell typed elsewhere'],
    [NFC_NAME, NFD_NAME, 'a file typed elsewhere, a cell written on a Mac'],
  ] as const) {
    it(`${how}: found in the folder and read by its name on disk`, async () => {
      await fs.mkdir(path.join(dir, 'photos'));
      await fs.writeFile(path.join(dir, 'photos', onDisk), JPEG);
      const { findings, files } = await onlyRow('t.csv', `id,Species,lat,lon,photo\r\n1,Pinus nigra,47.07,15.44,${inCell}\r\n`, 'photos');
      assert.deepEqual(findings, []);
      assert.equal(files.length, 1);
      assert.equal(files[0].path, path.join(dir, 'photos', onDisk));
      assert.deepEqual(await fs.readFile(files[0].path), JPEG);
    });
  }

  it('a decomposed name in a folder per submission below the media folder, named composed', async () => {
    const folder = path.join(dir, 'media', 'biouser', 'attachments', '4c1b7f3e', '0b7d2f1e-3c4a-4e5b-9f6a-7b8c9d0e1f2a');
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, NFD_NAME), JPEG);
    const { findings, files } = await onlyRow(
      'k.csv',
      `"id";"lat";"lon";"photo"\r\n"0b7d2f1e-3c4a-4e5b-9f6a-7b8c9d0e1f2a";"47.07";"15.44";"${NFC_NAME}"\r\n`,
      'media',
    );
    assert.deepEqual(findings, []);
    assert.equal(files[0]?.path, path.join(folder, NFD_NAME));
  });

  it('a decomposed entry of an archive, named composed', async () => {
    await writeZip(path.join(dir, 'export.zip'), {
      'export.csv': `id,lat,lon,photo\n1,47.07,15.44,${NFC_NAME}\n`,
      [`media/${NFD_NAME}`]: JPEG,
    });
    const { findings, files } = await onlyRow('export.zip', undefined, 'media');
    assert.deepEqual(findings, []);
    assert.equal(files[0]?.relativePath, `media/${NFD_NAME}`);
  });
});
