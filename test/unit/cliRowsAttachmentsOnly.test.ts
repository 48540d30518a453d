// KoBoToolbox's "media attachments" download: a ZIP of the photos only, a folder per submission
// (<user>/attachments/<form uid>/<submission uuid>/<file>), no table. Given to spot-import as if it
// were the export, it says that it is the photos only, that the table is the other download, and
// how the two go together; and that advice, followed, is a table whose photos are all found.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runCli, scratch } from './helpers/cliProcess';
import { writeZip } from './helpers/zipEntries';
import { writeWorkbook } from './helpers/workbook';

const TOPIC = {
  topic_id: 21,
  name: 'Bäume',
  fields: {
    fld_21_1: { label: 'Species', type: 'text' },
    fld_21_4: { label: 'Fotos', type: 'gallery' },
  },
};

const photo = (label: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`photo ${label} `.repeat(20))]);

const FORM = 'aJ7kQm2vXcPz8WnR4tYbLs';
const A = '0b7d2f1e-3c4a-4e5b-9f6a-7b8c9d0e1f2a';
const B = '7e2a9c41-58b3-4d0f-a6e2-19c3b5d7f804';
/** The attachments ZIP as KoBoToolbox hands it out: the user's folder at its top, the same photo name in two submissions, a signature beside a photo. */
const ATTACHMENTS = {
  [`forest_team/attachments/${FORM}/${A}/1764317564512.jpg`]: photo('A'),
  [`forest_team/attachments/${FORM}/${A}/signature-10_41_2.png`]: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from('signature')]),
  [`forest_team/attachments/${FORM}/${B}/1764317564512.jpg`]: photo('B'),
};

/** The export of the same submissions, the separate download. */
const EXPORT = [
  ['start', 'group_obs/Species', '_point_latitude', '_point_longitude', 'photo', 'signature', '_id', '_uuid', '_index'],
  ['2026-11-28T09:12:44.512+01:00', 'Quercus robur', '47.0707', '15.4395', '1764317564512.jpg', 'signature-10_41_2.png', '231455012', A, '1'],
  ['2026-11-28T09:20:03.004+01:00', 'Fagus sylvatica', '47.07102', '15.43871', '1764317564512.jpg', '', '231455013', B, '2'],
];
/** As CSV: ";" between cells, every cell quoted, CRLF. */
const KOBO_CSV = EXPORT.map((row) => row.map((cell) => `"${cell}"`).join(';')).join('\r\n') + '\r\n';
/** As XLSX: texts as inline strings, numbers as numbers, an empty cell left out. */
const KOBO_SHEET = EXPORT.map(
  (row, index) =>
    `<row r="${index + 1}">${row
      .map((cell, column) => {
        const reference = `${String.fromCharCode(65 + column)}${index + 1}`;
        if (cell === '') return '';
        return index > 0 && /^-?\d+(\.\d+)?$/.test(cell)
          ? `<c r="${reference}"><v>${cell}</v></c>`
          : `<c r="${reference}" t="inlineStr"><is><t>${cell}</t></is></c>`;
      })
      .join('')}</row>`,
).join('');

describe('spot-import rows: a ZIP of photos without a table (KoBoToolbox media attachments)', function () {
  this.timeout(60_000);

  it('says the archive is the photos only, that the table is a separate download, and how to use the two', async () => {
    const project = scratch({ 'spot-topics/21.topic.json': JSON.stringify(TOPIC) });
    try {
      await writeZip(project.path('Baeume_-_attachments.zip'), ATTACHMENTS);
      const proposed = await runCli(['mapping', 'Baeume_-_attachments.zip'], { cwd: project.dir });
      assert.notEqual(proposed.code, 0, proposed.stdout + proposed.stderr);
      const said = proposed.stdout + proposed.stderr;
      assert.ok(
        said.includes(
          'the archive holds media files and no table: it is the photos only, as KoBoToolbox\'s "media attachments" download is; the table is a separate download, the export as XLSX or CSV. Unpack this archive into a folder beside that table (media/, for one) and map the table: its proposed mapping finds the photos there, each in its submission\'s folder; or set the media "folder" of its mapping to that folder (an archive is not read as a media folder).',
        ),
        said,
      );
      assert.ok(!said.includes('holds no table (a .csv'), said);
    } finally {
      project.cleanup();
    }
  });

  for (const table of ['Baeume_-_all_versions_-_False_-_2026-11-30-08-15-42.csv', 'Baeume_-_all_versions_-_False_-_2026-11-30-08-15-42.xlsx']) {
    it(`the advice followed: the ${table.slice(table.lastIndexOf('.') + 1).toUpperCase()} beside the archive unpacked into media/ is mapped with media/, and every photo is found in its submission`, async () => {
      const project = scratch({ 'spot-topics/21.topic.json': JSON.stringify(TOPIC) });
      try {
        if (table.endsWith('.csv')) project.write(table, KOBO_CSV);
        else await writeWorkbook(project.path(table), { sheets: [{ name: 'Baeume', rows: KOBO_SHEET }] });
        for (const [entry, bytes] of Object.entries(ATTACHMENTS)) project.write(`media/${entry}`, bytes);
        const proposed = await runCli(['mapping', table], { cwd: project.dir });
        assert.equal(proposed.code, 0, proposed.stderr);
        const mapping = JSON.parse(readFileSync(project.path(table.replace(/\.\w+$/, '.mapping.json')), 'utf8')) as {
          media: Record<string, { columns: string[]; folder?: string }>;
        };
        assert.deepEqual(mapping.media, { fld_21_4: { columns: ['photo', 'signature'], folder: 'media' } });
        const checked = await runCli(['validate', table], { cwd: project.dir });
        assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      } finally {
        project.cleanup();
      }
    });
  }
});
