// The journal of an unfinished document import: one JSON line per document the service has
// confirmed, appended as the confirmations arrive. A second run of the same import reads it and
// skips every document whose file and content (SHA-256) are unchanged, so nothing is sent twice;
// a run that ends with every document imported deletes it. Lines are only ever appended whole
// (a torn last line from a crash is ignored on reading), so Ctrl-C leaves it consistent.
// One journal per target (base URL, API version, client), in .spot-import/ of the current folder.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { PendingGallery } from '../../core';

export interface JournalTarget {
  /** The service: its base URL, or the built-in sandbox's data folder (its port changes every run). */
  service: string;
  apiVersion: string;
  clientId: string;
}

export interface JournalEntry {
  file: string;
  sha256: string;
  sourceId: string;
  spotId: number;
  pendingGalleries: PendingGallery[];
}

const HEADER = 'spot-import document journal';
const FLUSH_EVERY_MS = 200;
const FLUSH_EVERY_LINES = 256;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class ImportJournal {
  private pending: string[] = [];
  private writing: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private handle?: fs.FileHandle;
  private recordedNow = 0;

  private constructor(
    readonly file: string,
    private readonly target: JournalTarget,
    /** What the earlier run recorded: only these are looked up, each document being seen once per run. */
    private readonly done: Map<string, JournalEntry>,
    /** False when there is no journal yet (or an unusable one): the first write starts a new file. */
    private readonly resuming: boolean,
  ) {}

  /** Opens the journal for this target, reading what an earlier unfinished run recorded. */
  static async open(dir: string, target: JournalTarget): Promise<ImportJournal> {
    const key = sha256(JSON.stringify([target.service, target.apiVersion, target.clientId])).slice(0, 12);
    const file = join(dir, `import-${key}.jsonl`);
    const earlier = await readEntries(file, target);
    return new ImportJournal(file, target, earlier ?? new Map(), earlier !== undefined);
  }

  /** Documents recorded by the earlier run. */
  get recordedBefore(): number {
    return this.done.size;
  }

  /** Documents the journal now records: the earlier run's and this run's (a document imported again counts once). */
  get recorded(): number {
    return this.done.size + this.recordedNow;
  }

  /** The entry for this file when its content is unchanged since it was imported. */
  find(file: string, hash: string): JournalEntry | undefined {
    const entry = this.done.get(file);
    return entry?.sha256 === hash ? entry : undefined;
  }

  /** Appends a confirmed import. Not kept in memory: 100,000 documents must not mean 100,000 entries held. */
  record(entry: JournalEntry): void {
    this.done.delete(entry.file); // changed since the earlier run: its new line supersedes the old one
    this.recordedNow++;
    this.pending.push(JSON.stringify(entry));
    if (this.pending.length >= FLUSH_EVERY_LINES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_EVERY_MS);
  }

  /** Writes what is pending and closes the file; the journal stays for a second run. */
  async close(): Promise<void> {
    this.flush();
    await this.writing;
    await this.handle?.close();
    this.handle = undefined;
  }

  /** Every document is imported: nothing is left for a second run. */
  async remove(): Promise<void> {
    await this.close();
    await fs.rm(this.file, { force: true });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const lines = this.pending;
    this.pending = [];
    this.writing = this.writing.then(async () => {
      if (!this.handle) {
        await fs.mkdir(join(this.file, '..'), { recursive: true });
        // The folder holds only run state: keep it out of the repository.
        await fs.writeFile(join(this.file, '..', '.gitignore'), '*\n').catch(() => undefined);
        this.handle = await fs.open(this.file, this.resuming ? 'a' : 'w');
        if (!this.resuming) await this.handle.write(JSON.stringify({ journal: HEADER, version: 1, target: this.target }) + '\n');
      }
      await this.handle.write(lines.join('\n') + '\n');
    });
  }
}

/** The entries of an earlier run's journal; undefined when there is none for this target. */
async function readEntries(file: string, target: JournalTarget): Promise<Map<string, JournalEntry> | undefined> {
  const done = new Map<string, JournalEntry>();
  if (!(await exists(file))) return undefined;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let first = true;
  for await (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a line torn by a crash: that document is simply sent again
    }
    if (first) {
      first = false;
      const header = value as { journal?: string; target?: JournalTarget };
      if (header.journal !== HEADER || JSON.stringify(header.target) !== JSON.stringify(target)) return undefined;
      continue;
    }
    const entry = value as JournalEntry;
    if (typeof entry.file === 'string' && typeof entry.sha256 === 'string' && typeof entry.spotId === 'number') done.set(entry.file, entry);
  }
  return first ? undefined : done;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
