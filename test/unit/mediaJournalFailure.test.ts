import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultJournalDir, runMediaWorkflow, type MediaWorkflowOptions } from '../../src/core/media';
import { DEMO_CLIENT } from '../../src/sandbox/types';
import { startCore, type CoreSetup } from './helpers/coreSetup';
import { assertFinished, writeSpot } from './helpers/workflowFixtures';

// Exactly-once rests on the announcement of an upload being on disk before the upload can be
// stored. When the disk refuses it (full, failing), the file must not reach the gallery, the spot
// must say that its journal could not be written (not blame the network), and a later run with
// a working disk finishes the spot with every file once.
describe('media workflow: a journal that cannot be written before an upload', () => {
  let setup: CoreSetup;
  let dir: string;
  // The module object itself (an `import *` is a copy), whose fdatasync the journal's log calls.
  const fs = require('node:fs') as typeof import('node:fs');
  const realDataSync = fs.fdatasync;

  beforeEach(async () => {
    setup = await startCore();
    dir = mkdtempSync(join(tmpdir(), 'spot-journal-failure-'));
  });
  afterEach(async () => {
    fs.fdatasync = realDataSync;
    await setup.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const options = (extra: Partial<MediaWorkflowOptions> = {}): MediaWorkflowOptions => ({ client: setup.client, clientId: DEMO_CLIENT.clientId, journalDir: defaultJournalDir(dir), retry: { baseMs: 5, maxMs: 50 }, ...extra });

  it('stores nothing, names the journal, and a second run finishes the spot', async () => {
    const fixture = writeSpot(dir, 'disk', { fld_1_3: ['a.jpg', 'b.jpg'] }, { direct: true, size: 300 * 1024 });
    fs.fdatasync = ((_fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      const error: NodeJS.ErrnoException = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      setImmediate(() => callback(error));
    }) as typeof fs.fdatasync;
    const [spot] = (await runMediaWorkflow([{ path: fixture.path }], options())).spots;
    assert.equal(spot.status, 'failed');
    const galleryId = setup.sandbox.spotBySourceId(fixture.sourceId)?.attributes.fld_1_3;
    assert.ok(typeof galleryId === 'number', 'the gallery was created by the import with state 2');
    assert.deepEqual(setup.sandbox.gallery(galleryId)?.mediaIds, [], 'no file reached the gallery');
    assert.match(spot.reason ?? '', /journal .*journal\.jsonl could not be written \(EIO: i\/o error, fdatasync\)/);
    assert.notEqual(spot.error?.kind, 'network', 'a disk failure is not blamed on the network');

    fs.fdatasync = realDataSync;
    const [again] = (await runMediaWorkflow([{ path: fixture.path }], options())).spots;
    assert.equal(again.status, 'done', again.reason);
    assertFinished(setup.sandbox, [fixture]);
  });
});
