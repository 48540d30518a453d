import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaJournal, defaultJournalDir, runMediaWorkflow, serviceUrlOf } from '../../src/core/media';
import { DEMO_CLIENT } from '../../src/sandbox/types';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';
import { writeSpot } from './helpers/workflowFixtures';

// The journal of spots without galleries is written without fsync (losing it costs one more
// upsert); what that allows after a power cut, and the run's list of existing journal files.
describe('media journal: spots without galleries, and the files a run knows', () => {
  let setup: CoreSetup;
  let dir: string;
  beforeEach(async () => {
    setup = await startCore();
    dir = mkdtempSync(join(tmpdir(), 'spot-journal-plain-'));
  });
  afterEach(async () => {
    await setup.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const options = (extra = {}) => ({ client: setup.client, clientId: DEMO_CLIENT.clientId, journalDir: defaultJournalDir(dir), retry: { baseMs: 5, maxMs: 50 }, ...extra });

  it('takes an empty journal file (a write lost in a power cut) as no record, and imports again', async () => {
    const path = join(dir, 'plain.spot.json');
    writeFileSync(path, JSON.stringify(spot('plain-1')));
    const first = await runMediaWorkflow([{ path }], options());
    assert.equal(first.spots[0].status, 'done');
    const journalFile = first.spots[0].journalFile!;
    writeFileSync(journalFile, '');
    const again = await runMediaWorkflow([{ path }], options());
    assert.equal(again.spots[0].status, 'done', again.spots[0].reason);
    assert.equal(again.spots[0].imported, 'final');
    assert.equal(setup.sandbox.counters.imports, 2);
  });

  it('a journal instance kept across runs still reads the records written by its earlier run', async () => {
    const fixture = writeSpot(dir, 'walk', { fld_1_3: ['01.jpg', '02.jpg'] });
    const journal = new MediaJournal(defaultJournalDir(dir), { serviceUrl: serviceUrlOf(setup.client.apiRoot), clientId: DEMO_CLIENT.clientId });
    try {
      // Listed before the spot's journal exists...
      (await journal.open('someone-else', fixture.path)).release();
      const first = await journal.open(fixture.sourceId, fixture.path);
      first.record.spotId = 4242;
      await first.save();
      first.release();
      // ...and opened again after it was written: the record is read, not taken as new.
      const second = await journal.open(fixture.sourceId, fixture.path);
      assert.equal(second.record.spotId, 4242);
      second.release();
    } finally {
      await journal.close();
    }
  });

  it('media: false sends each document as it is and leaves its media folder alone', async () => {
    const fixture = writeSpot(dir, 'walk', { fld_1_3: ['01.jpg'] });
    const run = await runMediaWorkflow([{ path: fixture.path }], options({ media: false }));
    assert.equal(run.spots[0].status, 'done', run.spots[0].reason);
    assert.equal(run.spots[0].withMedia, false);
    assert.equal(setup.sandbox.counters.uploads, 0);
    assert.equal(setup.sandbox.spotBySourceId(fixture.sourceId)?.attributes.state, 2);
    assert.ok(readdirSync(dir).includes('walk.media'));
  });
});
