// How often the import reads each media file from disk. A small file is read once, by the check
// that hashes it, and sent from those bytes; a large one (a photo of several MB) is read once, by
// its upload, which hashes it as it streams. Counted by wrapping the file system calls the core
// makes (helpers/fileReads.ts), so any path through the core that reads a file again shows.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport } from '../../src/core/import';
import { HOLD_FILE_BYTES } from '../../src/core/media/heldContent';
import { SAMPLE_BYTES } from '../../src/core/media/contentKey';
import { useCoreWorkspace } from './helpers/coreSetup';
import { countFileReads, type ReadCounter } from './helpers/fileReads';
import { assertFinished, writeSpot, type SpotFixture } from './helpers/workflowFixtures';

describe('media workflow: each media file read once from disk', function () {
  this.timeout(60_000);
  const workspace = useCoreWorkspace('spot-media-reads-');
  let counter: ReadCounter | undefined;
  afterEach(() => {
    counter?.restore();
    counter = undefined;
  });

  function mediaPaths(fixture: SpotFixture): Array<{ path: string; size: number }> {
    return Object.entries(fixture.media).flatMap(([field, files]) =>
      files.map((file) => ({
        path: join(workspace.dir, `${fixture.sourceId.slice(4)}.media`, ...(fixture.direct ? [] : [field]), file.name),
        size: file.bytes.length,
      })),
    );
  }

  async function importCounting(fixtures: SpotFixture[]): Promise<void> {
    counter = await countFileReads();
    const outcome = await runImport(
      fixtures.map((fixture) => ({ path: fixture.path })),
      workspace.workflowOptions(),
    );
    counter.restore();
    for (const spot of outcome.spots) assert.equal(spot.status, 'done', spot.reason);
    assertFinished(workspace.setup.sandbox, fixtures);
  }

  it('small files: one open and one read each, of exactly their bytes', async () => {
    const fixtures = [
      writeSpot(workspace.dir, 'small-a', { fld_1_3: ['01.jpg', '02.jpg', '03.jpg'] }, { size: 200 * 1024 }),
      writeSpot(workspace.dir, 'small-b', { fld_1_3: ['a.png'], fld_1_4: ['b.png'] }, { size: 4096 }),
    ];
    await importCounting(fixtures);
    for (const fixture of fixtures) {
      for (const { path, size } of mediaPaths(fixture)) assert.deepEqual(counter!.of(path), { opens: 1, reads: 1, bytes: size }, path);
    }
  });

  it('large files (photos of several MB): opened once and each byte read once, by the upload that hashes them as they go out', async () => {
    const size = 3 * 1024 * 1024 + 11;
    assert.ok(size > HOLD_FILE_BYTES);
    const fixtures = [
      writeSpot(workspace.dir, 'photos', { fld_1_3: ['01.jpg', '02.jpg', '03.jpg'] }, { size }),
      writeSpot(workspace.dir, 'mixed', { fld_1_3: ['big.jpg', 'small.jpg'] }, { size }),
    ];
    // Photos differ in size (files of one size in a gallery are hashed by the check: they may be
    // the same picture twice), and a small file sits beside a large one.
    const resize = (fixture: SpotFixture, index: number, bytes: Buffer) => {
      writeFileSync(join(workspace.dir, `${fixture.sourceId.slice(4)}.media`, 'fld_1_3', fixture.media.fld_1_3[index].name), bytes);
      fixture.media.fld_1_3[index].bytes = bytes;
    };
    resize(fixtures[0], 1, Buffer.concat([fixtures[0].media.fld_1_3[1].bytes, Buffer.from('more')]));
    resize(fixtures[0], 2, fixtures[0].media.fld_1_3[2].bytes.subarray(0, size - 1000));
    resize(fixtures[1], 1, Buffer.alloc(5000, 1));
    await importCounting(fixtures);
    for (const fixture of fixtures) {
      for (const { path } of mediaPaths(fixture)) {
        const bytes = readFileSync(path).length;
        const reads = counter!.of(path);
        assert.equal(reads.opens, 1, `${path}: opened once`);
        assert.equal(reads.bytes, bytes, `${path}: each byte read once`);
      }
    }
    // The journal knows each large file by its content, as it knows a small one.
    const journal = readFileSync(
      join(workspace.dir, '.spot-import', 'journal', readdirSync(join(workspace.dir, '.spot-import', 'journal'))[0], 'journal.jsonl'),
      'utf8',
    );
    for (const fixture of fixtures) {
      for (const file of fixture.media.fld_1_3)
        assert.ok(
          journal.includes(`${createHash('sha256').update(file.bytes).digest('hex')}:${file.bytes.length}`),
          `the journal keys ${file.name} by its content`,
        );
    }
  });
  it('large files of one size in a gallery: a sample of each end rules out twins, and each is still read whole once, by its upload', async () => {
    const size = 3 * 1024 * 1024;
    assert.ok(size > HOLD_FILE_BYTES);
    // A camera's photos of one size (fixed-size formats, or by chance): different pictures, the same length.
    const fixtures = [writeSpot(workspace.dir, 'same-size', { fld_1_3: ['01.jpg', '02.jpg', '03.jpg'] }, { size })];
    await importCounting(fixtures);
    for (const { path } of mediaPaths(fixtures[0])) {
      const reads = counter!.of(path);
      // The sample: the first and last 64 KiB (one open); the upload: the whole file (another).
      assert.equal(reads.opens, 2, `${path}: opened for the sample and for the upload`);
      assert.equal(reads.bytes, size + 2 * SAMPLE_BYTES, `${path}: read whole once, and its sample (${reads.bytes} bytes read)`);
    }
  });

  it('large files of one size whose ends match are read whole to compare them: a real twin is still refused', async () => {
    const size = 3 * 1024 * 1024;
    const fixture = writeSpot(workspace.dir, 'twins', { fld_1_3: ['01.jpg', '02.jpg'] }, { size });
    // The same picture twice under two names: the ends match, the whole is read, the twin is found.
    const copy = join(workspace.dir, 'twins.media', 'fld_1_3', '02.jpg');
    writeFileSync(copy, fixture.media.fld_1_3[0].bytes);
    counter = await countFileReads();
    const outcome = await runImport([{ path: fixture.path }], workspace.workflowOptions());
    counter.restore();
    assert.equal(outcome.spots[0].status, 'invalid');
    assert.match(outcome.spots[0].reason ?? '', /02\.jpg: has the same content as fld_1_3\/01\.jpg/);
  });
});
