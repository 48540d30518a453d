// The journal: one small JSON file per spot under `<journalDir>/journal/<account>/`, written
// atomically after every step that completes, so a run stopped at any moment (cancel, crash,
// kill, power loss) can be run again and finish the rest. `<account>` hashes the service URL and
// client id: the same source_id on another service or topic is another spot. The journal folder
// holds a `.gitignore` with `*`, so git ignores it by itself.
import { promises as fs } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '../api/errors';
import { writeFileAtomic } from './atomicFile';
import { JOURNAL_FORMAT, spotJournalSchema, type SpotJournalRecord } from './journalRecord';

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

const GITIGNORE = '# Spot Import journal: work in flight, per machine. Git ignores this folder by itself.\n*\n';

export class MediaJournal {
  readonly accountDir: string;
  private prepared?: Promise<void>;
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
    await (this.prepared ??= this.prepare());
    const file = this.fileFor(sourceId);
    await acquireLock(file, sourceId);
    try {
      const record = (await readRecord(file, sourceId)) ?? this.fresh(sourceId);
      if (record.sourceId !== sourceId) throw damaged(file, sourceId, `it belongs to source_id "${record.sourceId}"`);
      record.document = documentPath;
      return new SpotJournal(file, record);
    } catch (error) {
      await releaseLock(file);
      throw error;
    }
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
  }

  static isHeld(file: string): boolean {
    return MediaJournal.held.has(file);
  }

  static hold(file: string): void {
    MediaJournal.held.add(file);
  }

  static unhold(file: string): void {
    MediaJournal.held.delete(file);
  }
}

/**
 * One spot's journal, open and locked. Two kinds of write: save() before an upload goes out (the
 * one record exactly-once depends on: it must be on disk first), and touch() for steps that are
 * safe to repeat (imports are upserts, reads and order settings are harmless twice); those ride
 * along with the next save, or flush() when the spot ends.
 */
export class SpotJournal {
  private released = false;
  private dirty = false;

  constructor(readonly file: string, readonly record: SpotJournalRecord) {}

  /** Writes the record atomically and durably before returning. */
  async save(): Promise<void> {
    this.record.updatedAt = new Date().toISOString();
    this.dirty = false;
    try {
      await writeFileAtomic(this.file, JSON.stringify(this.record, null, 1) + '\n');
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
    if (this.dirty) await this.save();
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await releaseLock(this.file);
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

/**
 * One run per spot at a time, across processes: a lock file naming its process, created whole
 * (written under another name, then hard-linked into place, which fails if it exists). A lock left
 * by a process that no longer runs on this machine (killed, crashed) is taken over.
 */
async function acquireLock(file: string, sourceId: string): Promise<void> {
  const lock = `${file}.lock`;
  if (MediaJournal.isHeld(file)) {
    throw new JournalError(`Another import in this window is already working on source_id "${sourceId}"; wait for it to finish.`, lock);
  }
  const me: LockOwner = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createWhole(lock, JSON.stringify(me))) {
      MediaJournal.hold(file);
      return;
    }
    const owner = await readOwner(lock);
    // Unreadable (it is created whole, so only damage does that), or left by a process that is
    // gone, or by this very process id in an earlier life (ids are reused after a restart).
    if (!owner || (owner.host === me.host && (owner.pid === me.pid || !isAlive(owner.pid)))) {
      await fs.rm(lock, { force: true });
      continue;
    }
    throw new JournalError(
      `Another run (process ${owner.pid} on ${owner.host}) is working on source_id "${sourceId}". Wait for it to finish; if no run is active, delete ${lock}.`,
      lock,
    );
  }
  throw new JournalError(`Could not lock ${lock}: it keeps coming back. Check that no other run is active.`, lock);
}

/** Creates `path` with its whole content at once; false when it exists already. */
async function createWhole(path: string, content: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fs.writeFile(temp, content);
  try {
    await fs.link(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // File systems without hard links: exclusive create (a kill mid-write can leave it empty).
    if (code === 'EPERM' || code === 'ENOSYS' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') {
      return fs.writeFile(path, content, { flag: 'wx' }).then(
        () => true,
        (failure: NodeJS.ErrnoException) => (failure.code === 'EEXIST' ? false : Promise.reject(failure)),
      );
    }
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

async function releaseLock(file: string): Promise<void> {
  MediaJournal.unhold(file);
  await fs.rm(`${file}.lock`, { force: true });
}

async function readOwner(lock: string): Promise<LockOwner | undefined> {
  try {
    const value = JSON.parse(await fs.readFile(lock, 'utf8')) as Partial<LockOwner>;
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
