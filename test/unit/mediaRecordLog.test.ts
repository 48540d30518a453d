import * as assert from 'node:assert/strict';
import { appendFileSync, fstatSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordLog } from '../../src/core/journal/recordLog';
import { JOURNAL_FORMAT, type SpotJournalRecord } from '../../src/core/journal/journalRecord';

// The journal's append-only log keeps only where each spot's last line starts; a line is read
// back when its spot is opened. Lines longer than one read, the offsets after a compaction (when
// opened, and while a run writes), and group commit of durable appends.
describe('media journal: the append-only record log', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-record-log-'))));
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
  /** The log's write calls until restore(): how many lines each wrote (other writes of the process are not counted). */
  const countWriteCalls = () => {
    const fs = require('node:fs') as typeof import('node:fs');
    const real = fs.writeSync;
    const lengths: number[] = [];
    (fs as { writeSync: unknown }).writeSync = (fd: number, buffer: Buffer, offset = 0, length = buffer.length - offset, position?: number | null) => {
      const written = Buffer.from(buffer.buffer, buffer.byteOffset + offset, length).toString('utf8');
      if (written.startsWith('{"format":')) lengths.push(written.split('\n').length - 1);
      return real(fd, buffer, offset, length, position);
    };
    return { lengths, restore: () => ((fs as { writeSync: unknown }).writeSync = real) };
  };
  const spotIdOf = (log: RecordLog, sourceId: string) => {
    const line = log.line(sourceId);
    return line === undefined ? undefined : (JSON.parse(line) as SpotJournalRecord).spotId;
  };

  it('reads back lines longer than one read, in this run and after reopening', async () => {
    const long = `long-${'x'.repeat(5000)}`;
    const log = await RecordLog.open(dir);
    log.append(record('short', 1));
    log.append(record(long, 2));
    log.append(record('after', 3));
    assert.equal(spotIdOf(log, long), 2);
    assert.equal(spotIdOf(log, 'after'), 3);
    await log.close();
    const again = await RecordLog.open(dir);
    assert.deepEqual([spotIdOf(again, 'short'), spotIdOf(again, long), spotIdOf(again, 'after')], [1, 2, 3]);
    assert.equal(again.line('missing'), undefined);
    await again.close();
  });

  it('after a compaction when opened (many lines per spot) each spot reads its last record', async () => {
    const log = await RecordLog.open(dir);
    for (let i = 0; i < 4200; i++) log.append(record(i % 2 === 0 ? 'even' : `odd-${'y'.repeat(1500)}`, i));
    await log.close();
    const again = await RecordLog.open(dir);
    assert.equal(readFileSync(again.file, 'utf8').split('\n').filter(Boolean).length, 2, 'compacted to one line per spot');
    assert.equal(spotIdOf(again, 'even'), 4198);
    assert.equal(spotIdOf(again, `odd-${'y'.repeat(1500)}`), 4199);
    again.append(record('even', 5000));
    assert.equal(spotIdOf(again, 'even'), 5000);
    await again.close();
  });

  it('compacts while a run writes once the log outgrows its live lines, durable appends in flight included', async () => {
    const log = await RecordLog.open(dir, { compactAtBytes: 64 * 1024 });
    const spots = Array.from({ length: 10 }, (_, i) => `spot-${i}`);
    let largest = 0;
    for (let round = 0; round < 60; round++) {
      // Durable appends of every spot at once, then plain ones: the compactions fall among both.
      await Promise.all(spots.map((sourceId, i) => log.appendDurable(record(sourceId, round * 100 + i))));
      for (const [i, sourceId] of spots.entries()) log.append(record(sourceId, round * 100 + 50 + i));
      largest = Math.max(largest, statSync(log.file).size);
    }
    assert.ok(largest < 2 * 64 * 1024, `the log stayed small (${largest} bytes at most)`);
    assert.deepEqual(
      spots.map((sourceId) => spotIdOf(log, sourceId)),
      spots.map((_, i) => 5950 + i),
    );
    await log.close();
    const again = await RecordLog.open(dir);
    assert.deepEqual(
      spots.map((sourceId) => spotIdOf(again, sourceId)),
      spots.map((_, i) => 5950 + i),
    );
    await again.close();
  });

  it('a durable append resolves only after an fdatasync that began after its write; appends meanwhile share one', async () => {
    const log = await RecordLog.open(dir);
    const events: string[] = [];
    // The module object itself (an `import *` is a copy), whose fdatasync the log calls.
    const fs = require('node:fs') as typeof import('node:fs');
    const real = fs.fdatasync;
    // Every fdatasync notes how long the file was when it began, and is slow enough for appends to pile up.
    (fs as { fdatasync: typeof fs.fdatasync }).fdatasync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      const size = fstatSync(fd).size;
      events.push(`sync ${size}`);
      setTimeout(() => real(fd, callback), 20);
    }) as typeof fs.fdatasync;
    try {
      const sizes: number[] = [];
      await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          await new Promise((resolve) => setTimeout(resolve, i * 3));
          const append = log.appendDurable(record(`s-${i}`, i));
          sizes[i] = statSync(log.file).size;
          await append;
          events.push(`done ${i}`);
        }),
      );
      const syncs = events.filter((event) => event.startsWith('sync')).length;
      assert.ok(syncs >= 2 && syncs < 12, `${syncs} fdatasyncs for 12 appends: ${events.join(', ')}`);
      for (let i = 0; i < 12; i++) {
        const done = events.indexOf(`done ${i}`);
        const covering = events.slice(0, done).filter((event) => event.startsWith('sync') && Number(event.split(' ')[1]) >= sizes[i]);
        assert.ok(covering.length > 0, `append ${i} (log at ${sizes[i]} bytes) was covered by an fdatasync before it resolved: ${events.join(', ')}`);
      }
    } finally {
      (fs as { fdatasync: typeof fs.fdatasync }).fdatasync = real;
      await log.close();
    }
  });

  it('a write the disk takes only in part (full disk) is finished, not taken as whole: every record still reads back', async () => {
    const fs = require('node:fs') as typeof import('node:fs');
    const real = fs.writeSync;
    let shortened = 0;
    // Every third write takes only half its bytes, as write(2) may on a full disk.
    (fs as { writeSync: unknown }).writeSync = (fd: number, buffer: Buffer, offset = 0, length = buffer.length - offset) => {
      if (++shortened % 3 === 0 && length > 1) return real(fd, buffer, offset, Math.ceil(length / 2));
      return real(fd, buffer, offset, length);
    };
    const log = await RecordLog.open(dir, { compactAtBytes: 8 * 1024 });
    try {
      for (let i = 0; i < 40; i++) log.append(record(`spot-${i % 7}`, i));
      await log.appendDurable(record('last', 99));
    } finally {
      (fs as { writeSync: unknown }).writeSync = real;
    }
    assert.ok(shortened > 10);
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6].map((i) => spotIdOf(log, `spot-${i}`)),
      [35, 36, 37, 38, 39, 33, 34],
    );
    assert.equal(spotIdOf(log, 'last'), 99);
    await log.close();
    const again = await RecordLog.open(dir);
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6].map((i) => spotIdOf(again, `spot-${i}`)),
      [35, 36, 37, 38, 39, 33, 34],
    );
    await again.close();
  });

  it('an append the disk refuses halfway after a compaction is cut back, and the lines after it land where the log says', async () => {
    const first = await RecordLog.open(dir);
    first.append(record('kept', 1));
    await first.close();
    // A kill tore the last line: the log is compacted when opened, and written through the new file from then on.
    appendFileSync(join(dir, 'journal.jsonl'), '{"format":1,"sourceId":"torn","gal');
    const log = await RecordLog.open(dir);
    const fs = require('node:fs') as typeof import('node:fs');
    const real = fs.writeSync;
    // The disk takes half the line, then is full.
    (fs as { writeSync: unknown }).writeSync = (fd: number, buffer: Buffer, offset = 0, length = buffer.length - offset, position?: number | null) => {
      (fs as { writeSync: unknown }).writeSync = real;
      real(fd, buffer, offset, Math.ceil(length / 2), position);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    assert.throws(() => log.append(record('refused', 2)), /ENOSPC/);
    log.append(record('after', 3));
    assert.equal(spotIdOf(log, 'after'), 3, 'read back in this run');
    assert.equal(spotIdOf(log, 'kept'), 1);
    await log.close();
    assert.doesNotMatch(readFileSync(join(dir, 'journal.jsonl'), 'latin1'), /\0/, 'no hole in the log');
    const again = await RecordLog.open(dir);
    assert.deepEqual([spotIdOf(again, 'kept'), spotIdOf(again, 'refused'), spotIdOf(again, 'after')], [1, undefined, 3]);
    await again.close();
  });

  it('NUL bytes a power cut left where an unsynced line was do not make the next line damage', async () => {
    const log = await RecordLog.open(dir);
    log.append(record('before', 1));
    await log.close();
    appendFileSync(join(dir, 'journal.jsonl'), Buffer.concat([Buffer.alloc(300), Buffer.from(`${JSON.stringify(record('after', 2))}\n`)]));
    const again = await RecordLog.open(dir);
    assert.equal(spotIdOf(again, 'before'), 1);
    assert.equal(spotIdOf(again, 'after'), 2);
    await again.close();
  });

  it('a compaction that fails during a run does not fail the append that set it off, and is tried again later', async () => {
    const fs = require('node:fs') as typeof import('node:fs');
    const real = fs.renameSync;
    let refused = 0;
    (fs as { renameSync: unknown }).renameSync = () => {
      refused++;
      throw Object.assign(new Error('ENOSPC: no space left on device, rename'), { code: 'ENOSPC' });
    };
    const log = await RecordLog.open(dir, { compactAtBytes: 4 * 1024 });
    try {
      for (let i = 0; i < 100; i++) log.append(record('one', i));
    } finally {
      (fs as { renameSync: unknown }).renameSync = real;
    }
    assert.ok(refused >= 1 && refused < 10, `tried ${refused} times, backing off`);
    assert.equal(spotIdOf(log, 'one'), 99);
    for (let i = 100; i < 400; i++) log.append(record('one', i));
    assert.ok(statSync(log.file).size < 64 * 1024, 'compacted once the disk took it');
    assert.equal(spotIdOf(log, 'one'), 399);
    await log.close();
  });

  it('a line that does not read is no record when it names no source id, and damage of its spot when it does', async () => {
    const log = await RecordLog.open(dir);
    log.append(record('kept', 1));
    log.append(record('damaged', 2));
    await log.close();
    appendFileSync(join(dir, 'journal.jsonl'), `\u0000\u0000\u0000\n{"format":1,"sourceId":"damaged","galleries":{"fld_1_3":\n`);
    const again = await RecordLog.open(dir);
    assert.equal(spotIdOf(again, 'kept'), 1);
    assert.match(again.line('damaged') ?? '', /^\{"format":1,"sourceId":"damaged","galleries":\{"fld_1_3":$/);
    await again.close();
  });
  it('plain appends made together go out in one write, each resolving once its line is written', async () => {
    const writes = countWriteCalls();
    const log = await RecordLog.open(dir);
    try {
      const appends = [log.appendSoon(record('a', 1)), log.appendSoon(record('b', 2)), log.appendSoon(record('a', 3))];
      assert.deepEqual(writes.lengths, [], 'nothing written yet');
      const written = await Promise.all(appends.map((append) => append.then(() => readFileSync(log.file, 'utf8'))));
      assert.equal(writes.lengths.length, 1, 'one write call for the three lines');
      for (const text of written) assert.equal(text.split('\n').filter(Boolean).length, 3, 'each append resolved with its line in the file');
      assert.deepEqual([spotIdOf(log, 'a'), spotIdOf(log, 'b')], [3, 2], 'the later line of a spot is its record');
    } finally {
      writes.restore();
    }
    await log.close();
  });

  it('reading spots between plain appends (a run opening its next spots) leaves them to one write, and reads a waiting line as it will be written', async () => {
    // A run opens each next spot while the lines of the spots just done wait: every open once
    // wrote them, so each spot's line went out in a write call of its own (bench (a)).
    const writes = countWriteCalls();
    const log = await RecordLog.open(dir);
    try {
      const appends: Array<Promise<void>> = [];
      for (let spot = 0; spot < 5; spot++) {
        assert.equal(log.line(`next-${spot}`), undefined, 'a spot with no line yet');
        appends.push(log.appendSoon(record(`done-${spot}`, spot + 1)));
      }
      assert.equal(spotIdOf(log, 'done-3'), 4, 'a waiting line is read as it will be written');
      assert.deepEqual(writes.lengths, [], 'nothing written while the spots were opened');
      await Promise.all(appends);
      assert.equal(writes.lengths.length, 1, 'the five lines in one write call');
      assert.deepEqual(
        [0, 1, 2, 3, 4].map((spot) => spotIdOf(log, `done-${spot}`)),
        [1, 2, 3, 4, 5],
      );
    } finally {
      writes.restore();
    }
    await log.close();
    const again = await RecordLog.open(dir);
    assert.equal(spotIdOf(again, 'done-4'), 5);
    await again.close();
  });

  it("plain appends beyond one write's share go out at once, and every one of them resolves", async () => {
    const writes = countWriteCalls();
    const log = await RecordLog.open(dir);
    const appends = Array.from({ length: 700 }, (_, spot) => log.appendSoon(record(`many-${spot}`, spot + 1)));
    try {
      await Promise.all(appends);
    } finally {
      writes.restore();
    }
    assert.deepEqual(writes.lengths, [256, 256, 188], 'at most 256 lines a write');
    assert.deepEqual(
      [0, 255, 256, 699].map((spot) => spotIdOf(log, `many-${spot}`)),
      [1, 256, 257, 700],
    );
    await log.close();
    assert.equal(readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).length, 700);
  });

  it('reads, plain appends and durable appends see the lines appended before them, in order', async () => {
    const log = await RecordLog.open(dir);
    const soon = log.appendSoon(record('x', 1));
    assert.equal(spotIdOf(log, 'x'), 1, 'a read sees a line still waiting for its write');
    void log.appendSoon(record('y', 1));
    log.append(record('y', 2));
    const pending = log.appendSoon(record('z', 1));
    await log.appendDurable(record('z', 2));
    await Promise.all([soon, pending]);
    assert.deepEqual([spotIdOf(log, 'y'), spotIdOf(log, 'z')], [2, 2]);
    const closing = log.appendSoon(record('w', 7));
    await log.close();
    await closing;
    const again = await RecordLog.open(dir);
    assert.deepEqual(
      ['x', 'y', 'z', 'w'].map((id) => spotIdOf(again, id)),
      [1, 2, 2, 7],
      'close writes what is pending',
    );
    await again.close();
  });

  it('a write of a turn the disk refuses fails each of its appends and leaves no part of them in the log', async () => {
    const log = await RecordLog.open(dir);
    log.append(record('kept', 1));
    const fs = require('node:fs') as typeof import('node:fs');
    const real = fs.writeSync;
    (fs as { writeSync: unknown }).writeSync = (fd: number, buffer: Buffer, offset = 0, length = buffer.length - offset, position?: number | null) => {
      (fs as { writeSync: unknown }).writeSync = real;
      real(fd, buffer, offset, Math.ceil(length / 2), position);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    const outcomes = await Promise.allSettled([log.appendSoon(record('one', 2)), log.appendSoon(record('two', 3))]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['rejected', 'rejected'],
    );
    assert.match(String((outcomes[0] as PromiseRejectedResult).reason), /ENOSPC/);
    assert.deepEqual([spotIdOf(log, 'kept'), spotIdOf(log, 'one'), spotIdOf(log, 'two')], [1, undefined, undefined]);
    await log.appendSoon(record('after', 4));
    assert.equal(spotIdOf(log, 'after'), 4);
    await log.close();
    assert.equal(readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).length, 2, 'whole lines only');
  });

  it('after a write the disk takes in part and a cut-back that fails, later appends fail too, and the next open keeps every whole line', async () => {
    const log = await RecordLog.open(dir);
    log.append(record('kept', 1));
    const fs = require('node:fs') as typeof import('node:fs');
    const realWrite = fs.writeSync;
    const realTruncate = fs.ftruncateSync;
    (fs as { writeSync: unknown }).writeSync = (fd: number, buffer: Buffer, offset = 0, length = buffer.length - offset, position?: number | null) => {
      (fs as { writeSync: unknown }).writeSync = realWrite;
      realWrite(fd, buffer, offset, Math.ceil(length / 2), position);
      throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    };
    (fs as { ftruncateSync: unknown }).ftruncateSync = () => {
      (fs as { ftruncateSync: unknown }).ftruncateSync = realTruncate;
      throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' });
    };
    try {
      await assert.rejects(log.appendSoon(record('torn', 2)), /EIO/);
      // The torn half stays in the file: a line appended after it would be indexed where it is
      // not, and read back as damage of its spot after the next open.
      await assert.rejects(log.appendSoon(record('after', 3)), /EIO/);
    } finally {
      (fs as { writeSync: unknown }).writeSync = realWrite;
      (fs as { ftruncateSync: unknown }).ftruncateSync = realTruncate;
    }
    await log.close();
    const again = await RecordLog.open(dir);
    assert.deepEqual([spotIdOf(again, 'kept'), spotIdOf(again, 'torn'), spotIdOf(again, 'after')], [1, undefined, undefined]);
    await again.close();
  });
});
