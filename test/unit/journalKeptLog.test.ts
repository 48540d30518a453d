import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { runImport } from '../../src/core/import';
import { hashText } from '../../src/core/media/contentKey';
import { RecordLog } from '../../src/core/journal/recordLog';
import type { SpotJournalRecord } from '../../src/core/journal/journalRecord';
import { spot, useCoreWorkspace } from './helpers/coreSetup';

// A run leaves the account's log with its index for the next run of this process: reading a log
// costs about a microsecond a line, paid again by every import of a long-lived extension host. The
// index is taken only while the file is exactly as this process left it; anything another process
// did meanwhile (appends, a compaction's rename, an edit) makes the next run read the file anew.
describe('media journal: the log kept between runs of one process', () => {
  const workspace = useCoreWorkspace('spot-journal-kept-');
  const options = workspace.workflowOptions;

  const writeDocument = (name: string) => {
    const path = join(workspace.dir, `${name}.spot.json`);
    fs.writeFileSync(path, JSON.stringify(spot(name)));
    return path;
  };

  /** Two spots imported: their documents, the log, and its lines (one per spot). */
  async function twoImported(names: [string, string]) {
    const paths = names.map(writeDocument);
    const first = await runImport(
      paths.map((path) => ({ path })),
      options(),
    );
    assert.deepEqual(
      first.spots.map((s) => s.status),
      ['done', 'done'],
    );
    const file = first.spots[0].journalFile!;
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(lines.length, 2);
    return { paths, file, lines };
  }

  /** Counts whole reads of journal.jsonl (how a run opens the log) while `run` runs. */
  async function logReadsDuring<T>(run: () => Promise<T>): Promise<{ result: T; reads: number }> {
    const readFile = fs.promises.readFile;
    let reads = 0;
    fs.promises.readFile = ((file: fs.PathLike | fs.promises.FileHandle, ...rest: unknown[]) => {
      if (typeof file === 'string' && file.endsWith('journal.jsonl')) reads++;
      return (readFile as (...args: unknown[]) => unknown)(file, ...rest);
    }) as typeof readFile;
    try {
      return { result: await run(), reads };
    } finally {
      fs.promises.readFile = readFile;
    }
  }

  it('the next run takes the log as the last one left it, without reading the file again', async () => {
    const paths = ['kept-1', 'kept-2', 'kept-3'].map(writeDocument);
    const first = await logReadsDuring(() =>
      runImport(
        paths.map((path) => ({ path })),
        options(),
      ),
    );
    assert.deepEqual(
      first.result.spots.map((s) => s.status),
      ['done', 'done', 'done'],
    );
    assert.equal(first.reads, 1, 'the first run reads the log');
    const second = await logReadsDuring(() =>
      runImport(
        paths.map((path) => ({ path })),
        options(),
      ),
    );
    assert.deepEqual(
      second.result.spots.map((s) => s.imported),
      ['unchanged', 'unchanged', 'unchanged'],
      'the records were found',
    );
    assert.equal(second.reads, 0, 'the index of the run before was taken');
    assert.equal(workspace.setup.sandbox.counters.imports, 3);
  });

  it('keeps the logs of the last few journal folders only', async () => {
    const path = writeDocument('folders-1');
    const run = (folder: string) => runImport([{ path }], options({ journal: { ...options().journal, dir: join(workspace.dir, folder) } }));
    for (const folder of ['j1', 'j2', 'j3']) assert.equal((await run(folder)).spots[0].status, 'done');
    assert.equal((await logReadsDuring(() => run('j3'))).reads, 0, 'the log of the last folder was kept');
    assert.equal((await logReadsDuring(() => run('j2'))).reads, 0, 'and the one before');
    assert.equal((await logReadsDuring(() => run('j1'))).reads, 1, 'the log of the first folder was given up');
  });

  it('reads the log again when the run asks for other log options', async () => {
    const path = writeDocument('options-1');
    assert.equal((await runImport([{ path }], options())).spots[0].status, 'done');
    const other = await logReadsDuring(() => runImport([{ path }], options({ journal: { ...options().journal, log: { compactAtBytes: 1024 } } })));
    assert.equal(other.reads, 1);
    assert.equal(other.result.spots[0].imported, 'unchanged');
  });

  it('reads the log again after an edit in place that keeps its size (its times changed)', async () => {
    const { paths, file, lines } = await twoImported(['edited-a', 'edited-b']);
    // Past the file system's timestamp tick (a jiffy on kernels before 6.13), as any edit by
    // a person or another run is; then the same bytes in another order, into the same file.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, `${lines.reverse().join('\n')}\n`, 0);
    fs.closeSync(fd);
    const { result, reads } = await logReadsDuring(() =>
      runImport(
        paths.map((path) => ({ path })),
        options(),
      ),
    );
    assert.equal(reads, 1);
    assert.deepEqual(
      result.spots.map((s) => s.imported),
      ['unchanged', 'unchanged'],
      result.spots.map((s) => s.reason).join('; '),
    );
  });

  it('cannot be resumed when the file holds bytes its index does not know (a torn line another writer left)', async () => {
    const dir = fs.mkdtempSync(join(workspace.dir, 'torn-'));
    const log = await RecordLog.open(dir);
    await log.appendDurable({ format: 1, service: 's', clientId: 'c', sourceId: 'torn-1', galleries: {}, updatedAt: '2026-11-27T08:00:00.000Z' });
    fs.appendFileSync(join(dir, 'journal.jsonl'), '{"format":1,"sourceId":"torn');
    assert.equal(await log.park(), false);
    assert.equal(await log.resume(), false);
  });

  it('is read anew when it holds so many stale lines that opening it compacts it', async () => {
    const dir = fs.mkdtempSync(join(workspace.dir, 'stale-'));
    const log = await RecordLog.open(dir);
    const record = { format: 1 as const, service: 's', clientId: 'c', sourceId: 'stale-1', galleries: {}, updatedAt: '2026-11-27T08:00:00.000Z' };
    // More lines of one spot than the slack a log being opened allows (4,096 stale ones).
    for (let line = 0; line < 4200; line++) log.append(record);
    assert.equal(await log.park(), false);
    assert.equal(await log.resume(), false);
  });

  it('can be resumed after compactions while it was written', async () => {
    const dir = fs.mkdtempSync(join(workspace.dir, 'compacted-'));
    const log = await RecordLog.open(dir, { compactAtBytes: 64 * 1024, compactFactor: 2 });
    const record = { format: 1 as const, service: 's', clientId: 'c', sourceId: 'compacted-1', galleries: {}, updatedAt: '2026-11-27T08:00:00.000Z' };
    // Compacted again and again as the lines of one spot pile up: one line each time after.
    for (let line = 0; line < 5000; line++) log.append(record);
    assert.ok(fs.statSync(join(dir, 'journal.jsonl')).size < 64 * 1024 * 2, 'compacted while written');
    assert.equal(await log.park(), true);
    assert.equal(await log.resume(), true);
  });

  it('is taken for the options it was opened with, whatever the caller does to its object later', async () => {
    const options = { compactAtBytes: 1024 * 1024 };
    const log = await RecordLog.open(fs.mkdtempSync(join(workspace.dir, 'options-')), options);
    options.compactAtBytes = 5;
    assert.equal(log.opensWith({ compactAtBytes: 1024 * 1024 }), true);
    assert.equal(log.opensWith({ compactAtBytes: 5 }), false);
    await log.close();
  });

  it('reads the log again when another process appended to it in between', async () => {
    const a = writeDocument('appended-a');
    const b = writeDocument('appended-b');
    const first = await runImport([{ path: a }], options());
    assert.equal(first.spots[0].status, 'done', first.spots[0].reason);
    const file = first.spots[0].journalFile!;
    // What another process's run leaves: a line for b, imported with b's exact text.
    const record = JSON.parse(fs.readFileSync(file, 'utf8').trim().split('\n').pop()!) as SpotJournalRecord;
    const other = await RecordLog.open(dirname(file));
    other.append({ ...record, sourceId: 'appended-b', document: b, finalImport: { ...record.finalImport!, sha256: hashText(fs.readFileSync(b, 'utf8')) } });
    await other.close();
    const { result, reads } = await logReadsDuring(() => runImport([{ path: b }], options()));
    assert.equal(reads, 1);
    assert.equal(result.spots[0].imported, 'unchanged', result.spots[0].reason);
    assert.equal(workspace.setup.sandbox.counters.imports, 1, 'b was not sent: its record was read');
  });

  it('reads the log again when it was replaced by a file of the same size (a compaction elsewhere)', async () => {
    const { paths, file, lines } = await twoImported(['moved-a', 'moved-b']);
    // The same lines in another order, renamed over the log as a compaction does: the same size,
    // every record elsewhere.
    fs.writeFileSync(`${file}.other`, `${lines.reverse().join('\n')}\n`);
    fs.renameSync(`${file}.other`, file);
    const { result, reads } = await logReadsDuring(() =>
      runImport(
        paths.map((path) => ({ path })),
        options(),
      ),
    );
    assert.equal(reads, 1);
    assert.deepEqual(
      result.spots.map((s) => s.imported),
      ['unchanged', 'unchanged'],
      result.spots.map((s) => s.reason).join('; '),
    );
  });
});
