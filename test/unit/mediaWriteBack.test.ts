// The write-back of a document the engine read itself: known unchanged from its stats (size,
// change time, inode) when they are what they were at the read, so it is not read again; any
// write since, or a file put in its place, leaves it alone as before.
import * as assert from 'node:assert/strict';
import { readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport, writeSpotFileInPlace } from '../../src/core/import';
import { sameAsRead, type DocumentStamp } from '../../src/core/documents/readDocument';
import { useCoreWorkspace } from './helpers/coreSetup';
import { countFileReads, type ReadCounter } from './helpers/fileReads';
import { assertFinished, writeSpot } from './helpers/workflowFixtures';

describe('media workflow: writing back a document it read', () => {
  const workspace = useCoreWorkspace('spot-write-back-');
  const options = workspace.workflowOptions;
  let counter: ReadCounter | undefined;
  afterEach(() => {
    counter?.restore();
    counter = undefined;
  });

  /** Past the margin within which a file's times are too close to its read to vouch for it. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

  it('reads the document once: the write-back knows it unchanged from its stats', async () => {
    const fixture = writeSpot(workspace.dir, 'once', { fld_1_3: ['a.jpg', 'b.jpg'] });
    await settle();
    counter = await countFileReads();
    const [spot] = (await runImport([{ path: fixture.path }], options())).spots;
    counter.restore();
    assert.equal(spot.status, 'done', spot.reason);
    assert.equal(spot.writeBack.status, 'written');
    assert.equal(counter.of(fixture.path).opens, 1, 'opened once, by the read');
    assert.equal(counter.of(fixture.path).reads, 1);
    assertFinished(workspace.setup.sandbox, [fixture]);
  });

  for (const how of [
    'edited in place, same size, its modification time put back',
    'replaced by another file of the same size and times (a save by rename)',
  ] as const) {
    it(`a document ${how} while the run was busy is not overwritten`, async () => {
      const fixture = writeSpot(workspace.dir, 'edited', { fld_1_3: ['a.jpg'] });
      const original = readFileSync(fixture.path, 'utf8');
      const edited = original.replace('"latitude": 48.2', '"latitude": 48.3');
      assert.equal(edited.length, original.length);
      await settle();
      const [spot] = (
        await runImport(
          [{ path: fixture.path }],
          options({
            writeBack: async (request) => {
              const before = statSync(request.path);
              if (how.startsWith('edited')) writeFileSync(request.path, edited);
              else {
                const other = join(workspace.dir, 'other.json');
                writeFileSync(other, edited);
                utimesSync(other, before.atime, before.mtime);
                renameSync(other, request.path);
              }
              utimesSync(request.path, before.atime, before.mtime);
              return writeSpotFileInPlace(request);
            },
          }),
        )
      ).spots;
      assert.equal(spot.writeBack.status, 'conflict');
      assert.equal(readFileSync(fixture.path, 'utf8'), edited, 'the newer text was kept');
    });
  }
});

describe('sameAsRead', () => {
  const stamp: DocumentStamp = {
    dev: 1,
    ino: 2,
    size: 300,
    mode: 0o100644,
    mtimeMs: 1_700_000_000_123.5,
    ctimeMs: 1_700_000_000_124.25,
    at: 1_700_000_010_000,
  };
  const same = { dev: 1, ino: 2, size: 300, mtimeMs: stamp.mtimeMs, ctimeMs: stamp.ctimeMs };

  it('the same file with the same size and times, written well before it was read', () => {
    assert.equal(sameAsRead(stamp, same), true);
    for (const change of [{ dev: 3 }, { ino: 3 }, { size: 301 }, { mtimeMs: stamp.mtimeMs + 1 }, { ctimeMs: stamp.ctimeMs + 0.001 }])
      assert.equal(sameAsRead(stamp, { ...same, ...change }), false, JSON.stringify(change));
  });

  it('never a file written so close to its read that a later write could have got the same times', () => {
    assert.equal(sameAsRead({ ...stamp, at: stamp.ctimeMs + 50 }, same), false);
    assert.equal(sameAsRead({ ...stamp, at: stamp.ctimeMs + 500 }, same), true);
    // Whole-second times (FAT, some network file systems): two seconds of margin.
    const coarse = { ...stamp, mtimeMs: 1_700_000_000_000, ctimeMs: 1_700_000_001_000 };
    const coarseNow = { ...same, mtimeMs: coarse.mtimeMs, ctimeMs: coarse.ctimeMs };
    assert.equal(sameAsRead({ ...coarse, at: coarse.ctimeMs + 1500 }, coarseNow), false);
    assert.equal(sameAsRead({ ...coarse, at: coarse.ctimeMs + 2500 }, coarseNow), true);
  });
});
