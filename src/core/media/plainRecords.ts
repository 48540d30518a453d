// The records of spots without galleries ("this exact text was imported as spot N"), kept as one
// JSON line each in a single append-only file per account instead of a file per spot: creating
// and renaming a file per document cost more than the import itself in a run over thousands of
// documents (tens of microseconds each on a quiet disk, milliseconds on a busy one), where an
// append costs a few. Such a record never holds upload state: losing it (a power cut, a torn last
// line after a kill) costs one more upsert, so nothing here is fsynced and a line that does not
// parse is taken as no record. A spot whose record has galleries is written to its own file
// (journal.ts), which wins over any line here (see MediaJournal.open).
import { closeSync, openSync, promises as fs, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomicFile';
import { spotJournalSchema, type SpotJournalRecord } from './journalRecord';

/** The log's name in the account folder. */
export const PLAIN_LOG_NAME = 'imported.jsonl';

/** A log with this many more lines than spots is rewritten with one line per spot when a run opens it. */
const COMPACT_SLACK = 4096;

export class PlainRecordLog {
  readonly file: string;
  /** The last line per source id: parsed (and checked) only when that spot is opened. */
  private readonly lines = new Map<string, string>();
  private fd?: number;

  constructor(accountDir: string) {
    this.file = join(accountDir, PLAIN_LOG_NAME);
  }

  /** Reads the log (the run holds the account's lock, so no other process appends meanwhile). */
  async load(): Promise<void> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    let count = 0;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      count++;
      const sourceId = sourceIdOfLine(line);
      if (sourceId !== undefined) this.lines.set(sourceId, line);
    }
    if (count > this.lines.size + COMPACT_SLACK) await this.compact();
  }

  /** The record last appended for this source id, or undefined (none, or a line that does not read). */
  get(sourceId: string): SpotJournalRecord | undefined {
    const line = this.lines.get(sourceId);
    if (line === undefined) return undefined;
    try {
      const checked = spotJournalSchema.safeParse(JSON.parse(line));
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
    const line = JSON.stringify(record);
    this.fd ??= openSync(this.file, 'a');
    writeSync(this.fd, `${line}\n`);
    this.lines.set(record.sourceId, line);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** One line per spot, replacing the log atomically (a crash leaves the old log or the new). */
  private async compact(): Promise<void> {
    const text = [...this.lines.values()].map((line) => `${line}\n`).join('');
    await writeFileAtomic(this.file, text, { syncFolder: false });
  }
}

/** The source id of a line (the rest is checked when that spot is opened); undefined for a torn line. */
function sourceIdOfLine(line: string): string | undefined {
  try {
    const value = JSON.parse(line) as { sourceId?: unknown };
    return typeof value?.sourceId === 'string' ? value.sourceId : undefined;
  } catch {
    return undefined;
  }
}
