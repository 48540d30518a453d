import * as assert from 'node:assert/strict';
import { runImport } from '../../src/core/import';
import { useCoreWorkspace } from './helpers/coreSetup';
import { assertFinished, writeSpot } from './helpers/workflowFixtures';

// Exactly-once rests on the announcement of an upload being on disk before the upload can be
// stored. When the disk refuses it (full, failing), the file must not reach the gallery, the spot
// must say that its journal could not be written (not blame the network), and a later run with
// a working disk finishes the spot with every file once.
describe('media workflow: a journal that cannot be written before an upload', () => {
  const workspace = useCoreWorkspace('spot-journal-failure-');
  // The module object itself (an `import *` is a copy), whose fdatasync the journal's log calls.
  const fs = require('node:fs') as typeof import('node:fs');
  const realDataSync = fs.fdatasync;

  afterEach(() => {
    fs.fdatasync = realDataSync;
  });
  const options = workspace.workflowOptions;

  it('stores nothing, names the journal, and a second run finishes the spot', async () => {
    const fixture = writeSpot(workspace.dir, 'disk', { fld_1_3: ['a.jpg', 'b.jpg'] }, { direct: true, size: 300 * 1024 });
    fs.fdatasync = ((_fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      const error: NodeJS.ErrnoException = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      setImmediate(() => callback(error));
    }) as typeof fs.fdatasync;
    const [spot] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(spot.status, 'failed');
    const galleryId = workspace.setup.sandbox.spotBySourceId(fixture.sourceId)?.attributes.fld_1_3;
    assert.ok(typeof galleryId === 'number', 'the gallery was created by the import with state 2');
    assert.deepEqual(workspace.setup.sandbox.gallery(galleryId)?.mediaIds, [], 'no file reached the gallery');
    assert.match(spot.reason ?? '', /journal .*journal\.jsonl could not be written \(EIO: i\/o error, fdatasync\)/);
    assert.notEqual(spot.error?.kind, 'network', 'a disk failure is not blamed on the network');

    fs.fdatasync = realDataSync;
    const [again] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(again.status, 'done', again.reason);
    assertFinished(workspace.setup.sandbox, [fixture]);
  });
});
