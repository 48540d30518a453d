// The records of spots without galleries ("this exact text was imported as spot N"), kept as one
// JSON line each in a single append-only file per account instead of a file per spot: creating
// and renaming a file per document cost more than the import itself in a run over thousands of
// documents (tens of microseconds each on a quiet disk, milliseconds on a busy one), where an
// append costs a few. Such a record never holds upload state: losing it (a power cut, a torn last
// line after a kill) costs one more upsert, so nothing here is fsynced and a line that does not
// parse is taken as no record. A spot whose record has galleries is written to its own file
// (journal.ts), which wins over any line here (see MediaJournal.open).
import { closeSync, openSync, promises as fs, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomicFile';
import { spotJournalSchema, type SpotJournalRecord } from './journalRecord';

/** The log's name in the account folder. */
export const PLAIN_LOG_NAME = 'imported.jsonl';

/** A log with this many more lines than spots is rewritten with one line per spot when a run opens it. */
const COMPACT_SLACK = 4096;

export class PlainRecordLog {
  readonly file: string;
  /**
   * Where the last line per source id starts (it runs to the next newline): read back (and
   * checked) only when that spot is opened, so 100,000 records cost a number each in memory, not
   * a line (a small integer kept in the map itself, not an object per record).
   */
  private readonly lines = new Map<string, number>();
  /** The log's length: where the next line goes. */
  private size = 0;
  private fd?: number;

  constructor(accountDir: string) {
    this.file = join(accountDir, PLAIN_LOG_NAME);
  }

  /** Reads the log (the run holds the account's lock, so no other process appends meanwhile). */
  async load(): Promise<void> {
    let data: Buffer;
    try {
      data = await fs.readFile(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    let count = 0;
    for (let at = 0; at < data.length; ) {
      const end = data.indexOf(10, at);
      // A last line without its newline was torn by a kill: no record, and the next line starts afresh.
      if (end < 0) break;
      count++;
      const sourceId = sourceIdOfLine(data.toString('utf8', at, end));
      if (sourceId !== undefined) this.lines.set(sourceId, at);
      at = end + 1;
    }
    this.size = data.length;
    if (data.length > 0 && data[data.length - 1] !== 10) await this.compact(data);
    else if (count > this.lines.size + COMPACT_SLACK) await this.compact(data);
  }

  /** The record last appended for this source id, or undefined (none, or a line that does not read). */
  get(sourceId: string): SpotJournalRecord | undefined {
    const at = this.lines.get(sourceId);
    if (at === undefined) return undefined;
    try {
      const checked = spotJournalSchema.safeParse(JSON.parse(this.read(at)));
      return checked.success && checked.data.sourceId === sourceId && Object.keys(checked.data.galleries).length === 0 ? checked.data : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Appends the record (of a spot without galleries) on this thread: one write call, no fsync.
   * The line ends with its newline, so a line torn by a kill is never joined to the next one.
   */
  append(record: SpotJournalRecord): void {
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    this.fd ??= openSync(this.file, 'a+');
    writeSync(this.fd, line);
    this.lines.set(record.sourceId, this.size);
    this.size += line.length;
  }

  /** The line starting at `at`, without its newline (every line in the map has one). */
  private read(at: number): string {
    this.fd ??= openSync(this.file, 'a+');
    const chunks: Buffer[] = [];
    for (let from = at; ; ) {
      const chunk = Buffer.alloc(READ_CHUNK);
      const got = readSync(this.fd, chunk, 0, READ_CHUNK, from);
      const end = chunk.subarray(0, got).indexOf(10);
      chunks.push(chunk.subarray(0, end < 0 ? got : end));
      if (end >= 0 || got === 0) break;
      from += got;
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** One line per spot (the last of each), replacing the log atomically: a crash leaves the old log or the new. */
  private async compact(data: Buffer): Promise<void> {
    const places = [...this.lines.entries()];
    // Each line with its newline (every line in the map has one).
    const lineAt = (at: number) => data.subarray(at, data.indexOf(10, at) + 1);
    const kept = Buffer.concat(places.map(([, at]) => lineAt(at)));
    await writeFileAtomic(this.file, kept, { syncFolder: false });
    let to = 0;
    for (const [sourceId, at] of places) {
      this.lines.set(sourceId, to);
      to += lineAt(at).length;
    }
    this.size = kept.length;
  }
}

/** Bytes read at a time when a line is read back (records of spots without galleries are short). */
const READ_CHUNK = 1024;

/** The source id of a line (the rest is checked when that spot is opened); undefined for a torn line. */
function sourceIdOfLine(line: string): string | undefined {
  try {
    const value = JSON.parse(line) as { sourceId?: unknown };
    return typeof value?.sourceId === 'string' ? value.sourceId : undefined;
  } catch {
    return undefined;
  }
}
