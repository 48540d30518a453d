// How often the import reads each media file from disk. A small file is read once, by the check
// that hashes it, and sent from those bytes; a large one (a photo of several MB) is read once, by
// its upload, which hashes it as it streams. Counted by wrapping the file system calls the core
// makes (helpers/fileReads.ts), so any path through the core that reads a file again shows.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { runMediaWorkflow } from '../../src/core/media';
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
    return Object.entries(fixture.media).flatMap(([field, files]) => files.map((file) => ({ path: join(workspace.dir, `${fixture.sourceId.slice(4)}.media`, ...(fixture.direct ? [] : [field]), file.name), size: file.bytes.length })));
  }

  async function importCounting(fixtures: SpotFixture[]): Promise<void> {
    counter = await countFileReads();
    const outcome = await runMediaWorkflow(fixtures.map((fixture) => ({ path: fixture.path })), workspace.workflowOptions());
    counter.restore();
    for (const spot of outcome.spots) assert.equal(spot.status, 'done', spot.reason);
    assertFinished(workspace.setup.sandbox, fixtures);
  }

  it('small files: one open and one read each, of exactly their bytes', async () => {
    const fixtures = [writeSpot(workspace.dir, 'small-a', { fld_1_3: ['01.jpg', '02.jpg', '03.jpg'] }, { size: 200 * 1024 }), writeSpot(workspace.dir, 'small-b', { fld_1_3: ['a.png'], fld_1_4: ['b.png'] }, { size: 4096 })];
    await importCounting(fixtures);
    for (const fixture of fixtures) {
      for (const { path, size } of mediaPaths(fixture)) assert.deepEqual(counter!.of(path), { opens: 1, reads: 1, bytes: size }, path);
    }
  });
});
