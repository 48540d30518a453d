import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportJournal, defaultJournalDir } from '../../src/core/journal';
import { testAccounts } from './helpers/testAccounts';

// Two media runs at once in one VS Code window (Import Folder while Import Spot with Media runs)
// open two ImportJournal instances on one account. Their records go to one log: each must read
// back what either wrote, or a spot's record is lost and its next run repeats finished work.
describe('media journal: two journals of one account in one process', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-journal-shared-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const account = { serviceUrl: 'http://127.0.0.1:1', clientId: 'c' };

  /** Spots `<name>-0…` written in turns through their journals, each with spot id base + i. */
  async function writeInTurns(writers: ReadonlyArray<readonly [ImportJournal, string, number]>, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      for (const [journal, name, base] of writers) {
        const spot = await journal.open(`${name}-${i}`, `${name}-${i}.spot.json`);
        spot.record.spotId = base + i;
        spot.touch();
        await spot.flush();
        spot.release();
      }
    }
  }

  /** Every spot of `writers` reads back its own record through each of `readers`. */
  async function assertReadBack(
    readers: ReadonlyArray<readonly [ImportJournal, string]>,
    writers: ReadonlyArray<readonly [ImportJournal, string, number]>,
    count: number,
  ): Promise<void> {
    for (const [journal, label] of readers) {
      for (let i = 0; i < count; i++) {
        for (const [, name, base] of writers) {
          const spot = await journal.open(`${name}-${i}`, `${name}-${i}.spot.json`);
          assert.equal(spot.record.spotId, base + i, `${name}-${i} read through the ${label} journal`);
          spot.release();
        }
      }
    }
  }

  it('every record either wrote reads back in both, and in a later run', async () => {
    const first = new ImportJournal(defaultJournalDir(dir), account, testAccounts);
    const second = new ImportJournal(defaultJournalDir(dir), account, testAccounts);
    try {
      const writers = [
        [first, 'a', 100],
        [second, 'b', 200],
      ] as const;
      await writeInTurns(writers, 4);
      await assertReadBack(
        [
          [first, 'first'],
          [second, 'second'],
        ],
        writers,
        4,
      );
    } finally {
      await first.close();
      await second.close();
    }
    const later = new ImportJournal(defaultJournalDir(dir), account, testAccounts);
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
    const direct = new ImportJournal(defaultJournalDir(dir), account, testAccounts);
    const linked = new ImportJournal(defaultJournalDir(alias), account, testAccounts);
    try {
      const writers = [
        [direct, 'd', 100],
        [linked, 'l', 200],
      ] as const;
      await writeInTurns(writers, 3);
      await assertReadBack(
        [
          [direct, 'direct'],
          [linked, 'linked'],
        ],
        writers,
        3,
      );
      await assert.rejects(
        linked.open('d-0', 'd-0.spot.json').then(async (spot) => {
          const again = await direct.open('d-0', 'd-0.spot.json').finally(() => spot.release());
          again.release();
        }),
        /already working on source_id "d-0"/,
        'one spot at a time, whichever path names it',
      );
    } finally {
      await direct.close();
      await linked.close();
      rmSync(alias, { force: true });
    }
  });
});
