// Writes the --data directory so that what the sandbox acknowledges is on disk first. Each change
// is one JSON line appended to the journal; a request is answered only after its line (and every
// line before it) has been written and fsynced. Changes that arrive while a write is under way
// wait and go out together in the next write: one fsync for many requests (group commit).
//
// When the journal outgrows the snapshot, the next write is a new snapshot instead: state.json
// is replaced atomically (the core's writeFileAtomic: temp file, fsync, rename) with the next
// generation number, the directory is fsynced, and an empty journal of that generation takes
// over. A crash at any point leaves a snapshot and the journal of its own generation, so replay
// never mixes them.
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { syncFolder, writeFileAtomic } from '../core/files/atomicFile';
import { journalName, snapshotText, STATE_FILE, staleFiles } from './persistence';
import type { StoreChange, StoreSnapshot } from './store';

// A folder that cannot be fsynced fails the write: nothing is acknowledged that is not durable.
const DURABLE = { strict: true };

// A journal shorter than this is never worth a snapshot; above it, one once it outgrows the last.
const MIN_COMPACT_BYTES = 8 * 1024 * 1024;

/** A change that could not be saved: the requests it covers are answered 500, never acknowledged. */
export class SaveError extends Error {
  constructor(cause: unknown) {
    super(`could not save the sandbox data (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
}

interface Waiting {
  /** The change as a JSON line ('' for a barrier that only waits). */
  line: string;
  /** The change put a new file into the media directory: sync the directory before the line. */
  syncMedia: boolean;
  resolve(): void;
  reject(error: SaveError): void;
}

export interface JournalOptions {
  dataDir: string;
  mediaDir: string;
  /** Generation of the state that was loaded. */
  generation: number;
  /** The whole current state, for snapshots. */
  snapshot: () => StoreSnapshot;
  onError: (error: SaveError) => void;
}

export class Journal {
  private readonly queue: Waiting[] = [];
  private running: Promise<void> | undefined;
  private handle: FileHandle | undefined;
  private generation: number;
  private journalBytes = 0;
  private snapshotBytes = 0;
  // Set after a failed write: the journal may end in a torn line, so the next write is a snapshot.
  private needsSnapshot = true;
  private closed = false;

  private constructor(private readonly options: JournalOptions) {
    this.generation = options.generation;
  }

  /**
   * Starts with a snapshot of the loaded state (snapshot plus replayed journal) and an empty
   * journal, then removes what earlier runs left behind.
   */
  static async open(options: JournalOptions): Promise<Journal> {
    const journal = new Journal(options);
    try {
      await journal.writeSnapshot();
    } catch (error) {
      await journal.handle?.close();
      throw error;
    }
    for (const name of await staleFiles(options.dataDir, journal.generation)) await fs.rm(join(options.dataDir, name), { force: true });
    return journal;
  }

  /**
   * Resolves once the change is on disk, rejects with a SaveError when it could not be written.
   * The line is made now, so it holds the records as they are at this moment.
   */
  commit(change: StoreChange, options: { syncMedia?: boolean } = {}): Promise<void> {
    // A handler that outlived close() has nobody left to answer; its change is not written.
    if (this.closed) return Promise.reject(new SaveError(new Error('the sandbox is closed')));
    let line: string;
    try {
      line = JSON.stringify(change);
    } catch (error) {
      const failure = new SaveError(error);
      this.options.onError(failure);
      return Promise.reject(failure);
    }
    return this.enqueue(line, options.syncMedia ?? false);
  }

  /** Resolves once every change committed so far has been written (or has failed). */
  settled(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return this.enqueue('', false).catch(() => undefined);
  }

  /** Writes what is pending, then everything as one snapshot; the journal file goes away. */
  async close(): Promise<void> {
    while (this.running) await this.running;
    this.closed = true;
    try {
      await this.writeSnapshot();
      await this.handle?.close();
      this.handle = undefined;
      await fs.rm(join(this.options.dataDir, journalName(this.generation)), { force: true });
    } catch (error) {
      this.options.onError(new SaveError(error));
    } finally {
      await this.handle?.close();
    }
  }

  private enqueue(line: string, syncMedia: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ line, syncMedia, resolve, reject });
      // setImmediate rather than at once: requests whose data arrived in the same turn of the
      // event loop join this write instead of each waiting for a fsync of their own.
      this.running ??= new Promise((done) => setImmediate(() => this.run().then(done)));
    });
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        await this.write(batch);
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        this.needsSnapshot = true;
        const failure = new SaveError(error);
        this.options.onError(failure);
        for (const waiting of batch) waiting.reject(failure);
      }
    }
    this.running = undefined;
  }

  private async write(batch: Waiting[]): Promise<void> {
    if (batch.some((waiting) => waiting.syncMedia)) await syncFolder(this.options.mediaDir, DURABLE);
    const lines = batch.filter((waiting) => waiting.line !== '');
    if (lines.length === 0) return;
    const text = lines.map((waiting) => `${waiting.line}\n`).join('');
    const bytes = Buffer.byteLength(text);
    if (this.needsSnapshot || this.journalBytes + bytes > Math.max(MIN_COMPACT_BYTES, this.snapshotBytes)) {
      // The snapshot is taken now, after every change in the batch was made: it covers them all.
      await this.writeSnapshot();
      return;
    }
    await this.handle!.writeFile(text, 'utf8');
    await this.handle!.datasync();
    this.journalBytes += bytes;
  }

  private async writeSnapshot(): Promise<void> {
    const { dataDir } = this.options;
    const generation = this.generation + 1;
    const text = snapshotText(this.options.snapshot(), generation);
    const journalPath = join(dataDir, journalName(generation));
    const handle = await fs.open(journalPath, 'w');
    try {
      // The folder is fsynced below, once the new journal is in use.
      await writeFileAtomic(join(dataDir, STATE_FILE), text, { syncFolder: false });
    } catch (error) {
      await handle.close();
      await fs.rm(journalPath, { force: true });
      throw error;
    }
    // From the rename on, state.json names the new generation: switch to its journal at once,
    // even if what follows fails (needsSnapshot then makes the next write a snapshot again).
    const previous = { handle: this.handle, generation: this.generation };
    this.handle = handle;
    this.generation = generation;
    this.journalBytes = 0;
    this.snapshotBytes = Buffer.byteLength(text);
    await syncFolder(dataDir, DURABLE); // the rename and the new journal's name are durable
    this.needsSnapshot = false;
    await previous.handle?.close();
    await fs.rm(join(dataDir, journalName(previous.generation)), { force: true });
  }
}
