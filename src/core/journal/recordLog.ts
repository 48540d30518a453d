// The journal's records, one JSON line per write, in a single append-only file per account
// (`journal.jsonl`): the last line of a source id is its record. A file per spot, written
// atomically (temp file, fsync, rename, folder fsync) at every step, cost more processor time than
// the uploads it protected; an append is one write call.
//
// Two kinds of append. A durable one (announcing an upload, on disk before the upload's final
// piece goes out: exactly-once depends on it)
// resolves only after an fdatasync that started after its write; appends of several spots that
// arrive while one fdatasync runs share the next one (group commit). A plain append (steps that
// are safe to repeat) is not synced: a power cut may lose it, and the spot's earlier durable line
// is then its record, so the next run repeats those steps. Plain appends made within a few
// milliseconds of each other (spots finishing one after another) go out in one write call
// (appendSoon): the write is the larger part of a spot's journal work, and each append's promise
// resolves only once its line is written, so a spot is never reported done before its record is
// in the file. Meanwhile a read of such a spot's line is answered from memory; a durable append
// (and a look-up of a gallery's owners, which needs the written index) writes the waiting lines
// first, so the order of lines is the order of appends. fdatasync flushes everything written
// before it, so a durable line is never torn; what a kill or power cut can leave is a torn last
// line (no newline: cut off when the log is opened) or a line that does not read (taken as no
// record when it names no source id, reported as damage of that spot when it does).
//
// One instance per account folder and process (journal.ts shares it with the account's run
// lock), so two runs in one VS Code window append to one view of the file; the lock keeps other
// processes out.
import { closeSync, fdatasync, fstatSync, fsyncSync, ftruncateSync, openSync, promises as fs, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { syncFolder, syncFolderNow } from '../files/atomicFile';
import { fileStateOf, sameFileState, type FileState } from '../files/fileState';
import { JournalError } from './journalErrors';
import type { SpotJournalRecord } from './journalRecord';
import { l10n } from '../text/l10n';

/** The log's name in the account folder. */
export const JOURNAL_LOG_NAME = 'journal.jsonl';

export interface RecordLogOptions {
  /** A log at least this big and `compactFactor` times its live lines is compacted while it is written (default 64 MiB). */
  compactAtBytes?: number;
  /** Default 4: a compaction rewrites the live lines, so it is worth it once most of the log is stale. */
  compactFactor?: number;
}

/** When the log is opened, more stale lines than this get it compacted. */
const COMPACT_SLACK_LINES = 4096;
const COMPACT_AT_BYTES = 64 * 1024 * 1024;
const NO_OWNERS: ReadonlySet<string> = new Set();
/**
 * How long plain appends wait for company: one write call per line is a noticeable part of a bulk
 * import's processor time, and a spot reported done a few milliseconds later is not noticed.
 */
const PLAIN_APPEND_WINDOW_MS = 10;
const PLAIN_APPEND_MAX_LINES = 256;

export class RecordLog {
  /** Reads the account's log (its run lock held, so no other process appends meanwhile). */
  static async open(accountDir: string, options: RecordLogOptions = {}): Promise<RecordLog> {
    const log = new RecordLog(accountDir, options);
    await log.load();
    return log;
  }

  readonly file: string;
  /**
   * Where the last line of each source id starts, and its length with the newline: read back (and
   * checked) only when that spot is opened, so 100,000 records cost two numbers each in memory.
   * One map from the source id to its slot in two arrays outside the heap: a second map would
   * double what the index holds in the heap.
   */
  private readonly slots = new Map<string, number>();
  private starts = new Float64Array(1024);
  private lengths = new Float64Array(1024);
  /** The bytes of those last lines: what a compaction keeps. */
  private liveBytes = 0;
  /**
   * The source ids whose last line names each gallery (more than one only in logs written before a
   * gallery was refused to a second spot), and the galleries each last line names.
   */
  private readonly galleryOwners = new Map<number, Set<string>>();
  private readonly galleriesOf = new Map<string, readonly number[]>();
  /** The log's length: where the next line goes. */
  private size = 0;
  /** Its lines, stale ones included: what tells when opening it should compact it. */
  private lineCount = 0;
  private fd?: number;
  /** The file's name is on disk (its folder was fsynced since this process opened it). */
  private nameDurable = false;
  /** Lines appended with appendSoon, not written yet, and the promise they share. */
  private pending: PendingLine[] = [];
  /**
   * The last of those lines for each source id: an index of `pending`, since every spot a run
   * opens asks for its line (no scan of up to 256 lines each time).
   */
  private pendingOf = new Map<string, PendingLine>();
  private batch?: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void };
  private syncing?: Promise<void>;
  private nextSync?: Promise<void>;
  private compactAtBytes: number;
  private readonly compactFactor: number;
  /** The file as park() left it. */
  private parkedAs?: FileState;
  /** The error of a write whose part on disk could not be cut back (see write). */
  private tornBy?: unknown;

  /** The options it was opened with, as they were then (the caller's object may change). */
  private readonly options: Readonly<RecordLogOptions>;

  private constructor(
    readonly accountDir: string,
    options: RecordLogOptions,
  ) {
    this.options = { compactAtBytes: options.compactAtBytes, compactFactor: options.compactFactor };
    this.file = join(accountDir, JOURNAL_LOG_NAME);
    this.compactAtBytes = options.compactAtBytes ?? COMPACT_AT_BYTES;
    this.compactFactor = options.compactFactor ?? 4;
  }

  /** The last line recorded for this source id, without its newline; undefined when there is none. */
  line(sourceId: string): string | undefined {
    // A run opens its next spots while the lines of the spots just done wait for their write:
    // read from memory, so that write stays one call for all of them rather than one per open.
    const waiting = this.pendingOf.get(sourceId);
    if (waiting) return waiting.text.slice(0, -1);
    const slot = this.slots.get(sourceId);
    if (slot === undefined) return undefined;
    const at = this.starts[slot];
    const length = this.lengths[slot] - 1;
    const buffer = Buffer.alloc(length);
    for (let got = 0; got < length;) {
      const read = readSync(this.open(), buffer, got, length - got, at + got);
      if (read === 0) break;
      got += read;
    }
    return buffer.toString('utf8');
  }

  /** The source ids whose last line names this gallery. */
  ownersOfGallery(galleryId: number): ReadonlySet<string> {
    this.writePending();
    return this.galleryOwners.get(galleryId) ?? NO_OWNERS;
  }

  /** Appends the record on this thread, one write call, without waiting for the disk. */
  append(record: SpotJournalRecord): void {
    this.writePending();
    this.write([pendingLine(record)]);
  }

  /**
   * Appends the record in one write with the other plain appends of the next few milliseconds
   * (PLAIN_APPEND_WINDOW_MS, at most PLAIN_APPEND_MAX_LINES lines), without waiting for the disk;
   * resolves once that write is done, rejects when it failed (the record is then not in the log).
   */
  appendSoon(record: SpotJournalRecord): Promise<void> {
    const line = pendingLine(record);
    this.pending.push(line);
    this.pendingOf.set(line.sourceId, line);
    let batch = this.batch;
    if (!batch) {
      let settle!: { resolve: () => void; reject: (error: unknown) => void };
      const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      batch = this.batch = { promise, ...settle };
      setTimeout(() => this.writePending(), PLAIN_APPEND_WINDOW_MS);
    }
    if (this.pending.length >= PLAIN_APPEND_MAX_LINES) this.writePending();
    return batch.promise;
  }

  /** Appends the record and resolves once it is on disk. */
  async appendDurable(record: SpotJournalRecord): Promise<void> {
    this.append(record);
    await this.sync();
  }

  /** Closes the file once the writes it waits for are on disk. */
  async close(): Promise<void> {
    this.writePending();
    await this.nextSync?.catch(() => undefined);
    await this.syncing?.catch(() => undefined);
    this.closeFile();
  }

  /**
   * Closes the log and notes its file as it is now, for resume(): this process's next run can
   * then take the log with its index rather than read the file again (about a microsecond a line,
   * paid by every import of a long-lived extension host with a journal of many spots). Called
   * with the run lock still held, so the note is of the file as this process left it. False
   * when it cannot be resumed: the file holds more than the index knows (a cut-back that failed
   * after a failed write left a torn line), or opening it would compact it.
   */
  async park(): Promise<boolean> {
    await this.close();
    const seen = await fileStateNow(this.file).catch(() => undefined);
    // A log with so many stale lines that opening it compacts it is opened anew, so compacted.
    this.parkedAs = seen?.size === this.size && !this.overSlack() ? seen : undefined;
    return this.parkedAs !== undefined;
  }

  /**
   * After park(), with the run lock taken again: whether the file is still the one this process
   * left (sameFileState), so the index holds. What another process does to the log changes it:
   * appends its size, a compaction (a rename) the file, an edit its times. Unlike a document's
   * (sameAsRead), times close to the last write are trusted: nothing rewrites the log in place at
   * its size, and the log was written just before it was parked. Otherwise it is opened anew.
   */
  async resume(): Promise<boolean> {
    const parked = this.parkedAs;
    this.parkedAs = undefined;
    if (!parked) return false;
    const now = await fileStateNow(this.file).catch(() => undefined);
    return now !== undefined && sameFileState(parked, now);
  }

  /** Whether a run asking for `options` may take this log (they are what it was opened with). */
  opensWith(options: RecordLogOptions): boolean {
    return this.options.compactAtBytes === options.compactAtBytes && this.options.compactFactor === options.compactFactor;
  }

  /** So many stale lines that a log being opened is compacted (COMPACT_SLACK_LINES). */
  private overSlack(): boolean {
    return this.lineCount > this.slots.size + COMPACT_SLACK_LINES;
  }

  /** The plain appends waiting so far, written now; their promise settles with the write. */
  private writePending(): void {
    const batch = this.batch;
    if (!batch) return;
    const lines = this.pending;
    this.batch = undefined;
    this.pending = [];
    this.pendingOf = new Map();
    try {
      this.write(lines);
    } catch (error) {
      batch.reject(error);
      return;
    }
    batch.resolve();
  }

  /** Writes whole lines at the end of the log, in one write call, and indexes them. */
  private write(lines: PendingLine[]): void {
    if (this.tornBy !== undefined) throw this.tornBy;
    let text = '';
    for (const line of lines) text += line.text;
    const bytes = Buffer.from(text);
    const fd = this.open();
    try {
      writeAll(fd, bytes);
    } catch (error) {
      // Lines the disk took in part (it filled up) are cut off again: the log stays whole lines.
      try {
        ftruncateSync(fd, this.size);
      } catch {
        // Then the log ends in a torn line, cut off when it is next opened. A line written after
        // it would land where the index does not expect it and read as damage after that open,
        // so every later append of this run fails as this one did.
        this.tornBy = error;
      }
      throw error;
    }
    let at = this.size;
    for (const line of lines) {
      const length = lines.length === 1 ? bytes.length : Buffer.byteLength(line.text);
      this.remember(line.sourceId, at, length, line.galleryIds);
      at += length;
    }
    this.size += bytes.length;
    this.lineCount += lines.length;
    if (this.size >= this.compactAtBytes && this.size > this.compactFactor * this.liveBytes) {
      try {
        this.compact();
      } catch {
        // The lines are written; a log that could not be compacted (a full disk) is only larger.
        // Tried again once it has doubled, not at every append.
        this.compactAtBytes = 2 * this.size;
      }
    }
  }

  private closeFile(): void {
    if (this.fd !== undefined) closeQuietly(this.fd);
    this.fd = undefined;
  }

  private async load(): Promise<void> {
    try {
      await this.read();
    } catch (error) {
      this.closeFile();
      throw new JournalError(
        l10n.t(
          'The journal {0} cannot be read ({1}), so nothing was sent. Check the disk (free space, permissions), then run again.',
          this.file,
          (error as Error).message,
        ),
        this.file,
      );
    }
  }

  private async read(): Promise<void> {
    // Left by a compaction a kill cut short.
    for (const name of await fs.readdir(dirname(this.file)).catch(() => [])) {
      if (name.startsWith(`${JOURNAL_LOG_NAME}.`) && name.endsWith('.compact.tmp')) await fs.rm(join(dirname(this.file), name), { force: true });
    }
    let data: Buffer;
    try {
      data = await fs.readFile(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const lines = new LogLines(data);
    for (let at = 0; at < data.length;) {
      const end = data.indexOf(10, at);
      // A last line without its newline was torn by a kill: no record, and compacted away below.
      if (end < 0) break;
      this.lineCount++;
      // NUL bytes are what some file systems leave of unsynced writes after a power cut: they
      // belong to no line (a line itself never holds one: JSON escapes it).
      let start = at;
      while (start < end && data[start] === 0) start++;
      const named = lines.names(start, end);
      if (named) this.remember(named.sourceId, start, end + 1 - start, named.galleryIds);
      at = end + 1;
    }
    this.size = data.length;
    const torn = data.length > 0 && data[data.length - 1] !== 10;
    if (torn || this.overSlack()) this.compact();
  }

  private remember(sourceId: string, at: number, length: number, galleryIds: readonly number[]): void {
    let slot = this.slots.get(sourceId);
    const previous = slot === undefined ? undefined : this.lengths[slot];
    if (slot === undefined) {
      slot = this.slots.size;
      if (slot === this.starts.length) {
        this.starts = grown(this.starts);
        this.lengths = grown(this.lengths);
      }
      this.slots.set(sourceId, slot);
    }
    this.liveBytes += length - (previous ?? 0);
    this.starts[slot] = at;
    this.lengths[slot] = length;
    // A source id seen for the first time has no galleries to forget (most lines of a large log).
    if (previous === undefined && galleryIds.length === 0) return;
    for (const galleryId of this.galleriesOf.get(sourceId) ?? []) {
      const owners = this.galleryOwners.get(galleryId);
      owners?.delete(sourceId);
      if (owners?.size === 0) this.galleryOwners.delete(galleryId);
    }
    for (const galleryId of galleryIds) {
      const owners = this.galleryOwners.get(galleryId) ?? new Set<string>();
      owners.add(sourceId);
      this.galleryOwners.set(galleryId, owners);
    }
    if (galleryIds.length > 0) this.galleriesOf.set(sourceId, galleryIds);
    else this.galleriesOf.delete(sourceId);
  }

  /** The log, opened for appending: every write goes to its end, wherever a cut-back write left the position. */
  private open(): number {
    return (this.fd ??= openSync(this.file, 'a+'));
  }

  /** Makes every line written so far durable; appends that arrive meanwhile share the next call. */
  private sync(): Promise<void> {
    if (!this.syncing) {
      this.syncing = this.syncOnce().finally(() => (this.syncing = undefined));
      return this.syncing;
    }
    this.nextSync ??= this.syncing
      .catch(() => undefined)
      .then(() => {
        this.nextSync = undefined;
        return this.sync();
      });
    return this.nextSync;
  }

  private async syncOnce(): Promise<void> {
    const fd = this.open();
    await new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
    // A log this process created (or found, possibly created by a run a power cut cut short) is
    // only there after a power cut once its folder's entry is on disk.
    if (!this.nameDurable) {
      await syncFolder(dirname(this.file));
      this.nameDurable = true;
    }
  }

  /**
   * Rewrites the log with one line per source id (the last), on this thread: no append can come
   * in between. The new file is fsynced and renamed over the old one, and the folder fsynced, so
   * a crash leaves the old log or the new one, each holding every durable line's record.
   */
  private compact(): void {
    const temp = `${this.file}.${process.pid}.compact.tmp`;
    const out = openSync(temp, 'w+');
    const starts = new Float64Array(this.starts.length);
    try {
      let to = 0;
      let chunk: Buffer[] = [];
      let chunkBytes = 0;
      const write = () => {
        writeAll(out, Buffer.concat(chunk, chunkBytes));
        chunk = [];
        chunkBytes = 0;
      };
      for (let slot = 0; slot < this.slots.size; slot++) {
        const line = Buffer.alloc(this.lengths[slot]);
        if (readSync(this.open(), line, 0, line.length, this.starts[slot]) !== line.length)
          throw new Error(l10n.t('the journal {0} is shorter than its lines', this.file));
        chunk.push(line);
        chunkBytes += line.length;
        starts[slot] = to;
        to += line.length;
        if (chunkBytes >= 1024 * 1024) write();
      }
      write();
      fsyncSync(out);
      if (fstatSync(out).size !== to)
        throw new Error(l10n.t('the compacted journal {0} came out {1} bytes long instead of {2}', temp, fstatSync(out).size, to));
      renameSync(temp, this.file);
      this.size = to;
      this.lineCount = this.slots.size;
    } catch (error) {
      closeQuietly(out);
      rmSync(temp, { force: true });
      throw error;
    }
    syncFolderNow(dirname(this.file));
    this.nameDurable = true;
    this.starts = starts;
    // Appends reopen the new file in append mode (open()): written through `out`, which has no
    // O_APPEND, a line cut back after a partial write would leave the file position past the cut,
    // and every later line would land elsewhere than the log records.
    closeQuietly(out);
    // The old file is closed once an fdatasync running on it has returned.
    const old = this.fd;
    this.fd = undefined;
    if (old !== undefined) {
      const close = () => closeQuietly(old);
      if (this.syncing) void this.syncing.then(close, close);
      else close();
    }
  }
}

/** A record as a line of the log, made when it is appended (the record may change after). */
interface PendingLine {
  text: string;
  sourceId: string;
  galleryIds: readonly number[];
}

function pendingLine(record: SpotJournalRecord): PendingLine {
  const galleries = Object.values(record.galleries);
  return {
    text: `${JSON.stringify(record)}\n`,
    sourceId: record.sourceId,
    galleryIds: galleries.length === 0 ? NO_GALLERIES : galleries.map((gallery) => gallery.galleryId),
  };
}

/**
 * Stat through a handle opened for it: on NFS an open asks the server (close-to-open), where a
 * stat of the name may be answered from attributes cached for up to a minute, without another
 * machine's appends.
 */
async function fileStateNow(file: string): Promise<FileState> {
  const handle = await fs.open(file, 'r');
  try {
    return fileStateOf(await handle.stat());
  } finally {
    await handle.close();
  }
}

/** The array twice as long, with the same numbers at the start. */
function grown(numbers: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const larger = new Float64Array(numbers.length * 2);
  larger.set(numbers);
  return larger;
}

/** Writes every byte: write(2) may take only part of them (a full disk), and says so only by its count. */
function writeAll(fd: number, buffer: Uint8Array): void {
  for (let done = 0; done < buffer.length;) done += writeSync(fd, buffer, done, buffer.length - done);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed, or its last error reported by the fdatasync before; nothing to do.
  }
}

const NO_GALLERIES: readonly number[] = [];

/**
 * The source id a line belongs to and the galleries it names (the rest is checked when that spot
 * is opened). A line that is not JSON names a source id only if it says `"sourceId":"…"` (damage
 * to that spot's record, reported when it is opened), and no gallery; otherwise it is no record
 * (a write a power cut left half-done). The line is read as the log holds it: its UTF-8.
 */
export function namesOfLine(line: string): { sourceId: string; galleryIds: readonly number[] } | undefined {
  const bytes = Buffer.from(line);
  return new LogLines(bytes).names(0, bytes.length);
}

/**
 * namesOfLine for the lines of the log as it is read when opened, without a string of each line:
 * a bulk import opens the log before its first spot. The lines this module writes of spots without galleries (all of a
 * document-only import) are read from their bytes (plainNames); any other line is decoded and
 * left to namesOfAnyLine. Where a line holds a pattern that sends it to the full parse is found
 * once per place in the log, not once per line, so the read stays linear whether or not the log
 * holds such lines.
 */
export class LogLines {
  /** By pattern: its next place at or after `searchedFrom` (Infinity: none). */
  private readonly nextAt = PLAIN_LINE_REFUSES.map(() => -1);
  private readonly searchedFrom = PLAIN_LINE_REFUSES.map(() => -1);

  constructor(private readonly data: Buffer) {}

  /** What the line from `start` to `end` (its newline excluded) names: namesOfLine of its text. */
  names(start: number, end: number): { sourceId: string; galleryIds: readonly number[] } | undefined {
    return this.plainNames(start, end) ?? namesOfAnyLine(this.data.toString('utf8', start, end));
  }

  /**
   * The answer of namesOfAnyLine without parsing the line, for a line of a spot without galleries:
   * JSON.stringify of a record begins `{"format":N,"service":"…","clientId":"…","sourceId":"…"`,
   * whether it was made new or read back (the schema's order). Such a line names the source id at
   * the top level exactly once, and no gallery when it holds no `"galleryId"` (a gallery's entry
   * always does; without \u escapes no member can be spelled another way): the same answer as
   * parsing it whole, valid or not. In UTF-8 no byte of a character beyond ASCII is a quote, a
   * backslash or below 32, so the strings end where they end in the decoded line. Anything else
   * (an escape or control character in those strings, another order, a gallery, a second
   * sourceId) is left to the full parse: undefined.
   */
  private plainNames(start: number, end: number): { sourceId: string; galleryIds: readonly number[] } | undefined {
    const data = this.data;
    if (!bytesAt(data, FORMAT_MEMBER, start, end) || this.holds(GALLERY_ID, start, end) || this.holds(ESCAPE, start, end)) return undefined;
    let at = start + FORMAT_MEMBER.length;
    while (at < end && data[at] >= 48 && data[at] <= 57) at++;
    if (at === start + FORMAT_MEMBER.length) return undefined;
    for (const key of [SERVICE_MEMBER, CLIENT_ID_MEMBER]) {
      if (!bytesAt(data, key, at, end)) return undefined;
      at = endOfPlainBytes(data, at + key.length, end);
      if (at < 0) return undefined;
    }
    if (!bytesAt(data, SOURCE_ID_MEMBER, at, end)) return undefined;
    const idStart = at + SOURCE_ID_MEMBER.length;
    const idEnd = endOfPlainBytes(data, idStart, end);
    // Named once: a second "sourceId" member (a line edited by hand) is the full parse's to judge.
    if (idEnd < 0 || holdsWithin(data, SOURCE_ID_NAME, idEnd, end)) return undefined;
    // A string of its own (toString copies): the source id is kept as long as the log is open.
    return { sourceId: data.toString('utf8', idStart, idEnd - 1), galleryIds: NO_GALLERIES };
  }

  /**
   * Whether the pattern (one of PLAIN_LINE_REFUSES: what most logs never hold) occurs between
   * `from` and `end`. A search per line would cost more than the rest of the line's reading.
   */
  private holds(pattern: number, from: number, end: number): boolean {
    // The lines are read in order, so the next place found for an earlier line still answers
    // for a later one unless it lies before it.
    if (this.nextAt[pattern] < from || from < this.searchedFrom[pattern]) {
      const found = this.data.indexOf(PLAIN_LINE_REFUSES[pattern], from);
      this.nextAt[pattern] = found < 0 ? Infinity : found;
      this.searchedFrom[pattern] = from;
    }
    return this.nextAt[pattern] + PLAIN_LINE_REFUSES[pattern].length <= end;
  }
}

const FORMAT_MEMBER = Buffer.from('{"format":');
const SERVICE_MEMBER = Buffer.from(',"service":"');
const CLIENT_ID_MEMBER = Buffer.from(',"clientId":"');
const SOURCE_ID_MEMBER = Buffer.from(',"sourceId":"');
/** What sends a line to the full parse wherever it stands (see plainNames), by index. */
const PLAIN_LINE_REFUSES = [Buffer.from('"galleryId"'), Buffer.from('\\u')];
const GALLERY_ID = 0;
const ESCAPE = 1;
/** A second source id after the first: in every line of the log, so looked for within the line. */
const SOURCE_ID_NAME = Buffer.from('"sourceId":');

/** Whether `bytes` (starting with a quote) occur between `from` and `end`. */
function holdsWithin(data: Buffer, bytes: Buffer, from: number, end: number): boolean {
  for (let at = from; at < end; at++) if (data[at] === 34 && bytesAt(data, bytes, at, end)) return true;
  return false;
}

function bytesAt(data: Buffer, bytes: Buffer, at: number, end: number): boolean {
  if (at + bytes.length > end) return false;
  for (let i = 0; i < bytes.length; i++) if (data[at + i] !== bytes[i]) return false;
  return true;
}

/** Just past the closing quote of a JSON string starting at `start`, before `end`; -1 when there is none or an escape or control byte comes first. */
function endOfPlainBytes(data: Buffer, start: number, end: number): number {
  for (let at = start; at < end; at++) {
    const byte = data[at];
    if (byte === 34) return at + 1;
    if (byte < 32 || byte === 92) return -1;
  }
  return -1;
}

function namesOfAnyLine(line: string): { sourceId: string; galleryIds: readonly number[] } | undefined {
  try {
    const value = JSON.parse(line) as { sourceId?: unknown; galleries?: unknown };
    if (typeof value?.sourceId !== 'string') return undefined;
    const galleries = value.galleries && typeof value.galleries === 'object' ? Object.values(value.galleries as Record<string, { galleryId?: unknown }>) : [];
    return { sourceId: value.sourceId, galleryIds: galleries.map((gallery) => gallery?.galleryId).filter((id): id is number => typeof id === 'number') };
  } catch {
    const named = /"sourceId":("(?:[^"\\]|\\.)*")/.exec(line);
    if (!named) return undefined;
    try {
      return { sourceId: JSON.parse(named[1]) as string, galleryIds: [] };
    } catch {
      return undefined;
    }
  }
}
