// spot-import on a folder of geotagged photos (photos/ with photos.mapping.json beside it): mapping
// proposes one spot per photo, its place from the photo's GPS tags and the photo into the topic's
// gallery; validate names the photo without a position by its file (photos:IMG_0003.jpg); import
// sends one spot per photo with its photo in its gallery, and a second run sends nothing; with a
// {sha256} template a renamed photo is still its spot. The photos are written byte by byte
// (helpers/exifJpeg.ts); the places expected are worked out here from what was written.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { jsonLines, runCli, scratch, useCliSandbox } from './helpers/cliProcess';
import { validateJsonLine } from './helpers/cliSchemas';
import { decimalDegrees, exifJpeg, type ExifPhoto } from './helpers/exifJpeg';

const TOPIC = {
  topic_id: 31,
  name: 'Baumfotos',
  fields: {
    fld_31_1: { label: 'Aufgenommen', type: 'datetime' },
    fld_31_2: { label: 'Fotos', type: 'gallery' },
  },
};

const GRAZ: ExifPhoto = {
  gps: { latitudeRef: 'N', latitude: [47, 4, [1644, 100]], longitudeRef: 'E', longitude: [15, 26, [2220, 100]] },
  taken: '2026:03:27 14:30:05',
  offset: '+01:00',
};
const WELLINGTON: ExifPhoto = {
  byteOrder: 'MM',
  gps: { latitudeRef: 'S', latitude: [41, 17, [1980, 100]], longitudeRef: 'E', longitude: [174, 46, [3240, 100]] },
  taken: '2026:02:14 09:05:00',
  offset: '+13:00',
};
const NO_GPS: ExifPhoto = { taken: '2026:03:27 15:00:00' };

/** To 7 decimals, as the reader gives degrees. */
const degrees = (parts: Parameters<typeof decimalDegrees>[0], ref: string) => Math.round(decimalDegrees(parts, ref) * 1e7) / 1e7;

type Sandbox = ReturnType<ReturnType<typeof useCliSandbox>['sandbox']>;

/** The bytes the sandbox stored in a spot's gallery, in gallery order. */
function galleryBytes(sandbox: Sandbox, sourceId: string, field: string): Buffer[] {
  const spot = sandbox.spotBySourceId(sourceId);
  assert.ok(spot, `no spot ${sourceId}`);
  const gallery = sandbox.gallery(spot.attributes[field] as number);
  assert.ok(gallery, `${sourceId} has no gallery in ${field}: ${JSON.stringify(spot.attributes)}`);
  return gallery.mediaIds.map((id) => readFileSync(sandbox.media(id)!.path));
}

describe('spot-import rows: a folder of geotagged photos', function () {
  this.timeout(90_000);
  const service = useCliSandbox();

  it('mapping proposes it; validate names the photo without a position; import sends a spot per photo with its photo; a second run sends nothing', async () => {
    const project = scratch({ 'spot-topics/31.topic.json': JSON.stringify(TOPIC) });
    try {
      mkdirSync(project.path('photos'));
      const photos = { 'IMG_0001.jpg': exifJpeg(GRAZ), 'IMG_0002.jpg': exifJpeg(WELLINGTON), 'IMG_0003.jpg': exifJpeg(NO_GPS) };
      for (const [name, bytes] of Object.entries(photos)) writeFileSync(project.path(`photos/${name}`), bytes);

      // Without its mapping, a folder is still one of spot documents: validate finds none in it.
      const before = await runCli(['validate', 'photos'], { cwd: project.dir });
      assert.doesNotMatch(before.stdout + before.stderr, /GPS/);

      const proposed = await runCli(['mapping', 'photos'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      assert.equal(proposed.stdout.trim(), 'photos.mapping.json');
      const mapping = JSON.parse(readFileSync(project.path('photos.mapping.json'), 'utf8')) as Record<string, unknown>;
      assert.deepEqual(mapping, {
        source: { format: 'photos' },
        topic_id: 31,
        source_id: 'photos-{file}',
        fields: { fld_31_1: 'taken' },
        media: { fld_31_2: { columns: ['photos'], folder: 'photos' } },
      });
      assert.match(proposed.stderr, /latitude, longitude: each photo's GPS position/);

      const checked = await runCli(['validate', 'photos'], { cwd: project.dir });
      assert.equal(checked.code, 1, checked.stdout + checked.stderr);
      assert.match(checked.stdout, /^photos:IMG_0003\.jpg: .*no GPS position/m);
      const json = await runCli(['validate', 'photos', '--format', 'json'], { cwd: project.dir });
      const lines = jsonLines(json.stdout);
      for (const line of lines) validateJsonLine(line);
      assert.deepEqual(
        lines.filter((line) => line.status !== undefined).map((line) => line.status),
        ['valid', 'valid', 'invalid'],
      );

      const env = await service.start();
      const sandbox = service.sandbox();
      const first = await runCli(['import', 'photos'], { cwd: project.dir, env });
      assert.equal(first.code, 1, 'the photo without a position is reported');
      assert.match(first.stdout, /photos:IMG_0003\.jpg: /);
      // A row imported is named as its problems are: by its photo.
      assert.match(first.stdout, /^photos:IMG_0001\.jpg: imported /m);
      const graz = sandbox.spotBySourceId('photos-IMG_0001.jpg');
      const wellington = sandbox.spotBySourceId('photos-IMG_0002.jpg');
      assert.ok(graz && wellington, first.stdout);
      assert.deepEqual(
        [graz.attributes.latitude, graz.attributes.longitude, graz.attributes.fld_31_1],
        [degrees(GRAZ.gps!.latitude, 'N'), degrees(GRAZ.gps!.longitude, 'E'), '2026-03-27 13:30:05'],
      );
      assert.deepEqual(
        [wellington.attributes.latitude, wellington.attributes.longitude, wellington.attributes.fld_31_1],
        [degrees(WELLINGTON.gps!.latitude, 'S'), degrees(WELLINGTON.gps!.longitude, 'E'), '2026-02-13 20:05:00'],
      );
      assert.deepEqual(galleryBytes(sandbox, 'photos-IMG_0001.jpg', 'fld_31_2'), [photos['IMG_0001.jpg']]);
      assert.deepEqual(galleryBytes(sandbox, 'photos-IMG_0002.jpg', 'fld_31_2'), [photos['IMG_0002.jpg']]);
      assert.equal(sandbox.spotCount(), 2);
      assert.equal(sandbox.counters.uploads, 2);

      const counts = { ...sandbox.counters };
      const again = await runCli(['import', 'photos'], { cwd: project.dir, env });
      assert.equal(again.code, 1, again.stdout + again.stderr);
      assert.equal(sandbox.counters.imports, counts.imports, `the second run sends no spot: ${again.stdout}`);
      assert.equal(sandbox.counters.uploads, counts.uploads, `the second run sends no photo: ${again.stdout}`);
    } finally {
      project.cleanup();
    }
  });

  it('mapping refuses a folder whose photos have no position; with {sha256}, a renamed photo is still its spot', async () => {
    const project = scratch({ 'spot-topics/31.topic.json': JSON.stringify(TOPIC) });
    try {
      mkdirSync(project.path('dark'));
      writeFileSync(project.path('dark/IMG_0001.jpg'), exifJpeg(NO_GPS));
      const refused = await runCli(['mapping', 'dark'], { cwd: project.dir });
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /none of its first 1 photos has a GPS position/);

      // The mapping inside the folder this time, written by hand: the places and the gallery by default.
      mkdirSync(project.path('trees'));
      const bytes = exifJpeg(GRAZ);
      writeFileSync(project.path('trees/IMG_0001.jpg'), bytes);
      writeFileSync(
        project.path('trees/trees.mapping.json'),
        JSON.stringify({ topic_id: 31, source_id: 'foto-{sha256}', media: { fld_31_2: { columns: ['photos'] } } }),
      );
      const sourceId = `foto-${createHash('sha256').update(bytes).digest('hex')}`;

      const env = await service.start();
      const sandbox = service.sandbox();
      const first = await runCli(['import', 'trees'], { cwd: project.dir, env });
      assert.equal(first.code, 0, first.stdout + first.stderr);
      const spot = sandbox.spotBySourceId(sourceId);
      assert.ok(spot, first.stdout);
      assert.deepEqual(galleryBytes(sandbox, sourceId, 'fld_31_2'), [bytes]);

      renameSync(project.path('trees/IMG_0001.jpg'), project.path('trees/Eiche am Teich.jpg'));
      const { imports, uploads } = sandbox.counters;
      const renamed = await runCli(['import', 'trees'], { cwd: project.dir, env });
      assert.equal(renamed.code, 0, renamed.stdout + renamed.stderr);
      assert.equal(sandbox.spotCount(), 1, `no new spot: ${renamed.stdout}`);
      assert.equal(sandbox.spotBySourceId(sourceId)?.id, spot.id);
      assert.equal(sandbox.counters.imports, imports, `the renamed photo's spot is not sent again: ${renamed.stdout}`);
      assert.equal(sandbox.counters.uploads, uploads, `nor is its photo: ${renamed.stdout}`);
      assert.deepEqual(galleryBytes(sandbox, sourceId, 'fld_31_2'), [bytes]);
    } finally {
      project.cleanup();
    }
  });
});
