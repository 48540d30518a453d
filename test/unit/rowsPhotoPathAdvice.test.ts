// A photo name several submissions' folders hold, and no cell of its row settles, is a problem
// that lists the candidates and says to write one's path into the cell. Written there, each path
// the message lists must be found: in an archive whose photo folder is not its top
// ("folder": "attachments") the listed path is the archive's, and it was looked for below the
// folder again (attachments/attachments/…), so the advice led to the same problem.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkRows, openMappedTable, parseMapping, type CheckedRow } from '../../src/core/rows';
import { writeZip } from './helpers/zipEntries';

const photo = (label: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`photo ${label} `.repeat(10))]);
const PHOTOS = {
  'attachments/a1f0c3e2-0001/1700000000000.jpg': photo('first submission'),
  'attachments/a1f0c3e2-0002/1700000000000.jpg': photo('second submission'),
};
const HEADER = '_uuid;_id;_geolocation_latitude;_geolocation_longitude;Art;photo';

describe('rows: the paths an ambiguous photo name is listed with', () => {
  let dir: string;
  beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rows-photo-advice-'))));
  afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

  async function checked(csv: string): Promise<CheckedRow[]> {
    await writeZip(path.join(dir, 'kobo.zip'), { 'kobo.csv': csv, ...PHOTOS });
    const mapping = {
      topic_id: 1,
      source_id: 'kobo-{_uuid}',
      latitude: '_geolocation_latitude',
      longitude: '_geolocation_longitude',
      media: { fld_1_3: { columns: ['photo'], folder: 'attachments' } },
    };
    const mapped = await openMappedTable(path.join(dir, 'kobo.zip'), parseMapping(path.join(dir, 'kobo.mapping.json'), JSON.stringify(mapping)));
    assert.deepEqual(mapped.problems, []);
    const rows: CheckedRow[] = [];
    for await (const row of checkRows(mapped.table, mapped.mapping!, {})) rows.push(row);
    return rows;
  }

  it('in an archive below its photo folder: each path the message lists, written into the cell, is that photo', async () => {
    const [unsettled] = await checked(`${HEADER}\r\na1f0c3e2-0003;503;48.2079;16.3701;Acer campestre;1700000000000.jpg\r\n`);
    const message = unsettled.findings.map((finding) => finding.message).join('\n');
    const listed = /\(([^()]+)\), and no cell of this row names one of them/.exec(message)?.[1].split(', ');
    assert.deepEqual(listed, Object.keys(PHOTOS), message);

    const rows = await checked(
      [HEADER, ...listed!.map((entry, index) => `a1f0c3e2-000${index + 3};50${index + 3};48.2079;16.3701;Acer campestre;${entry}`)].join('\r\n') + '\r\n',
    );
    assert.deepEqual(
      rows.map((row) => row.findings.map((finding) => finding.message)),
      [[], []],
    );
    assert.deepEqual(
      rows.map((row) => row.spot?.media?.groups[0].files[0].relativePath),
      Object.keys(PHOTOS),
    );
  });
});
