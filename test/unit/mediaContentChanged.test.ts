// A media file edited between the check (which hashes it: its content is its identity in the
// journal) and its upload. What a gallery receives must be what was checked: a small file goes
// out from the bytes the check read, a large one is compared while it streams and stopped before
// its end when it differs. Otherwise the journal files new content under the old content's key,
// and the next run, hashing the new content, sends it a second time.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultJournalDir, runMediaWorkflow, type MediaWorkflowOptions } from '../../src/core/media';
import { DEMO_CLIENT } from '../../src/sandbox/types';
import { startCore, type CoreSetup } from './helpers/coreSetup';
import { mediaBytes, writeSpot } from './helpers/workflowFixtures';

describe('media workflow: a file edited after it was checked', () => {
  let setup: CoreSetup;
  let dir: string;

  beforeEach(async () => {
    setup = await startCore();
    dir = mkdtempSync(join(tmpdir(), 'spot-media-changed-'));
  });
  afterEach(async () => {
    await setup.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function options(extra: Partial<MediaWorkflowOptions> = {}): MediaWorkflowOptions {
    return { client: setup.client, clientId: DEMO_CLIENT.clientId, journalDir: defaultJournalDir(dir), retry: { baseMs: 5, maxMs: 50 }, ...extra };
  }

  const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  function galleryContents(galleryId: number): string[] {
    return setup.sandbox.gallery(galleryId)!.mediaIds.map((id) => digest(readFileSync(setup.sandbox.media(id)!.path)));
  }

  /** Same size, other bytes: the size does not tell them apart. */
  function replaceKeepingSize(path: string, tag: string): Buffer {
    const bytes = mediaBytes(tag, statSync(path).size);
    writeFileSync(path, bytes);
    return bytes;
  }

  for (const [what, size] of [['a small file (sent from the bytes the check read)', 4096], ['a large file (compared while it streams)', 3 * 1024 * 1024 + 7]] as const) {
    it(`${what}: the gallery gets the checked content or nothing, and the next run sends the new content once`, async () => {
      const fixture = writeSpot(dir, 'edited', { fld_1_3: ['01.jpg', '02.jpg'] }, { size });
      const firstPath = join(dir, 'edited.media', 'fld_1_3', '01.jpg');
      let edited: Buffer | undefined;
      const first = await runMediaWorkflow(
        [{ path: fixture.path }],
        options({
          onStep: (step) => {
            // After the check and the import with state 2, before any upload.
            if (step.step === 'import-pending') edited = replaceKeepingSize(firstPath, 'edited/new-content');
          },
        }),
      );
      assert.ok(edited, 'the file was edited during the run');
      const galleryId = first.spots[0].galleries[0]?.galleryId ?? setup.sandbox.spotBySourceId(fixture.sourceId)!.attributes.fld_1_3;
      const checked = fixture.media.fld_1_3.map((file) => digest(file.bytes));
      for (const content of galleryContents(galleryId as number)) {
        assert.ok(checked.includes(content), `gallery ${galleryId} holds only content that was checked (the first run's status: ${first.spots[0].status}, ${first.spots[0].reason ?? ''})`);
      }

      const second = await runMediaWorkflow([{ path: fixture.path }], options());
      assert.equal(second.spots[0].status, 'done', second.spots[0].reason);
      const contents = galleryContents(galleryId as number);
      assert.equal(new Set(contents).size, contents.length, 'no content is in the gallery twice');
      assert.ok(contents.includes(digest(edited)), 'the new content arrived');
      assert.ok(contents.includes(checked[1]), 'the untouched file arrived');
    });
  }
});
