import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaJournal, defaultJournalDir } from '../../src/core/media';

// Two media runs at once in one VS Code window (Import Folder while Import Spot with Media runs)
// open two MediaJournal instances on one account. Their records go to one log: each must read
// back what either wrote, or a spot's record is lost and its next run repeats finished work.
describe('media journal: two journals of one account in one process', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-journal-shared-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const account = { serviceUrl: 'http://127.0.0.1:1', clientId: 'c' };

  it('every record either wrote reads back in both, and in a later run', async () => {
    const first = new MediaJournal(defaultJournalDir(dir), account);
    const second = new MediaJournal(defaultJournalDir(dir), account);
    try {
      for (let i = 0; i < 4; i++) {
        for (const [journal, name] of [[first, 'a'], [second, 'b']] as const) {
          const spot = await journal.open(`${name}-${i}`, `${name}-${i}.spot.json`);
          spot.record.spotId = i + (name === 'a' ? 100 : 200);
          spot.touch();
          await spot.flush();
          spot.release();
        }
      }
      for (let i = 0; i < 4; i++) {
        for (const journal of [first, second]) {
          for (const [name, base] of [['a', 100], ['b', 200]] as const) {
            const spot = await journal.open(`${name}-${i}`, `${name}-${i}.spot.json`);
            assert.equal(spot.record.spotId, i + base, `${name}-${i} read through the ${journal === first ? 'first' : 'second'} journal`);
            spot.release();
          }
        }
      }
    } finally {
      await first.close();
      await second.close();
    }
    const later = new MediaJournal(defaultJournalDir(dir), account);
    try {
      const spot = await later.open('b-3', 'b-3.spot.json');
      assert.equal(spot.record.spotId, 203);
      spot.release();
    } finally {
      await later.close();
    }
  });
});
