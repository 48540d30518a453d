// The journal: one small JSON file per spot under `<journalDir>/journal/<account>/`, written
// atomically after every step that completes (spots without galleries: one line each in the
// account's append-only log instead, see plainRecords.ts), so a run stopped at any moment (cancel, crash,
// kill, power loss) can be run again and finish the rest. `<account>` hashes the service URL and
// client id: the same source_id on another service or topic is another spot. The journal folder
// holds a `.gitignore` with `*`, so git ignores it by itself. One process at a time works with an
// account's journal (a lock file in its folder); within the process, one run at a time per spot.
import { promises as fs } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ServiceError } from '../api/errors';
import type { FileHandle } from 'node:fs/promises';
import { openFolder, syncOpenFolder, writeFileAtomic } from './atomicFile';
import { JOURNAL_FORMAT, spotJournalSchema, type SpotJournalRecord } from './journalRecord';
import { PlainRecordLog } from './plainRecords';

/** The journal folder's name at a root the caller picks (a workspace folder, the CLI's folder). */
export const JOURNAL_FOLDER_NAME = '.spot-import';

export function defaultJournalDir(root: string): string {
  return join(root, JOURNAL_FOLDER_NAME);
}

export interface JournalAccount {
  /** The service's base URL (without the /api/{version} part). */
  serviceUrl: string;
  clientId: string;
}

/** The journal cannot be used (damaged, another format, locked by another run): nothing was sent. */
export class JournalError extends ServiceError {
  constructor(message: string, readonly file: string) {
    super('configuration', message);
    this.name = 'JournalError';
  }
}

/** Another process works with this account's journal: nothing can be done until it has finished. */
export class JournalLockedError extends JournalError {
  constructor(message: string, file: string) {
    super(message, file);
    this.name = 'JournalLockedError';
  }
}

const GITIGNORE = '# Spot Import journal: work in flight, per machine. Git ignores this folder by itself.\n*\n';

export class MediaJournal {
  readonly accountDir: string;
  private prepared?: Promise<void>;
  /** The account folder, open for the run: every save fsyncs it, and opening it each time costs. */
  private folder?: Promise<FileHandle | undefined>;
  private syncing?: Promise<void>;
  private nextSync?: Promise<void>;
  /**
   * Names of the spot journals that existed when the run took the lock: with the lock held no
   * other process adds one, so a spot not listed has no record and needs no read (a run over
   * thousands of new documents would otherwise spend its time on failed opens).
   */
  private existing?: Set<string>;
  /** Records of spots without galleries (one line each), read when the run takes the lock. */
  private plain?: PlainRecordLog;
  /** Spot journals open in this process, so two runs in one process cannot share a spot either. */
  private static readonly held = new Set<string>();

  constructor(readonly dir: string, readonly account: JournalAccount) {
    const accountKey = createHash('sha256').update(`${account.serviceUrl}\n${account.clientId}`).digest('hex').slice(0, 16);
    this.accountDir = join(dir, 'journal', accountKey);
  }

  /** `<slug of source_id>-<hash>.json`: readable, and distinct for source ids that slug alike. */
  fileFor(sourceId: string): string {
    const slug = sourceId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 40);
    const hash = createHash('sha256').update(sourceId).digest('hex').slice(0, 12);
    return join(this.accountDir, `${slug}-${hash}.json`);
  }

  /**
   * Opens (and locks) the journal of one spot; a fresh record when there is none. Throws a
   * JournalError naming the file when it cannot be read or another run holds it.
   */
  async open(sourceId: string, documentPath: string): Promise<SpotJournal> {
    // A failed start (the journal locked by another process) is tried again on the next open.
    await (this.prepared ??= this.prepare().catch((error: unknown) => {
      this.prepared = undefined;
      throw error;
    }));
    const file = this.fileFor(sourceId);
    if (MediaJournal.held.has(file)) {
      throw new JournalError(`Another import in this window is already working on source_id "${sourceId}"; wait for it to finish.`, file);
    }
    MediaJournal.held.add(file);
    try {
      const known = !this.existing || this.existing.has(basename(file));
      // The spot's own file wins: a spot gets one only once its record has galleries, and from
      // then on every write of it goes there (an empty file, a lost write, counts as none).
      const stored = known ? await readRecord(file, sourceId) : undefined;
      const record = stored ?? this.plain?.get(sourceId) ?? this.fresh(sourceId);

      if (record.sourceId !== sourceId) throw damaged(file, sourceId, `it belongs to source_id "${record.sourceId}"`);
      record.document = documentPath;
      const plain = this.plain;
      return new SpotJournal(file, record, {
        syncFolder: () => this.syncFolder(),
        // From now on this spot may have a file: a later open in this run reads it.
        writingFile: () => this.existing?.add(basename(file)),
        onRelease: () => MediaJournal.held.delete(file),
        plainLog: stored || !plain ? undefined : { file: plain.file, append: (entry) => plain.append(entry) },
      });
    } catch (error) {
      MediaJournal.held.delete(file);
      throw error;
    }
  }

  /** Closes what the run kept open and lets other processes use the journal again. */
  async close(): Promise<void> {
    const folder = this.folder;
    const prepared = this.prepared;
    this.folder = this.prepared = undefined;
    this.plain?.close();
    this.plain = undefined;
    await (await folder)?.close();
    if (await prepared?.then(() => true, () => false)) await releaseRunLock(this.accountDir);
  }

  /**
   * Makes renames in the account folder durable. Saves of several spots that arrive while one
   * fsync runs share the next one (group commit): one fsync started after a rename covers it.
   */
  private syncFolder(): Promise<void> {
    if (!this.syncing) {
      this.syncing = this.syncOnce().finally(() => (this.syncing = undefined));
      return this.syncing;
    }
    this.nextSync ??= this.syncing
      .catch(() => undefined)
      .then(() => {
        this.nextSync = undefined;
        return this.syncFolder();
      });
    return this.nextSync;
  }

  private async syncOnce(): Promise<void> {
    const handle = await (this.folder ??= openFolder(this.accountDir));
    if (handle) await syncOpenFolder(handle);
  }

  private fresh(sourceId: string): SpotJournalRecord {
    return {
      format: JOURNAL_FORMAT,
      service: this.account.serviceUrl,
      clientId: this.account.clientId,
      sourceId,
      galleries: {},
      updatedAt: new Date().toISOString(),
    };
  }

  private async prepare(): Promise<void> {
    await fs.mkdir(this.accountDir, { recursive: true });
    await fs.writeFile(join(this.dir, '.gitignore'), GITIGNORE, { flag: 'wx' }).catch(ignoreExists);
    const account = JSON.stringify({ service: this.account.serviceUrl, clientId: this.account.clientId }, null, 2) + '\n';
    await fs.writeFile(join(this.accountDir, 'account.json'), account, { flag: 'wx' }).catch(ignoreExists);
    await acquireRunLock(this.accountDir);
    this.existing = new Set(await fs.readdir(this.accountDir));
    const plain = new PlainRecordLog(this.accountDir);
    await plain.load();
    this.plain = plain;
  }
}

/** Where a spot's journal writes go, besides its own file. */
export interface SpotJournalSinks {
  /** Makes renames in the account folder durable (group-committed, see MediaJournal). */
  syncFolder(): Promise<void>;
  /** Called before the spot's own file is written. */
  writingFile(): void;
  onRelease(): void;
  /** The account's log of records without galleries; absent once the spot has a file of its own. */
  plainLog?: { file: string; append(record: SpotJournalRecord): void };
}

/**
 * One spot's journal, open and locked. Two kinds of write: save() before an upload goes out (the
 * one record exactly-once depends on: durably on disk first), and touch() for steps that are safe
 * to repeat (imports are upserts, reads and order settings are harmless twice); those ride along
 * with the next save, or flush() when the spot ends. flush() leaves out the folder's fsync: a
 * power cut may bring back the record of the last save, and the next run then repeats those
 * steps, finding the last upload in the gallery by its new id. A record without galleries (it says
 * only "this text was imported") goes to the account's append-only log (plainRecords.ts): losing
 * it means one more upsert, so it is not worth a file, let alone an fsync.
 */
export class SpotJournal {
  private released = false;
  private dirty = false;
  private plainLog?: SpotJournalSinks['plainLog'];

  constructor(
    private readonly spotFile: string,
    readonly record: SpotJournalRecord,
    private readonly sinks: SpotJournalSinks,
  ) {
    this.plainLog = sinks.plainLog;
  }

  /** Where the record is kept: the spot's own file, or the account's log while it has no galleries. */
  get file(): string {
    return this.plainLog && Object.keys(this.record.galleries).length === 0 ? this.plainLog.file : this.spotFile;
  }

  /** Writes the record atomically and durably before returning (durable: false, see flush). */
  async save(durable = true): Promise<void> {
    this.record.updatedAt = new Date().toISOString();
    this.dirty = false;
    const plain = !durable && Object.keys(this.record.galleries).length === 0;
    try {
      if (plain && this.plainLog) return this.plainLog.append(this.record);
      // A spot without galleries that has a file of its own (written by an earlier version) keeps
      // it, written without fsync: readRecord takes the empty file a lost write can leave as none.
      this.sinks.writingFile();
      await writeFileAtomic(this.spotFile, JSON.stringify(this.record, null, 1) + '\n', { syncFolder: durable ? this.sinks.syncFolder : false, syncFile: !plain });
      // From now on the spot's file holds its record (and wins over the log when it is opened).
      this.plainLog = undefined;
    } catch (error) {
      this.dirty = true;
      throw error;
    }
  }

  /** The record changed in a way a repeated step would restore: written with the next save or flush. */
  touch(): void {
    this.dirty = true;
  }

  async flush(): Promise<void> {
    if (this.dirty) await this.save(false);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.sinks.onRelease();
  }
}

async function readRecord(file: string, sourceId: string): Promise<SpotJournalRecord | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw damaged(file, sourceId, `it cannot be read (${(error as Error).message})`);
  }
  // Only a write without fsync (a spot without galleries, see SpotJournal.save) can leave an
  // empty file after a power cut; every record that matters was fsynced whole.
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw damaged(file, sourceId, `it is not valid JSON (${(error as Error).message})`);
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > JOURNAL_FORMAT) {
    throw new JournalError(`The journal file ${file} was written by a newer version (format ${format}). Update the extension or command-line tool, then run again.`, file);
  }
  const checked = spotJournalSchema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw damaged(file, sourceId, `${issue.path.join('.') || 'its content'}: ${issue.message}`);
  }
  return checked.data;
}

function damaged(file: string, sourceId: string, why: string): JournalError {
  return new JournalError(
    `The journal file ${file} cannot be used: ${why}. It records the media uploads of source_id "${sourceId}", so nothing was sent for this spot. ` +
      'Repair the file, or delete it and run again: without it, a gallery that already holds media is matched by count and files are not uploaded twice.',
    file,
  );
}

interface LockOwner {
  pid: number;
  host: string;
}

/** Run locks this process holds, by account folder, with how many open journals share each. */
const runLocks = new Map<string, { users: number; taken: Promise<void> }>();

/**
 * One process at a time per account journal (uploads into one gallery must go one at a time, and
 * two processes could each start one): a lock file naming its process, created whole (see
 * createWhole). A lock left by a process that no longer runs on this machine (killed, crashed) is
 * taken over. Runs within one process share it.
 */
async function acquireRunLock(accountDir: string): Promise<void> {
  const known = runLocks.get(accountDir);
  if (known) {
    known.users++;
    return known.taken.catch((error: unknown) => {
      known.users--;
      throw error;
    });
  }
  const entry = { users: 1, taken: takeLock(join(accountDir, 'run.lock')) };
  runLocks.set(accountDir, entry);
  try {
    await entry.taken;
  } catch (error) {
    if (runLocks.get(accountDir) === entry) runLocks.delete(accountDir);
    throw error;
  }
}

async function releaseRunLock(accountDir: string): Promise<void> {
  const entry = runLocks.get(accountDir);
  if (!entry || --entry.users > 0) return;
  runLocks.delete(accountDir);
  await fs.rm(join(accountDir, 'run.lock'), { force: true });
}

async function takeLock(lock: string): Promise<void> {
  const me: LockOwner = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createWhole(lock, JSON.stringify(me))) return;
    const owner = await readOwner(lock);
    // Unreadable (it is created whole, so only damage does that), or left by a process that is
    // gone, or by this very process id in an earlier life (ids are reused after a restart).
    if (!owner || (owner.host === me.host && (owner.pid === me.pid || !isAlive(owner.pid)))) {
      await fs.rm(lock, { force: true });
      continue;
    }
    throw new JournalLockedError(
      `Another run (process ${owner.pid} on ${owner.host}) is using the journal ${dirname(lock)}. Wait for it to finish; if no run is active, delete ${lock}.`,
      lock,
    );
  }
  throw new JournalLockedError(`Could not lock ${lock}: it keeps coming back. Check that no other run is active.`, lock);
}

/**
 * Creates `path` with its whole content in one step; false when it exists already. A symbolic
 * link whose target is the content does that in a single call (as editors' lock files do); where
 * links are not allowed (Windows without developer mode), an exclusive create is used instead.
 */
async function createWhole(path: string, content: string): Promise<boolean> {
  try {
    await fs.symlink(content, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOSYS' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
  }
  return fs.writeFile(path, content, { flag: 'wx' }).then(
    () => true,
    (failure: NodeJS.ErrnoException) => (failure.code === 'EEXIST' ? false : Promise.reject(failure)),
  );
}

async function readOwner(lock: string): Promise<LockOwner | undefined> {
  try {
    const text = await fs.readlink(lock).catch(() => fs.readFile(lock, 'utf8'));
    const value = JSON.parse(text) as Partial<LockOwner>;
    return typeof value.pid === 'number' && typeof value.host === 'string' ? { pid: value.pid, host: value.host } : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ignoreExists(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EEXIST') throw error;
}
