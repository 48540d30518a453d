// An ODK Central submission whose photo never reached the server: its row in the export names the
// file (ODK Collect names it before it sends it), the export's media/ folder does not have it, and
// the row's own AttachmentsPresent/AttachmentsExpected say so (0 of 1). The problem at the photo's
// cell says that the photo is missing on the server and what to do, in the archive as handed out
// and unpacked on disk alike; a photo missing from an export whose counts are complete (lost on
// the way here) keeps the plain message. The advice is followed: import --no-media takes the row.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkRows, openMappedTable, parseMapping, type CheckedRow } from '../../src/core/rows';
import { writeZip } from './helpers/zipEntries';
import { jsonLines, runCli } from './helpers/cliProcess';

const photo = (label: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`photo ${label} `.repeat(10))]);

/** ODK Central's CSV as its "All data and attachments" export writes it: its metadata columns after the questions, LF, quotes only where needed. */
const CSV =
  [
    'SubmissionDate,start,end,species,location-Latitude,location-Longitude,location-Altitude,location-Accuracy,photo,meta-instanceID,KEY,SubmitterID,SubmitterName,AttachmentsPresent,AttachmentsExpected,Status,ReviewState,DeviceID,Edits,FormVersion',
    '2026-04-05T19:41:18.901Z,2026-04-05T21:32:02.118+02:00,2026-04-05T21:41:17.004+02:00,Quercus robur,48.2081,16.3738,171.5,4.2,1712345670001.jpg,uuid:6c1f0e2a-1111-4a2b-9c3d-000000000001,uuid:6c1f0e2a-1111-4a2b-9c3d-000000000001,41,field team 2,1,1,,,collect:Xy12AbCdEf345678,0,2026040101',
    // Sent without its photo: Collect named the file, Central never got it.
    '2026-04-05T19:45:02.377Z,2026-04-05T21:38:44.510+02:00,2026-04-05T21:44:59.870+02:00,"Tilia cordata, young",48.2076,16.3723,170,5,1712345678901.jpg,uuid:6c1f0e2a-1111-4a2b-9c3d-000000000002,uuid:6c1f0e2a-1111-4a2b-9c3d-000000000002,41,field team 2,0,1,,,collect:Xy12AbCdEf345678,0,2026040101',
    // Complete on the server, missing here: the export's media folder lost it.
    '2026-04-05T19:52:40.010Z,2026-04-05T21:47:03.221+02:00,2026-04-05T21:52:38.640+02:00,Acer campestre,48.2079,16.3701,172,3.9,1712345689999.jpg,uuid:6c1f0e2a-1111-4a2b-9c3d-000000000003,uuid:6c1f0e2a-1111-4a2b-9c3d-000000000003,41,field team 2,1,1,,,collect:Xy12AbCdEf345678,0,2026040101',
  ].join('\n') + '\n';

const MAPPING = {
  topic_id: 1,
  source_id: 'odk-{KEY}',
  latitude: 'location-Latitude',
  longitude: 'location-Longitude',
  media: { fld_1_3: { columns: ['photo'], folder: 'media' } },
};

const NEVER_ARRIVED =
  'ODK Central has 0 of 1 attachments of this submission: the photo never reached the server. Have the device that made the submission send it again, or fix the submission, and download the export again; or import the rows without their photos: on the command line with --no-media, in the mapping by leaving this column out of media.';

describe('rows: an ODK Central submission whose attachment never reached the server', () => {
  let dir: string;
  beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rows-odk-attachments-'))));
  afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

  async function checked(table: string): Promise<string[][]> {
    const mapped = await openMappedTable(path.join(dir, table), parseMapping(path.join(dir, 'tree_survey.mapping.json'), JSON.stringify(MAPPING)));
    assert.deepEqual(mapped.problems, []);
    const rows: CheckedRow[] = [];
    for await (const row of checkRows(mapped.table, mapped.mapping!, {})) rows.push(row);
    return rows.map((row) => row.findings.map((finding) => finding.message));
  }

  it('in the export ZIP: the row whose counts say 0 of 1 is told its photo never reached the server, and what to do', async () => {
    await writeZip(path.join(dir, 'tree_survey.zip'), { 'tree_survey.csv': CSV, 'media/1712345670001.jpg': photo('oak') });
    assert.deepEqual(await checked('tree_survey.zip'), [
      [],
      [`The photo "1712345678901.jpg" is not in the folder media of the archive. ${NEVER_ARRIVED}`],
      ['The photo "1712345689999.jpg" is not in the folder media of the archive.'],
    ]);
  });

  it('unpacked on disk: the same words after the folder it was looked for in', async () => {
    await fs.writeFile(path.join(dir, 'tree_survey.csv'), CSV);
    await fs.mkdir(path.join(dir, 'media'));
    await fs.writeFile(path.join(dir, 'media', '1712345670001.jpg'), photo('oak'));
    const media = path.join(dir, 'media');
    assert.deepEqual(await checked('tree_survey.csv'), [
      [],
      [`The photo "1712345678901.jpg" is not in the folder media (${media}). ${NEVER_ARRIVED}`],
      [`The photo "1712345689999.jpg" is not in the folder media (${media}).`],
    ]);
  });

  it('the advice holds: the command line says --no-media, and import --no-media --dry-run takes every row', async function () {
    this.timeout(60_000);
    await writeZip(path.join(dir, 'tree_survey.zip'), { 'tree_survey.csv': CSV, 'media/1712345670001.jpg': photo('oak') });
    await fs.writeFile(path.join(dir, 'tree_survey.mapping.json'), JSON.stringify(MAPPING));
    const withPhotos = await runCli(['import', 'tree_survey.zip', '--dry-run', '--format', 'json'], { cwd: dir });
    assert.ok(
      jsonLines(withPhotos.stdout).some((line) => String(line.reason ?? '').includes('on the command line with --no-media')),
      withPhotos.stdout,
    );
    const without = await runCli(['import', 'tree_survey.zip', '--dry-run', '--no-media', '--format', 'json'], { cwd: dir });
    assert.equal(without.code, 0, without.stdout + without.stderr);
    assert.deepEqual(
      jsonLines(without.stdout)
        .filter((line) => line.row !== undefined)
        .map((line) => line.status),
      ['wouldImport', 'wouldImport', 'wouldImport'],
    );
  });
});
