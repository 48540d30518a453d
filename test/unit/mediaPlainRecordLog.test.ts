import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlainRecordLog } from '../../src/core/media/plainRecords';
import { JOURNAL_FORMAT, type SpotJournalRecord } from '../../src/core/media/journalRecord';

// The log keeps only where each line starts; a line is read back to its newline when its spot is
// opened. Lines longer than one read, and the offsets after a compaction, must still read whole.
describe('media journal: the append-only log of spots without galleries', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-plain-log-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const record = (sourceId: string, spotId: number): SpotJournalRecord => ({
    format: JOURNAL_FORMAT,
    service: 'http://127.0.0.1:1',
    clientId: 'c',
    sourceId,
    galleries: {},
    spotId,
    finalImport: { sha256: 'a'.repeat(64), state: 1, at: '2026-01-01T00:00:00.000Z' },
    updatedAt: '2026-01-01T00:00:00.000Z',
  });

  it('reads back lines longer than one read, in this run and after reopening', async () => {
    const long = `long-${'x'.repeat(5000)}`;
    const log = new PlainRecordLog(dir);
    await log.load();
    log.append(record('short', 1));
    log.append(record(long, 2));
    log.append(record('after', 3));
    assert.equal(log.get(long)?.spotId, 2);
    assert.equal(log.get('after')?.spotId, 3);
    log.close();
    const again = new PlainRecordLog(dir);
    await again.load();
    assert.deepEqual([again.get('short')?.spotId, again.get(long)?.spotId, again.get('after')?.spotId], [1, 2, 3]);
    assert.equal(again.get('missing'), undefined);
    again.close();
  });

  it('after a compaction (many lines per spot) each spot reads its last record', async () => {
    const log = new PlainRecordLog(dir);
    await log.load();
    for (let i = 0; i < 4200; i++) log.append(record(i % 2 === 0 ? 'even' : `odd-${'y'.repeat(1500)}`, i));
    log.close();
    const again = new PlainRecordLog(dir);
    await again.load();
    assert.equal(readFileSync(again.file, 'utf8').split('\n').filter(Boolean).length, 2, 'compacted to one line per spot');
    assert.equal(again.get('even')?.spotId, 4198);
    assert.equal(again.get(`odd-${'y'.repeat(1500)}`)?.spotId, 4199);
    again.append(record('even', 5000));
    assert.equal(again.get('even')?.spotId, 5000);
    again.close();
  });
});
