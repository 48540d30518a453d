import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
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

  it('the same folder by another path (a link) is the same journal: one lock, one log', async () => {
    const alias = `${dir}-link`;
    symlinkSync(dir, alias);
    const direct = new MediaJournal(defaultJournalDir(dir), account);
    const linked = new MediaJournal(defaultJournalDir(alias), account);
    try {
      for (let i = 0; i < 3; i++) {
        for (const [journal, name] of [[direct, 'd'], [linked, 'l']] as const) {
          const spot = await journal.open(`${name}-${i}`, `${name}-${i}.spot.json`);
          spot.record.spotId = i + (name === 'd' ? 100 : 200);
          spot.touch();
          await spot.flush();
          spot.release();
        }
      }
      for (const journal of [direct, linked]) {
        for (let i = 0; i < 3; i++) {
          for (const [name, base] of [['d', 100], ['l', 200]] as const) {
            const spot = await journal.open(`${name}-${i}`, `${name}-${i}.spot.json`);
            assert.equal(spot.record.spotId, i + base, `${name}-${i} through the ${journal === direct ? 'direct' : 'linked'} path`);
            spot.release();
          }
        }
      }
      await assert.rejects(linked.open('d-0', 'd-0.spot.json').then(async (spot) => {
        const again = await direct.open('d-0', 'd-0.spot.json').finally(() => spot.release());
        again.release();
      }), /already working on source_id "d-0"/, 'one spot at a time, whichever path names it');
    } finally {
      await direct.close();
      await linked.close();
      rmSync(alias, { force: true });
    }
  });
});
