// A photo replaced or removed beside its document after it was sent: the gallery still holds the
// media item it became, and the interface has no way to delete it. The run cannot make the gallery
// what the folder says, so it must not report a clean success: the spot gets a warning that names
// the gallery, the media item and the file it was sent from, and says to remove it by hand.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport } from '../../src/core/import';
import type { SpotOutcome } from '../../src/core/import/types';
import { useCoreWorkspace } from './helpers/coreSetup';
import { mediaBytes, writeSpot } from './helpers/workflowFixtures';

describe('media workflow: media of a file no longer beside the document', () => {
  const workspace = useCoreWorkspace('spot-media-left-');
  const options = workspace.workflowOptions;

  const warnings = (outcome: SpotOutcome) => outcome.problems.filter((problem) => problem.severity === 'warning').map((problem) => problem.message);

  it('replaced, then removed: each run that finds such media in the gallery warns of each, by gallery, media id and file', async () => {
    const a = writeSpot(workspace.dir, 'a', { fld_1_3: ['1.jpg', '2.jpg', '3.jpg'] });
    const [first] = (await runImport([{ path: a.path }], options())).spots;
    assert.equal(first.status, 'done', first.reason);
    assert.deepEqual(warnings(first), []);
    const galleryId = first.galleries[0].galleryId!;
    const [mediaOf1, mediaOf2] = workspace.setup.sandbox.gallery(galleryId)!.mediaIds;
    const [again] = (await runImport([{ path: a.path }], options())).spots;
    assert.deepEqual(warnings(again), [], 'nothing changed: nothing to say');

    const folder = join(workspace.dir, 'a.media', 'fld_1_3');
    writeFileSync(join(folder, '1.jpg'), mediaBytes('a/fld_1_3/1.jpg, taken again'));
    const [replaced] = (await runImport([{ path: a.path }], options())).spots;
    assert.equal(replaced.status, 'done', replaced.reason);
    assert.equal(replaced.galleries[0].uploaded, 1, 'the new content is sent');
    assert.equal(warnings(replaced).length, 1, JSON.stringify(replaced.problems));
    assert.match(
      warnings(replaced)[0],
      new RegExp(`^Gallery ${galleryId} \\(fld_1_3\\) holds media ${mediaOf1}, sent from fld_1_3/1\\.jpg, .*remove it on the service by hand`),
    );
    assert.equal(replaced.problems.find((problem) => problem.severity === 'warning')!.pointer, '/data/attributes/fld_1_3');

    rmSync(join(folder, '2.jpg'));
    // Nothing is left to send: the journal alone would say done, so the gallery is asked.
    const [removed] = (await runImport([{ path: a.path }], options())).spots;
    assert.equal(removed.status, 'done', removed.reason);
    assert.equal(removed.sent, false);
    assert.deepEqual(
      warnings(removed).map((message) => /holds media (\d+), sent from (\S+),/.exec(message)!.slice(1)),
      [
        [String(mediaOf1), 'fld_1_3/1.jpg'],
        [String(mediaOf2), 'fld_1_3/2.jpg'],
      ],
    );
  });

  // A field whose folder lost every file had no upload step at all, so nothing looked at its
  // gallery: the run was a clean success with all its media left over.
  it('a field whose folder lost every file warns of each media item its gallery still holds', async () => {
    const b = writeSpot(workspace.dir, 'b', { fld_1_3: ['1.jpg', '2.jpg'] });
    const [first] = (await runImport([{ path: b.path }], options())).spots;
    assert.equal(first.status, 'done', first.reason);
    const galleryId = first.galleries[0].galleryId!;
    const mediaIds = workspace.setup.sandbox.gallery(galleryId)!.mediaIds;

    for (const [how, remove] of [
      ['its files removed', () => ['1.jpg', '2.jpg'].forEach((name) => rmSync(join(workspace.dir, 'b.media', 'fld_1_3', name)))],
      ['its folder removed', () => rmSync(join(workspace.dir, 'b.media'), { recursive: true })],
    ] as const) {
      remove();
      const [emptied] = (await runImport([{ path: b.path }], options())).spots;
      assert.equal(emptied.status, 'done', `${how}: ${emptied.reason}`);
      assert.deepEqual(
        warnings(emptied).map((message) => /^Gallery (\d+) \(fld_1_3\) holds media (\d+), sent from (\S+),/.exec(message)?.slice(1)),
        [
          [String(galleryId), String(mediaIds[0]), 'fld_1_3/1.jpg'],
          [String(galleryId), String(mediaIds[1]), 'fld_1_3/2.jpg'],
        ],
        `${how}: ${JSON.stringify(emptied.problems)}`,
      );
    }
  });
});
