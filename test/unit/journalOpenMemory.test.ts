import * as assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { JOURNAL_LOG_NAME, RecordLog } from '../../src/core/journal/recordLog';
import { JOURNAL_FORMAT, type SpotJournalRecord } from '../../src/core/journal/journalRecord';

// An open log keeps two numbers per source id, not its line: the line is read back when the spot
// is opened. A source id cut out of the line's text with slice() is, in V8, a view that keeps the
// whole line alive; 40,000 lines of an earlier run held that way were 15 MiB of the CLI's heap in
// the 100,000-document memory bench, and about 50 MiB of its peak RSS.
describe('media journal: an open log does not keep the text of its lines', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-journal-memory-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('holds 20,000 lines of 2 KB in far less than their 40 MB', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // Written a line at a time, so none of their text is left in this heap to be collected later.
    const file = openSync(join(dir, JOURNAL_LOG_NAME), 'w');
    for (let i = 0; i < 20_000; i++) {
      const record: SpotJournalRecord = {
        format: JOURNAL_FORMAT,
        service: 'http://127.0.0.1:4100',
        clientId: 'topic_1_api',
        sourceId: `spot-source-${i}`,
        document: `/data/${'x'.repeat(2000)}/${i}.spot.json`,
        galleries: {},
        updatedAt: '2026-11-26T10:00:00.000Z',
      };
      writeSync(file, `${JSON.stringify(record)}\n`);
    }
    closeSync(file);
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const log = await RecordLog.open(dir);
    gc();
    gc();
    const held = process.memoryUsage().heapUsed - before;
    try {
      assert.equal(JSON.parse(log.line('spot-source-19999')!).sourceId, 'spot-source-19999');
      assert.ok(held < 10 * 1024 * 1024, `the open log holds ${(held / 1024 / 1024).toFixed(1)} MiB`);
    } finally {
      await log.close();
    }
  });
});
