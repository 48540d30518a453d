// A photo folder holding files that are no readable photo: an empty .jpg, one byte, bytes of no
// image kind, a JPEG cut short inside its EXIF segment. Each is a problem at that file in our own
// words (not the EXIF library's internals), no file is left open for the garbage collector to
// close, and the photos beside them are still read.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cellNamer, isRowReadProblem, openTable, type RowReadProblem, type SourceRow } from '../../src/core/rows';
import { readPhotoTags } from '../../src/core/rows/read/photos/photoTags';
import { exifJpeg, type ExifPhoto } from './helpers/exifJpeg';
import { canCountDescriptors, openDescriptorsUnder } from './helpers/openDescriptors';

const GRAZ: ExifPhoto = {
  gps: { latitudeRef: 'N', latitude: [47, 4, [1644, 100]], longitudeRef: 'E', longitude: [15, 26, [2220, 100]] },
  taken: '2026:03:27 14:30:05',
  offset: '+01:00',
};

/** What the EXIF library says of its own workings, never to reach a person. */
const LIBRARY_WORDS = /getUint16|DataView|undefined|Unknown file format|Offset is outside/;

describe('rows read: photo files that cannot be read', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-photos-unreadable-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an empty, a one-byte, a garbage and a cut-short .jpg are each a problem at that file in plain words; the photos beside them are read; nothing is left open', async function () {
    const folder = join(dir, 'photos');
    mkdirSync(folder);
    const whole = exifJpeg(GRAZ);
    writeFileSync(join(folder, 'a-empty.jpg'), Buffer.alloc(0));
    writeFileSync(join(folder, 'b-one-byte.jpg'), Buffer.from([0xff]));
    writeFileSync(join(folder, 'c-garbage.jpg'), Buffer.from('these are not the bytes of a JPEG, nor of any photo'));
    // SOI, the APP1 marker and its length, "Exif\0\0" and a few bytes of the TIFF header: the copy stopped there.
    writeFileSync(join(folder, 'd-cut.jpg'), whole.subarray(0, 30));
    writeFileSync(join(folder, 'e-good.jpg'), whole);

    const table = await openTable(folder);
    const items: Array<SourceRow | RowReadProblem> = [];
    for await (const item of table.rows()) items.push(item);
    const name = cellNamer(table.format)!;
    assert.deepEqual(
      items.map((item) => name({ line: item.line, column: 1 })),
      ['a-empty.jpg', 'b-one-byte.jpg', 'c-garbage.jpg', 'd-cut.jpg', 'e-good.jpg'],
    );
    const problems = items.slice(0, 4).map((item) => {
      assert.ok(isRowReadProblem(item), `${name({ line: item.line, column: 1 })} is a problem`);
      assert.doesNotMatch(item.problem, LIBRARY_WORDS);
      return item.problem;
    });
    assert.match(problems[0], /tags cannot be read \(the file is empty\)/);
    assert.match(problems[1], /tags cannot be read \(the file is cut short or its EXIF tags are damaged\)/);
    assert.match(problems[2], /tags cannot be read \(it is not a JPEG, HEIC, AVIF, TIFF or PNG file\)/);
    assert.match(problems[3], /tags cannot be read \(the file is cut short or its EXIF tags are damaged\)/);
    const good = items[4];
    assert.ok(!isRowReadProblem(good), 'the good photo is read');
    assert.equal(good.values.latitude, Math.round((47 + 4 / 60 + 16.44 / 3600) * 1e7) / 1e7);
    assert.equal(good.values.taken, '2026-03-27T14:30:05+01:00');
    if (canCountDescriptors) assert.deepEqual(openDescriptorsUnder(folder), [], 'every photo is closed once read');
  });

  it('group "folder": the problem names the photo of the subfolder that cannot be read', async () => {
    const folder = join(dir, 'trees');
    mkdirSync(join(folder, 'tree-1'), { recursive: true });
    writeFileSync(join(folder, 'tree-1', '1.jpg'), Buffer.alloc(0));
    writeFileSync(join(folder, 'tree-1', '2.jpg'), exifJpeg({ taken: '2026:03:27 15:00:00' }));
    // As a mapping's source gives it.
    const source = { format: 'photos' as const, group: 'folder' };
    const table = await openTable(folder, source);
    const [item] = await (async () => {
      const all: Array<SourceRow | RowReadProblem> = [];
      for await (const each of table.rows()) all.push(each);
      return all;
    })();
    assert.ok(isRowReadProblem(item));
    assert.match(item.problem, /No photo in this folder has a GPS position .*\(the tags of tree-1\/1\.jpg cannot be read: the file is empty\)/);
    if (canCountDescriptors) assert.deepEqual(openDescriptorsUnder(folder), []);
  });

  it('a JPEG cut short inside its header segments says so, not that the camera wrote no position; a whole photo without GPS says that', async () => {
    const whole = exifJpeg(GRAZ);
    // The EXIF segment's length as its APP1 header declares it (TIFF 6.0 / JPEG: big-endian, counting itself), read here from the bytes the helper wrote.
    const app1 = whole.indexOf(Buffer.from([0xff, 0xe1]));
    const segmentEnd = app1 + 2 + whole.readUInt16BE(app1 + 2);
    const cuts = [app1 + 4, app1 + 20, Math.floor((app1 + segmentEnd) / 2), segmentEnd - 1];
    for (const cut of cuts) {
      const path = join(dir, `cut-${cut}.jpg`);
      writeFileSync(path, whole.subarray(0, cut));
      const tags = await readPhotoTags(path);
      assert.deepEqual(tags, { problem: 'the file is cut short or its EXIF tags are damaged' }, `cut at byte ${cut} of ${whole.length}`);
    }
    const withoutGps = join(dir, 'no-gps.jpg');
    const noGps = exifJpeg({ taken: '2026:03:27 14:30:05' });
    writeFileSync(withoutGps, noGps);
    assert.deepEqual(await readPhotoTags(withoutGps), { taken: '2026-03-27T14:30:05' });
    // Cut exactly where its EXIF segment ends: the tags are whole, the picture is not there at all.
    const noGpsApp1 = noGps.indexOf(Buffer.from([0xff, 0xe1]));
    const atBoundary = join(dir, 'cut-at-boundary.jpg');
    writeFileSync(atBoundary, noGps.subarray(0, noGpsApp1 + 2 + noGps.readUInt16BE(noGpsApp1 + 2)));
    assert.deepEqual(await readPhotoTags(atBoundary), { problem: 'the file is cut short or its EXIF tags are damaged' });
  });
});
