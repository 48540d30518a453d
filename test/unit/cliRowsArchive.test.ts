// spot-import on the ZIP archives form tools hand out with their photos, read in place: ODK
// Central's "All data and attachments" (form.csv, a repeat group's table, media/) and a KoBoToolbox
// export (the table beside a folder per submission, where two submissions' photos share a name).
// mapping proposes the table and the photo folder inside the archive; validate, import and convert
// read each photo from the archive; a second run sends nothing; a name in several submissions'
// folders that no cell of the row settles, a zip bomb and a name that climbs out are problems of
// their row.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { jsonLines, runCli, scratch, useCliSandbox } from './helpers/cliProcess';
import { writeZip } from './helpers/zipEntries';
import { validateJsonLine } from './helpers/cliSchemas';

const TOPIC = {
  topic_id: 21,
  name: 'Bäume',
  fields: {
    fld_21_1: { label: 'Art', type: 'text' },
    fld_21_4: { label: 'Fotos', type: 'gallery' },
  },
};

/** Distinct bytes per photo, so which one a gallery got can be told. */
const photo = (label: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`photo ${label} `.repeat(50))]);

/** 3 MiB that do not compress: more than a run holds of a file (1 MiB), so it is read from the archive as it is sent. */
const BIG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(3 * 1024 * 1024)]);

/** The bytes the sandbox stored in the gallery of a spot's field, in gallery order. */
function galleryBytes(sandbox: ReturnType<ReturnType<typeof useCliSandbox>['sandbox']>, sourceId: string, field: string): string[] {
  const spot = sandbox.spotBySourceId(sourceId);
  assert.ok(spot, `no spot ${sourceId}`);
  const gallery = sandbox.gallery(spot.attributes[field] as number);
  assert.ok(gallery, `${sourceId} has no gallery in ${field}: ${JSON.stringify(spot.attributes)}`);
  return gallery.mediaIds.map((id) => readFileSync(sandbox.media(id)!.path).toString('latin1'));
}

describe('spot-import rows: a ZIP archive of a form tool, photos read in place', function () {
  this.timeout(90_000);
  const service = useCliSandbox();

  it('ODK Central: mapping proposes form.csv and media/; import uploads each photo from the archive; a second run sends nothing; convert unpacks them', async () => {
    const project = scratch({ 'spot-topics/21.topic.json': JSON.stringify(TOPIC) });
    try {
      const header = 'SubmissionDate,meta-instanceID,location-Latitude,location-Longitude,location-Altitude,location-Accuracy,Art,photo,KEY';
      const rows = [
        '2026-11-30T09:12:44.000Z,uuid:0a1b,48.2081,16.3738,171,4.5,Quercus robur,1764493964.jpg,uuid:0a1b',
        // Two photos, the second larger than the run holds in memory: sent as it is unpacked, hashed on the way.
        '2026-11-30T09:20:10.000Z,uuid:0a1c,48.2076,16.3723,170,3.9,Tilia cordata,1764494410.jpg;1764494411.jpg,uuid:0a1c',
        // A short row as ODK writes it (trailing empty cells left out): no photo.
        '2026-11-30T09:31:02.000Z,uuid:0a1d,48.2079,16.3701,172,5.1,Acer campestre',
      ];
      await writeZip(project.path('baeume.zip'), {
        'baeume.csv': [header, ...rows].join('\n') + '\n',
        'baeume-messungen.csv': 'umfang,PARENT_KEY,KEY\n120,uuid:0a1b,uuid:0a1b/messungen[1]\n',
        'media/1764493964.jpg': photo('one'),
        'media/1764494410.jpg': photo('two'),
        'media/1764494411.jpg': BIG,
      });

      const proposed = await runCli(['mapping', 'baeume.zip'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      assert.match(proposed.stderr, /source\.entry: "baeume\.csv", the main table of the archive; the others: "baeume-messungen\.csv" \(a repeat group/);
      const mapping = JSON.parse(readFileSync(project.path('baeume.mapping.json'), 'utf8')) as Record<string, unknown> & {
        source: Record<string, unknown>;
        media: Record<string, { columns: string[]; folder?: string }>;
      };
      assert.equal(mapping.source.entry, 'baeume.csv');
      assert.equal(mapping.latitude, 'location-Latitude');
      assert.equal(mapping.longitude, 'location-Longitude');
      const [proposedMedia] = Object.values(mapping.media);
      assert.deepEqual(proposedMedia, { columns: ['photo'], folder: 'media' });
      // Completed as a person would: the topic and its gallery field.
      Object.assign(mapping, { topic_id: 21, media: { fld_21_4: proposedMedia } });
      project.write('baeume.mapping.json', JSON.stringify(mapping, null, 2));

      const checked = await runCli(['validate', 'baeume.zip', '--format', 'json'], { cwd: project.dir });
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      const lines = jsonLines(checked.stdout);
      for (const line of lines) validateJsonLine(line);
      assert.equal(lines.filter((line) => line.status === 'valid').length, 3, checked.stdout);

      const env = await service.start();
      const sandbox = service.sandbox();
      const first = await runCli(['import', 'baeume.zip'], { cwd: project.dir, env });
      assert.equal(first.code, 0, first.stdout + first.stderr);
      // A row imported is named by the archive's entry and its line there, as its problems are.
      assert.match(first.stdout, /^baeume\.zip:[^:\s]+\.csv:2:1: imported /m);
      const sourceId = (key: string) => String(mapping.source_id).replace(/\{[^}]+\}/, key);
      assert.deepEqual(galleryBytes(sandbox, sourceId('uuid:0a1b'), 'fld_21_4'), [photo('one').toString('latin1')]);
      assert.deepEqual(galleryBytes(sandbox, sourceId('uuid:0a1c'), 'fld_21_4'), [photo('two').toString('latin1'), BIG.toString('latin1')]);
      assert.equal(sandbox.counters.uploads, 3);
      assert.equal(sandbox.counters.imports, 3 + 2, 'three rows, and two with photos made active at the end');

      const counts = { ...sandbox.counters };
      const again = await runCli(['import', 'baeume.zip'], { cwd: project.dir, env });
      assert.equal(again.code, 0, again.stdout + again.stderr);
      assert.equal(sandbox.counters.uploads, counts.uploads, `the second run sends no photo: ${again.stdout}`);
      assert.equal(sandbox.counters.imports, counts.imports, `the second run sends no spot: ${again.stdout}`);

      const converted = await runCli(['convert', 'baeume.zip', '--out', 'spots'], { cwd: project.dir });
      assert.equal(converted.code, 0, converted.stdout + converted.stderr);
      const media = readdirSync(project.path('spots'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jpg'));
      assert.equal(media.length, 3, media.join(', '));
      const unpacked = media.map((name) => readFileSync(project.path(`spots/${name}`)).toString('latin1')).sort();
      assert.deepEqual(unpacked, [photo('one'), photo('two'), BIG].map((bytes) => bytes.toString('latin1')).sort());
      assert.ok(!existsSync(project.path('media')), 'nothing is unpacked beside the archive');
    } finally {
      project.cleanup();
    }
  });

  it("KoBoToolbox: a photo name two submissions share is found in the row's own folder; one no cell settles, a zip bomb and a name that climbs out are problems of their rows", async () => {
    const project = scratch({ 'spot-topics/21.topic.json': JSON.stringify(TOPIC) });
    try {
      const header = '_uuid;_id;_geolocation_latitude;_geolocation_longitude;Art;photo';
      const rows = [
        'a1f0c3e2-0001;501;48.2081;16.3738;Quercus robur;1700000000000.jpg',
        'a1f0c3e2-0002;502;48.2076;16.3723;Tilia cordata;1700000000000.jpg',
        // Its folder is not there, and the name is in two others: which one cannot be told.
        'a1f0c3e2-0003;503;48.2079;16.3701;Acer campestre;1700000000000.jpg',
        'a1f0c3e2-0004;504;48.2070;16.3711;Fagus sylvatica;bomb.jpg',
        'a1f0c3e2-0005;505;48.2071;16.3712;Betula pendula;../../secret.jpg',
      ];
      await writeZip(project.path('kobo.zip'), {
        'kobo.csv': [header, ...rows].join('\n') + '\n',
        'attachments/a1f0c3e2-0001/1700000000000.jpg': photo('first submission'),
        'attachments/a1f0c3e2-0002/1700000000000.jpg': photo('second submission'),
        // 64 MiB of zeros deflate to about 64 KiB: a thousand times its stored size.
        'attachments/a1f0c3e2-0004/bomb.jpg': Buffer.alloc(64 * 1024 * 1024),
      });

      const proposed = await runCli(['mapping', 'kobo.zip'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      const mapping = JSON.parse(readFileSync(project.path('kobo.mapping.json'), 'utf8')) as Record<string, unknown> & {
        source: Record<string, unknown>;
        media: Record<string, { columns: string[]; folder?: string }>;
      };
      assert.equal(mapping.source.entry, 'kobo.csv');
      const [proposedMedia] = Object.values(mapping.media);
      assert.deepEqual(proposedMedia, { columns: ['photo'], folder: 'attachments' }, "the folder holding the submissions' folders");
      Object.assign(mapping, { topic_id: 21, media: { fld_21_4: proposedMedia } });
      project.write('kobo.mapping.json', JSON.stringify(mapping, null, 2));

      const checked = await runCli(['validate', 'kobo.zip'], { cwd: project.dir });
      assert.equal(checked.code, 1, checked.stdout + checked.stderr);
      assert.match(
        checked.stdout,
        /kobo\.csv:4:\d+: .*1700000000000\.jpg.* is in 2 folders of the archive \(attachments\/a1f0c3e2-0001\/1700000000000\.jpg, attachments\/a1f0c3e2-0002\/1700000000000\.jpg\)/,
      );
      assert.match(checked.stdout, /kobo\.csv:5:\d+: .*bomb\.jpg.*zip bomb/);
      assert.match(checked.stdout, /kobo\.csv:6:\d+: .*"\.\.\/\.\.\/secret\.jpg" is not in the folder attachments of the archive/);

      const env = await service.start();
      const sandbox = service.sandbox();
      const first = await runCli(['import', 'kobo.zip'], { cwd: project.dir, env });
      assert.equal(first.code, 1, first.stdout + first.stderr);
      const sourceId = (uuid: string) => String(mapping.source_id).replace(/\{[^}]+\}/, uuid);
      assert.deepEqual(galleryBytes(sandbox, sourceId('a1f0c3e2-0001'), 'fld_21_4'), [photo('first submission').toString('latin1')]);
      assert.deepEqual(galleryBytes(sandbox, sourceId('a1f0c3e2-0002'), 'fld_21_4'), [photo('second submission').toString('latin1')]);
      assert.equal(sandbox.spotBySourceId(sourceId('a1f0c3e2-0003')), undefined, 'a row whose photo cannot be told is not sent');
      assert.equal(sandbox.counters.uploads, 2);
      const again = await runCli(['import', 'kobo.zip'], { cwd: project.dir, env });
      assert.equal(sandbox.counters.uploads, 2, `the second run sends no photo: ${again.stdout}`);
    } finally {
      project.cleanup();
    }
  });
});
