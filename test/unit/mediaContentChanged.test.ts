// A media file edited between the check (which hashes it: its content is its identity in the
// journal) and its upload. What a gallery receives must be what the journal knows it by: a small
// file goes out from the bytes the check read; a large one the check hashed (another file of its
// gallery has its size) is compared while it streams and stopped before its end when it differs;
// a large one hashed as it is sent is known by what went out, and stopped before its end when it
// changes while it is read. Otherwise the journal files one content under another's key, and the
// next run, hashing the new content, sends it a second time.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport } from '../../src/core/import';
import { useCoreWorkspace } from './helpers/coreSetup';
import { mediaBytes, writeSpot } from './helpers/workflowFixtures';

describe('media workflow: a file edited after it was checked', () => {
  const workspace = useCoreWorkspace('spot-media-changed-');

  const options = workspace.workflowOptions;

  const WHOLE_SECONDS = 1_700_000_000;
  const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  function galleryContents(galleryId: number): string[] {
    return workspace.setup.sandbox.gallery(galleryId)!.mediaIds.map((id) => digest(readFileSync(workspace.setup.sandbox.media(id)!.path)));
  }

  /**
   * Same size, other bytes; with `keepTime` the modification time is put back too (cp -p, rsync
   * -t, file systems with 2 s times), so only the content tells them apart.
   */
  function replaceKeepingSize(path: string, tag: string, keepTime: boolean): Buffer {
    const bytes = mediaBytes(tag, statSync(path).size);
    writeFileSync(path, bytes);
    if (keepTime) utimesSync(path, WHOLE_SECONDS, WHOLE_SECONDS);
    return bytes;
  }

  async function editDuringFirstRun(size: number, keepTime: boolean) {
    const fixture = writeSpot(workspace.dir, 'edited', { fld_1_3: ['01.jpg', '02.jpg'] }, { size });
    const firstPath = join(workspace.dir, 'edited.media', 'fld_1_3', '01.jpg');
    // Two files of one size whose first and last 64 KiB are the same (a burst of near-identical
    // photos): their samples cannot tell them apart, so the check reads and hashes them whole.
    const second = Buffer.from(fixture.media.fld_1_3[0].bytes);
    second[Math.floor(size / 2)] ^= 0xff;
    writeFileSync(join(workspace.dir, 'edited.media', 'fld_1_3', '02.jpg'), second);
    fixture.media.fld_1_3[1].bytes = second;
    // A time in whole seconds, so that putting it back gives the very same mtimeMs.
    if (keepTime) utimesSync(firstPath, WHOLE_SECONDS, WHOLE_SECONDS);
    const steps: string[] = [];
    let edited: Buffer | undefined;
    const first = await runImport(
      [{ path: fixture.path }],
      options({
        onStep: (step) => {
          steps.push(step.message);
          // After the check and the import with state 2, before any upload.
          if (step.step === 'import-pending') edited = replaceKeepingSize(firstPath, 'edited/new-content', keepTime);
        },
      }),
    );
    assert.ok(edited, 'the file was edited during the run');
    const galleryId = workspace.setup.sandbox.spotBySourceId(fixture.sourceId)!.attributes.fld_1_3 as number;
    const checked = fixture.media.fld_1_3.map((file) => digest(file.bytes));
    return { fixture, first: first.spots[0], steps, edited, galleryId, checked };
  }

  it('a small file goes out as the bytes the check read: the gallery gets the checked content, and the next run sends the new content once', async () => {
    const { fixture, first, edited, galleryId, checked } = await editDuringFirstRun(4096, false);
    assert.equal(first.status, 'done', first.reason);
    assert.deepEqual(galleryContents(galleryId), checked, 'the gallery holds what was checked, in name order');

    const second = await runImport([{ path: fixture.path }], options());
    assert.equal(second.spots[0].status, 'done', second.spots[0].reason);
    const contents = galleryContents(galleryId);
    assert.equal(new Set(contents).size, contents.length, 'no content is in the gallery twice');
    assert.ok(contents.includes(digest(edited)), 'the new content arrived');
  });

  it('a large file the check hashed (another of its size has the same ends) is compared while it streams: stopped before its end, not retried, and the next run hashes it anew even with its size and time kept', async () => {
    const { fixture, first, steps, edited, galleryId, checked } = await editDuringFirstRun(3 * 1024 * 1024 + 7, true);
    assert.equal(first.status, 'failed');
    assert.match(first.reason ?? '', /01\.jpg: .*changed after it was checked/);
    assert.ok(!steps.some((message) => message.includes('sending it again')), `not sent again in the run: ${steps.join(' / ')}`);
    assert.deepEqual(galleryContents(galleryId), [checked[1]], 'only the untouched file is in the gallery');

    const second = await runImport([{ path: fixture.path }], options());
    assert.equal(second.spots[0].status, 'done', second.spots[0].reason);
    assert.deepEqual(galleryContents(galleryId), [digest(edited), checked[1]], 'each file once, in name order');
  });
  describe('a large file hashed as it is sent (no other file of its gallery has its size)', () => {
    const LARGE = 2 * 1024 * 1024 + 5;

    function twoPhotos() {
      const fixture = writeSpot(workspace.dir, 'photos', { fld_1_3: ['01.jpg', '02.jpg'] }, { size: LARGE });
      const second = join(workspace.dir, 'photos.media', 'fld_1_3', '02.jpg');
      const bytes = mediaBytes('photos/02-other-size', LARGE + 100);
      writeFileSync(second, bytes);
      fixture.media.fld_1_3[1].bytes = bytes;
      return { fixture, first: join(workspace.dir, 'photos.media', 'fld_1_3', '01.jpg') };
    }

    it('edited after the check, size and time kept: the content that went out is what the journal knows it by, and the next run sends nothing', async () => {
      const { fixture, first } = twoPhotos();
      utimesSync(first, WHOLE_SECONDS, WHOLE_SECONDS);
      let edited: Buffer | undefined;
      const run = await runImport(
        [{ path: fixture.path }],
        options({ onStep: (step) => step.step === 'import-pending' && (edited = replaceKeepingSize(first, 'photos/01-new', true)) }),
      );
      assert.equal(run.spots[0].status, 'done', run.spots[0].reason);
      const galleryId = workspace.setup.sandbox.spotBySourceId(fixture.sourceId)!.attributes.fld_1_3 as number;
      assert.deepEqual(galleryContents(galleryId), [digest(edited!), digest(fixture.media.fld_1_3[1].bytes)], 'what was sent, in name order');
      const uploads = workspace.setup.sandbox.counters.uploads;
      const again = await runImport([{ path: fixture.path }], options());
      assert.equal(again.spots[0].status, 'done', again.spots[0].reason);
      assert.equal(workspace.setup.sandbox.counters.uploads, uploads, 'nothing sent again');
      assert.equal(galleryContents(galleryId).length, 2);
    });

    it('edited while it is being sent, size kept: stopped before its end and not stored; the next run sends it once', async () => {
      const { fixture, first } = twoPhotos();
      let edited: Buffer | undefined;
      const run = await runImport(
        [{ path: fixture.path }],
        options({
          onProgress: (event) => {
            // After its first read, with most of it still to come.
            if (event.kind === 'bytes' && event.file.endsWith('01.jpg') && !edited && event.sentBytes < event.totalBytes)
              edited = replaceKeepingSize(first, 'photos/01-while-sent', false);
          },
        }),
      );
      assert.ok(edited, 'the file was edited while it was sent');
      assert.equal(run.spots[0].status, 'failed');
      assert.match(run.spots[0].reason ?? '', /01\.jpg: .*changed while it was being sent/);
      const galleryId = workspace.setup.sandbox.spotBySourceId(fixture.sourceId)!.attributes.fld_1_3 as number;
      assert.deepEqual(galleryContents(galleryId), [digest(fixture.media.fld_1_3[1].bytes)], 'only the untouched file is in the gallery');

      const again = await runImport([{ path: fixture.path }], options());
      assert.equal(again.spots[0].status, 'done', again.spots[0].reason);
      assert.deepEqual(galleryContents(galleryId), [digest(edited), digest(fixture.media.fld_1_3[1].bytes)], 'each file once, in name order');
    });
  });
});
