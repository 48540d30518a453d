// A folder of geotagged photos as a table: each photo a row (or each subfolder, with source.group
// "folder"), its place from the EXIF GPS tags with their references' signs (all four hemispheres),
// its time from DateTimeOriginal with OffsetTimeOriginal or without, a photo without a position a
// problem named by its file, and the tags read from the photo's head only. The photos are written
// byte by byte by helpers/exifJpeg.ts; every expected value is worked out here from what was
// written (degrees + minutes / 60 + seconds / 3600), not by the EXIF library the reader uses.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  cellNamer,
  guessMapping,
  isRowReadProblem,
  isTableFile,
  mappingPathFor,
  openMappedTable,
  openTable,
  parseMapping,
  previewTable,
  resolveMapping,
  rowToSpot,
  type RowReadProblem,
  type SourceRow,
  type SourceTable,
} from '../../src/core/rows';
import type { TopicCatalog, TopicDefinition } from '../../src/core/topics/topicSchema';
import { decimalDegrees, exifJpeg, type ExifPhoto } from './helpers/exifJpeg';
import { countFileReads } from './helpers/fileReads';

const VIENNA: ExifPhoto = {
  gps: {
    latitudeRef: 'N',
    latitude: [48, 12, [2916, 100]],
    longitudeRef: 'E',
    longitude: [16, 22, [2568, 100]],
    altitude: [1713, 10],
    direction: [905, 10],
  },
  taken: '2026:03:27 14:30:05',
  offset: '+01:00',
};
/** Big-endian, as some cameras write their TIFF structure. */
const SYDNEY: ExifPhoto = {
  byteOrder: 'MM',
  gps: { latitudeRef: 'S', latitude: [33, 51, [354, 10]], longitudeRef: 'E', longitude: [151, 12, 30] },
  taken: '2026:01:10 08:15:00',
  offset: '+11:00',
};
/** Below sea level, and a local time without its offset. */
const DEATH_VALLEY: ExifPhoto = {
  gps: { latitudeRef: 'N', latitude: [36, 14, [2700, 100]], longitudeRef: 'W', longitude: [116, 49, [1500, 100]], altitude: [86, 1], altitudeRef: 1 },
  taken: '2026:07:04 12:00:00',
};
const BUENOS_AIRES: ExifPhoto = {
  gps: { latitudeRef: 'S', latitude: [34, [3623, 100], 0], longitudeRef: 'W', longitude: [58, 22, [534, 10]] },
  taken: '2026:11:29 18:45:30',
  offset: '-03:00',
};
/** A photo taken with the camera's location off: a time, no position. */
const NO_GPS: ExifPhoto = { taken: '2026:03:27 15:00:00', offset: '+01:00' };

const GALLERY_TOPIC: TopicDefinition = {
  topic_id: 31,
  name: 'Baumfotos',
  fields: {
    fld_31_1: { label: 'Aufgenommen', type: 'datetime' },
    fld_31_2: { label: 'Fotos', type: 'gallery' },
  },
};
const TOPICS: TopicCatalog = new Map([[31, GALLERY_TOPIC]]);

/** The decimal degrees the reader is to give: what was written, with its reference's sign, to 7 decimals. */
function expected(photo: ExifPhoto): { latitude: number; longitude: number } {
  const round = (value: number) => Math.round(value * 1e7) / 1e7;
  return {
    latitude: round(decimalDegrees(photo.gps!.latitude, photo.gps!.latitudeRef)),
    longitude: round(decimalDegrees(photo.gps!.longitude, photo.gps!.longitudeRef)),
  };
}

async function readAll(table: SourceTable): Promise<Array<SourceRow | RowReadProblem>> {
  const items: Array<SourceRow | RowReadProblem> = [];
  for await (const item of table.rows()) items.push(item);
  return items;
}

describe('rows read: a folder of geotagged photos', () => {
  let dir: string;
  const write = (name: string, bytes: Buffer | string) => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    return path;
  };
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-photos-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each photo as a row in name order: positions in all four hemispheres, times with and without their offset; a photo without GPS is a problem at that photo', async () => {
    write('photos/IMG_0001.jpg', exifJpeg(VIENNA));
    write('photos/IMG_0002.jpg', exifJpeg(SYDNEY));
    write('photos/IMG_0003.jpg', exifJpeg(NO_GPS));
    write('photos/IMG_0010.jpg', exifJpeg(DEATH_VALLEY));
    write('photos/IMG_0011.JPG', exifJpeg(BUENOS_AIRES));
    write('photos/notes.txt', 'not a photo');
    write('photos/.hidden/IMG_0099.jpg', exifJpeg(VIENNA));
    const table = await openTable(join(dir, 'photos'));
    assert.equal(table.format.format, 'photos');
    assert.equal(table.hasGeometry, true);
    assert.deepEqual(table.columns, ['file', 'folder', 'sha256', 'latitude', 'longitude', 'altitude', 'direction', 'taken', 'photos']);
    const items = await readAll(table);
    assert.equal(items.length, 5, 'the five photos (not notes.txt, nothing hidden)');

    const problem = items[2];
    assert.ok(isRowReadProblem(problem));
    assert.deepEqual([problem.row, problem.line, problem.column], [3, 3, 1]);
    assert.match(problem.problem, /no GPS position/);
    const name = cellNamer(table.format)!;
    assert.equal(name(problem), 'IMG_0003.jpg', 'the problem is named by its photo');

    const rows = items.filter((item): item is SourceRow => !isRowReadProblem(item));
    assert.deepEqual(
      rows.map((row) => [row.line, row.values.file, row.values.folder, row.values.photos, name(row.cells.latitude)]),
      [
        [1, 'IMG_0001.jpg', '', 'IMG_0001.jpg', 'IMG_0001.jpg'],
        [2, 'IMG_0002.jpg', '', 'IMG_0002.jpg', 'IMG_0002.jpg'],
        [4, 'IMG_0010.jpg', '', 'IMG_0010.jpg', 'IMG_0010.jpg'],
        [5, 'IMG_0011.JPG', '', 'IMG_0011.JPG', 'IMG_0011.JPG'],
      ],
    );
    const places = [VIENNA, SYDNEY, DEATH_VALLEY, BUENOS_AIRES].map(expected);
    // Signs as the references say: N+E, S+E, N+W, S+W.
    assert.deepEqual(
      places.map(({ latitude, longitude }) => [Math.sign(latitude), Math.sign(longitude)]),
      [
        [1, 1],
        [-1, 1],
        [1, -1],
        [-1, -1],
      ],
    );
    rows.forEach((row, index) => {
      const place = places[index];
      assert.ok(
        Math.abs((row.values.latitude as number) - place.latitude) < 5e-8,
        `${String(row.values.file)}: ${String(row.values.latitude)} ≠ ${place.latitude}`,
      );
      assert.ok(
        Math.abs((row.values.longitude as number) - place.longitude) < 5e-8,
        `${String(row.values.file)}: ${String(row.values.longitude)} ≠ ${place.longitude}`,
      );
      assert.deepEqual(row.geometry?.coordinates, [row.values.longitude, row.values.latitude]);
    });
    assert.ok(Math.abs((rows[0].values.latitude as number) - (48 + 12 / 60 + 29.16 / 3600)) < 5e-8);
    assert.deepEqual(
      rows.map((row) => [row.values.altitude, row.values.direction, row.values.taken]),
      [
        [171.3, 90.5, '2026-03-27T14:30:05+01:00'],
        ['', '', '2026-01-10T08:15:00+11:00'],
        [-86, '', '2026-07-04T12:00:00'],
        ['', '', '2026-11-29T18:45:30-03:00'],
      ],
    );
  });

  it('maps a photo folder with the same mapping and engine: its place by default, its time converted by its offset or inputTimezone, its photo into the gallery', async () => {
    write('photos/IMG_0001.jpg', exifJpeg(VIENNA));
    write('photos/IMG_0010.jpg', exifJpeg(DEATH_VALLEY));
    const mappingPath = join(dir, 'photos.mapping.json');
    const mapping = {
      source: { format: 'photos' },
      topic_id: 31,
      source_id: 'foto-{file}',
      fields: { fld_31_1: { column: 'taken', timezone: 'UTC', inputTimezone: 'America/Los_Angeles' } },
      media: { fld_31_2: { columns: ['photos'], folder: 'photos' } },
    };
    const mapped = await openMappedTable(join(dir, 'photos'), parseMapping(mappingPath, JSON.stringify(mapping)), { topics: TOPICS });
    assert.deepEqual(mapped.problems, [], 'latitude and longitude need not be named');
    const spots = [];
    for await (const row of mapped.table.rows()) {
      assert.ok(!isRowReadProblem(row));
      spots.push(await rowToSpot(row, mapped.mapping!));
    }
    const attributes = spots.map((spot) => (JSON.parse(spot.text) as { data: { attributes: Record<string, unknown> } }).data.attributes);
    assert.deepEqual(
      attributes.map((each) => [each.source_id, each.latitude, each.longitude, each.fld_31_1]),
      [
        // 14:30:05 at +01:00 is 13:30:05 UTC; 12:00 in Los Angeles in July (PDT, −07:00) is 19:00 UTC.
        ['foto-IMG_0001.jpg', expected(VIENNA).latitude, expected(VIENNA).longitude, '2026-03-27 13:30:05'],
        ['foto-IMG_0010.jpg', expected(DEATH_VALLEY).latitude, expected(DEATH_VALLEY).longitude, '2026-07-04 19:00:00'],
      ],
    );
    assert.deepEqual(spots[0].problems, []);
    assert.deepEqual(
      spots.map((spot) => spot.media?.groups.map((group) => [group.folder, group.files.map((file) => file.path)])),
      [[['fld_31_2', [join(dir, 'photos', 'IMG_0001.jpg')]]], [['fld_31_2', [join(dir, 'photos', 'IMG_0010.jpg')]]]],
    );
  });

  it('reads only the head of a photo for its tags; {sha256} reads it whole, once, and only when a template asks for it', async () => {
    // A photo the size of a phone's, its EXIF at the start as cameras write it.
    const bytes = exifJpeg({ ...VIENNA, padding: 3 * 1024 * 1024 });
    const photo = write('photos/IMG_0001.jpg', bytes);
    const size = statSync(photo).size;
    const reads = await countFileReads();
    let row: SourceRow;
    try {
      const table = await openTable(join(dir, 'photos'));
      const [item] = await readAll(table);
      assert.ok(!isRowReadProblem(item));
      row = item;
      const forTags = reads.of(photo);
      assert.ok(forTags.bytes > 0, 'the tags were read from the file');
      assert.ok(forTags.bytes <= 64 * 1024, `${forTags.bytes} bytes of ${size} were read for the tags`);
      assert.ok(forTags.bytes * 40 < size);
      assert.equal(row.values.taken, '2026-03-27T14:30:05+01:00');
      const hash = row.values.sha256;
      assert.equal(hash, createHash('sha256').update(bytes).digest('hex'));
      assert.equal(row.values.sha256, hash, 'worked out once');
      assert.equal(reads.of(photo).bytes, forTags.bytes + size, 'the hash read the photo whole, once');
    } finally {
      reads.restore();
    }
  });

  it('group "folder": one row per subfolder in name order, its photos in name order, its place and time its first photo with a position; a subfolder without one is a problem', async () => {
    write('trees/tree-10/1.jpg', exifJpeg(NO_GPS));
    write('trees/tree-10/2.jpg', exifJpeg(SYDNEY));
    write('trees/tree-2/10.jpg', exifJpeg(BUENOS_AIRES));
    write('trees/tree-2/2.jpg', exifJpeg(VIENNA));
    write('trees/tree-2/details/bark.jpg', exifJpeg(NO_GPS));
    write('trees/tree-3/1.jpg', exifJpeg(NO_GPS));
    write('trees/loose.jpg', exifJpeg(VIENNA));
    // As a mapping's source gives it: { "format": "photos", "group": "folder" }.
    const source = { format: 'photos' as const, group: 'folder' };
    const table = await openTable(join(dir, 'trees'), source);
    assert.ok(
      table.detected.some((note) => /1 photos at the top of the folder are in no subfolder/.test(note)),
      table.detected.join('\n'),
    );
    const items = await readAll(table);
    const name = cellNamer(table.format)!;
    assert.deepEqual(
      items.map((item) => name({ line: item.line, column: 1 })),
      ['tree-2/', 'tree-3/', 'tree-10/'],
    );
    const [two, three, ten] = items;
    assert.ok(!isRowReadProblem(two) && !isRowReadProblem(ten));
    assert.deepEqual(two.values.photos, 'tree-2/2.jpg;tree-2/10.jpg;tree-2/details/bark.jpg');
    assert.deepEqual(
      [two.values.folder, two.values.file, two.values.latitude, two.values.taken],
      ['tree-2', 'tree-2/2.jpg', expected(VIENNA).latitude, '2026-03-27T14:30:05+01:00'],
    );
    assert.deepEqual(
      [ten.values.folder, ten.values.file, ten.values.longitude, ten.values.photos],
      ['tree-10', 'tree-10/2.jpg', expected(SYDNEY).longitude, 'tree-10/1.jpg;tree-10/2.jpg'],
    );
    assert.ok(isRowReadProblem(three));
    assert.equal(three.line, 2);
    assert.match(three.problem, /No photo in this folder has a GPS position/);
  });

  it('a file that is not a photo it can read is a problem at that file; an empty folder is not a table', async () => {
    write('photos/IMG_0001.jpg', 'these are not the bytes of a JPEG');
    const [item] = await readAll(await openTable(join(dir, 'photos')));
    assert.ok(isRowReadProblem(item));
    assert.match(item.problem, /tags cannot be read/);
    mkdirSync(join(dir, 'empty'));
    await assert.rejects(openTable(join(dir, 'empty')), /holds no photos/);
    await assert.rejects(openTable(join(dir, 'photos', 'IMG_0001.jpg'), { format: 'photos' }), /is not a folder/);
  });

  it('a folder is a table when its mapping is beside it or inside it; the mapping proposed takes the places, the photos and the time', async () => {
    write('photos/a/IMG_0001.jpg', exifJpeg(VIENNA));
    write('photos/IMG_0002.jpg', exifJpeg(NO_GPS));
    const folder = join(dir, 'photos');
    assert.equal(isTableFile(folder), false, 'without a mapping, a folder is one of spot documents');
    assert.equal(mappingPathFor(folder), join(dir, 'photos.mapping.json'));
    write('photos/photos.mapping.json', '{}');
    assert.equal(isTableFile(folder), true);
    assert.equal(mappingPathFor(folder), join(folder, 'photos.mapping.json'), 'inside the folder');
    write('photos.mapping.json', '{}');
    assert.equal(mappingPathFor(folder), join(dir, 'photos.mapping.json'), 'beside it comes first');
    // A folder holding a table of its own name with its mapping is no folder of photos.
    write('trees/trees.csv', 'id\n1\n');
    write('trees/trees.mapping.json', '{}');
    assert.equal(isTableFile(join(dir, 'trees')), false);
    rmSync(join(dir, 'photos.mapping.json'));
    rmSync(join(folder, 'photos.mapping.json'));

    const { table, sample, problems } = await previewTable(folder);
    assert.equal(sample.length, 1);
    assert.equal(problems.length, 1);
    const { mapping, notes } = await guessMapping(table, sample, TOPICS);
    assert.deepEqual(mapping, {
      source: { format: 'photos' },
      topic_id: 31,
      source_id: 'photos-{file}',
      fields: { fld_31_1: 'taken' },
      media: { fld_31_2: { columns: ['photos'], folder: 'photos' } },
    });
    assert.ok(
      notes.some((note) => /"group": "folder"/.test(note)),
      notes.join('\n'),
    );
    assert.ok(
      notes.some((note) => /\{sha256\}/.test(note)),
      notes.join('\n'),
    );
  });

  it('a mapping of a photo folder without media sends each photo into the topic gallery', () => {
    const folder = join(dir, 'photos');
    const resolved = resolveMapping({ topic_id: 31, source_id: '{file}' }, join(dir, 'photos.mapping.json'), {
      columns: ['file', 'photos'],
      topics: TOPICS,
      photoFolder: folder,
    });
    assert.deepEqual(
      resolved.media.map((media) => [media.field, media.columns, media.folder, media.folderName]),
      [['fld_31_2', ['photos'], folder, 'photos']],
    );
  });
});
