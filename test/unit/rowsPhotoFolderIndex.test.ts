// A media folder on disk whose photos sit in a folder per submission (an unpacked KoBoToolbox
// ZIP) is listed once for the whole run, when a name is first not found where the cell puts it,
// not once per row: a table of many rows would otherwise walk the folder as often.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkRows, openMappedTable, parseMapping, type CheckedRow } from '../../src/core/rows';

const ROWS = 40;

describe('rows: photos in a folder per submission below the media folder', () => {
  let dir: string;
  beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rows-photo-index-'))));
  afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

  it(`finds each row's photo below the folder and lists the folder once for ${ROWS} rows`, async () => {
    const lines = ['_uuid,lat,lon,photo'];
    for (let i = 0; i < ROWS; i++) {
      const uuid = `6f1b2c3d-4e5f-4a6b-8c7d-${String(i).padStart(12, '0')}`;
      lines.push(`${uuid},47.07${i},15.43,17000000${String(i).padStart(5, '0')}.jpg`);
      const folder = path.join(dir, 'media', 'team', 'attachments', 'a1b2c3', uuid);
      await fs.mkdir(folder, { recursive: true });
      await fs.writeFile(path.join(folder, `17000000${String(i).padStart(5, '0')}.jpg`), Buffer.from([0xff, 0xd8, 0xff, 0xe0, i]));
    }
    await fs.writeFile(path.join(dir, 'survey.csv'), lines.join('\n') + '\n');
    const mapping = { topic_id: 1, source_id: 'k-{_uuid}', latitude: 'lat', longitude: 'lon', media: { fld_1_3: { columns: ['photo'], folder: 'media' } } };
    const parsed = parseMapping(path.join(dir, 'survey.mapping.json'), JSON.stringify(mapping));

    const root = path.join(dir, 'media');
    const original = fs.readdir;
    let listed = 0;
    fs.readdir = ((folder: unknown, ...rest: unknown[]) => {
      if (path.resolve(String(folder)) === root) listed++;
      return (original as (...args: unknown[]) => unknown)(folder, ...rest);
    }) as typeof fs.readdir;
    const rows: CheckedRow[] = [];
    try {
      const mapped = await openMappedTable(path.join(dir, 'survey.csv'), parsed);
      assert.deepEqual(mapped.problems, []);
      for await (const row of checkRows(mapped.table, mapped.mapping!, {})) rows.push(row);
    } finally {
      fs.readdir = original;
    }
    assert.equal(rows.length, ROWS);
    assert.deepEqual(
      rows.flatMap((row) => row.findings.map((finding) => `${row.line}: ${finding.message}`)),
      [],
    );
    assert.equal(listed, 1, 'the media folder is listed once');
  });
});
