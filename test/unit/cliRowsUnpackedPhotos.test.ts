// spot-import on a KoBoToolbox export whose photos ZIP was unpacked beside the table: the photos
// sit in media/<user>/attachments/<form uid>/<submission uuid>/<file>, where two submissions'
// photos may share a name. They are found as they are in the archive itself: by name below the
// folder, in the row's own submission folder when several hold the name, and a name no cell of
// the row settles is a problem that names the candidates. The proposed mapping says where they are.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runCli, scratch } from './helpers/cliProcess';

const TOPIC = {
  topic_id: 21,
  name: 'Bäume',
  fields: {
    fld_21_1: { label: 'Species', type: 'text' },
    fld_21_4: { label: 'Fotos', type: 'gallery' },
  },
};

/** Distinct bytes per photo, so which one was taken can be told. */
const photo = (label: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`photo ${label} `.repeat(20))]);

const FORM = '4c1b7f3e2a9d4f6b8e0a1c2d3e4f5a6b';
const A = '0b7d2f1e-3c4a-4e5b-9f6a-7b8c9d0e1f2a';
const B = '7e2a9c41-58b3-4d0f-a6e2-19c3b5d7f804';
const C = '3f9b1d27-6c4e-4a8b-b5d3-2e7f0a9c1b46';
const D = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const E = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
const folderOf = (uuid: string) => `media/forest_team/attachments/${FORM}/${uuid}`;

/** A KoBoToolbox CSV download as it comes: ";" between cells, every cell quoted, CRLF, a line break inside a cell. */
function koboCsv(): string {
  const header = ['start', 'group_obs/species', 'group_obs/notes', '_point_latitude', '_point_longitude', 'photo', 'photo_URL', '_id', '_uuid', '_index'];
  const url = (uuid: string, file: string) => `https://kc.kobotoolbox.org/media/original?media_file=forest_team%2Fattachments%2F${FORM}%2F${uuid}%2F${file}`;
  const rows = [
    [
      '2026-11-28T09:12:44.512+01:00',
      'Quercus robur',
      'Stamm hohl;\nSpechtloch',
      '47.0707',
      '15.4395',
      '1764317564512.jpg',
      url(A, '1764317564512.jpg'),
      '231455012',
      A,
      '1',
    ],
    ['2026-11-28T09:20:03.004+01:00', 'Fagus sylvatica', '', '47.07102', '15.43871', '1764318000000.jpg', url(B, '1764318000000.jpg'), '231455013', B, '2'],
    [
      '2026-11-28T10:01:17.250+01:00',
      'Larix decidua',
      '"Krone" trocken',
      '47.06985',
      '15.44012',
      '1764318000000.jpg',
      url(C, '1764318000000.jpg'),
      '231455014',
      C,
      '3',
    ],
    // Its own folder was not in the ZIP, and two others hold the name: which one cannot be told.
    ['2026-11-28T10:30:00.000+01:00', 'Picea abies', '', '47.0699', '15.438', '1764318000000.jpg', url(D, '1764318000000.jpg'), '231455015', D, '4'],
    ['2026-11-28T11:02:00.000+01:00', 'Tilia cordata', '', '47.0701', '15.4388', '1764319999999.jpg', url(E, '1764319999999.jpg'), '231455016', E, '5'],
  ];
  const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
  return [header, ...rows].map((row) => row.map(quoted).join(';')).join('\r\n') + '\r\n';
}

describe('spot-import rows: a KoBoToolbox export beside its unpacked photos ZIP', function () {
  this.timeout(60_000);

  it("mapping proposes media/ and says the photos are in folders below it; validate finds each in its row's submission folder, names the candidates of one no cell settles; convert takes the row's own", async () => {
    const project = scratch({ 'spot-topics/21.topic.json': JSON.stringify(TOPIC), 'baeume.csv': koboCsv() });
    try {
      project.write(`${folderOf(A)}/1764317564512.jpg`, photo('A'));
      project.write(`${folderOf(B)}/1764318000000.jpg`, photo('B'));
      project.write(`${folderOf(C)}/1764318000000.jpg`, photo('C'));

      const proposed = await runCli(['mapping', 'baeume.csv'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      const mapping = JSON.parse(readFileSync(project.path('baeume.mapping.json'), 'utf8')) as Record<string, unknown>;
      assert.deepEqual(mapping.media, { fld_21_4: { columns: ['photo'], folder: 'media' } });
      assert.match(proposed.stderr, /^- media: fld_21_4 from the column photo, files in media\/$/m);
      assert.match(proposed.stderr, /^- media: the files are in folders below media\/ \(a folder per submission\)/m);

      const checked = await runCli(['validate', 'baeume.csv'], { cwd: project.dir });
      assert.equal(checked.code, 1, checked.stdout + checked.stderr);
      const lines = checked.stdout.trim().split('\n');
      assert.equal(lines.length, 2, checked.stdout);
      // Row D (line 6: the line break inside row A's notes is a line of the file); the candidates in name order.
      assert.match(
        lines[0],
        new RegExp(
          `^baeume\\.csv:6:\\d+: The photo "1764318000000\\.jpg" is in 2 folders below media \\(` +
            `forest_team/attachments/${FORM}/${C}/1764318000000\\.jpg, forest_team/attachments/${FORM}/${B}/1764318000000\\.jpg\\)`,
        ),
      );
      assert.match(lines[1], /^baeume\.csv:7:\d+: The photo "1764319999999\.jpg" is not in the folder media \(/);

      const converted = await runCli(['convert', 'baeume.csv', '--out', 'spots'], { cwd: project.dir });
      assert.equal(converted.code, 1, converted.stdout + converted.stderr);
      const bytes = (uuid: string) => readFileSync(project.path(`spots/kobo-${uuid}.media/fld_21_4/01-1764318000000.jpg`)).toString('latin1');
      assert.equal(bytes(B), photo('B').toString('latin1'), "row B's own photo");
      assert.equal(bytes(C), photo('C').toString('latin1'), "row C's own photo");
    } finally {
      project.cleanup();
    }
  });

  it('a proposal whose photo folder holds none of the named files says so', async () => {
    const project = scratch({ 'spot-topics/21.topic.json': JSON.stringify(TOPIC), 'baeume.csv': koboCsv() });
    try {
      // Another table's photos: none of this table's names.
      project.write('photos/IMG_0001.jpg', photo('other'));
      const proposed = await runCli(['mapping', 'baeume.csv'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      assert.match(proposed.stderr, /^- media: none of the photos the cells name is in photos\/ or beside the table/m);
    } finally {
      project.cleanup();
    }
  });
});
