// The journal: what each spot's run has done, as lines of one append-only log per account under
// `<journalDir>/journal/<account>/` (recordLog.ts), written as each step completes, durably before
// each upload's final piece goes out, so a run stopped at any moment (cancel, crash, kill, power loss) can be run again
// and finish the rest. `<account>` hashes the service URL and client id: the same source_id on
// another service or topic is another spot. The journal folder holds a `.gitignore` with `*`, so
// git ignores it by itself. One process at a time works with an account's journal (a lock file in
// its folder); within the process, one run at a time per spot.
import { promises as fs } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { syncFolder } from '../files/atomicFile';
import { JournalError } from './journalErrors';
import { JOURNAL_FORMAT, journalTime, spotJournalSchema, type SpotJournalRecord } from './journalRecord';
import type { RecordLog, RecordLogOptions } from './recordLog';
import type { JournalAccounts } from './journalAccounts';
import { l10n } from '../text/l10n';

export { JournalError, JournalLockedError } from './journalErrors';

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

const GITIGNORE = '# Spot Import journal: work in flight, per machine. Git ignores this folder by itself.\n*\n';

export class ImportJournal {
  readonly accountDir: string;
  private prepared?: Promise<RecordLog>;

  constructor(
    readonly dir: string,
    readonly account: JournalAccount,
    /** The front end's shelf of open accounts: runs that share it share each account's lock and log. */
    private readonly accounts: JournalAccounts,
    private readonly logOptions: RecordLogOptions = {},
  ) {
    const accountKey = createHash('sha256').update(`${account.serviceUrl}\n${account.clientId}`).digest('hex').slice(0, 16);
    this.accountDir = join(dir, 'journal', accountKey);
  }

  /**
   * Takes the account's lock and opens its log, once (open() does it when not done yet): a run
   * calls it first, so another process using the journal is found before anything is sent, and
   * the lock is held until close(). Throws JournalLockedError, or a JournalError naming the folder.
   */
  acquire(): Promise<RecordLog> {
    // A failed start (the journal locked by another process) is tried again on the next call.
    if (!this.prepared) {
      const preparing: Promise<RecordLog> = this.prepare().catch((error: unknown) => {
        // Only this start's own failure is forgotten (a later start may have replaced it).
        if (this.prepared === preparing) this.prepared = undefined;
        if (error instanceof JournalError) throw error;
        throw new JournalError(l10n.t('The journal in {0} cannot be used: {1}', this.dir, (error as Error).message), this.accountDir);
      });
      this.prepared = preparing;
    }
    return this.prepared;
  }

  /**
   * Opens (and locks) the journal of one spot; a fresh record when there is none. Throws a
   * JournalError naming the log when its record cannot be read or another run holds it.
   */
  async open(sourceId: string, documentPath: string): Promise<SpotJournal> {
    const log = await this.acquire();
    const held = `${log.accountDir}\n${sourceId}`;
    if (!this.accounts.hold(held)) {
      throw new JournalError(l10n.t('Another import in this window is already working on source_id "{0}"; wait for it to finish.', sourceId), log.file);
    }
    try {
      const line = log.line(sourceId);
      const record = line === undefined ? this.fresh(sourceId) : checkRecord(line, log.file, sourceId);
      if (record.sourceId !== sourceId) throw damaged(log.file, sourceId, l10n.t('it belongs to source_id "{0}"', record.sourceId));
      record.document = documentPath;
      return new SpotJournal(log, record, () => this.accounts.letGo(held));
    } catch (error) {
      this.accounts.letGo(held);
      throw error;
    }
  }

  /** Closes what the run kept open and lets other processes use the journal again. */
  async close(): Promise<void> {
    const prepared = this.prepared;
    this.prepared = undefined;
    const log = await prepared?.catch(() => undefined);
    if (log) await this.accounts.release(log);
  }

  private fresh(sourceId: string): SpotJournalRecord {
    return {
      format: JOURNAL_FORMAT,
      service: this.account.serviceUrl,
      clientId: this.account.clientId,
      sourceId,
      galleries: {},
      updatedAt: journalTime(),
    };
  }

  private async prepare(): Promise<RecordLog> {
    const created = await fs.mkdir(this.accountDir, { recursive: true });
    // A folder made just now survives a power cut only once its parent's entry is on disk (the
    // log's own entry is made durable with its first fdatasync, see recordLog.ts).
    for (let folder = this.accountDir; created; folder = dirname(folder)) {
      await syncFolder(dirname(folder));
      if (folder === created || dirname(folder) === folder) break;
    }
    await fs.writeFile(join(this.dir, '.gitignore'), GITIGNORE, { flag: 'wx' }).catch(ignoreExists);
    const account = JSON.stringify({ service: this.account.serviceUrl, clientId: this.account.clientId }, null, 2) + '\n';
    await fs.writeFile(join(this.accountDir, 'account.json'), account, { flag: 'wx' }).catch(ignoreExists);
    // One folder, however it is spelled (a link, another case on macOS or Windows): the lock and
    // the log are shared by the path they really have.
    return this.accounts.acquire(await fs.realpath(this.accountDir), this.logOptions);
  }
}

/**
 * One spot's journal, open and locked. Two kinds of write: save() announcing an upload (the one
 * record exactly-once depends on: on disk before the upload's last byte goes out, see
 * galleryUploads.ts), and touch() for steps that are safe
 * to repeat (imports are upserts, reads and order settings are harmless twice); those ride along
 * with the next save, or flush() when the spot ends, which does not wait for the disk: a power cut
 * may bring back the record of the last save, and the next run then repeats those steps, finding
 * the last upload in the gallery by its new id.
 */
export class SpotJournal {
  private released = false;
  private dirty = false;

  constructor(
    private readonly log: Pick<RecordLog, 'file' | 'appendSoon' | 'appendDurable' | 'ownersOfGallery'>,
    readonly record: SpotJournalRecord,
    private readonly onRelease: () => void,
  ) {}

  /** The log that holds the record: its last line for this source id. */
  get file(): string {
    return this.log.file;
  }

  /** Whose gallery this is: this spot's (its record names it), another source id's, or nobody's yet. */
  galleryOwner(galleryId: number): 'this spot' | { otherSourceId: string } | undefined {
    if (Object.values(this.record.galleries).some((gallery) => gallery.galleryId === galleryId)) return 'this spot';
    const other = [...this.log.ownersOfGallery(galleryId)].find((sourceId) => sourceId !== this.record.sourceId);
    return other === undefined ? undefined : { otherSourceId: other };
  }

  /**
   * Writes the record and resolves once it is on disk; durable: false (see flush), once it is
   * written (with the other plain records of the next few milliseconds, in one write call).
   */
  save(durable = true): Promise<void> {
    this.record.updatedAt = journalTime();
    this.dirty = false;
    // Not an async function: one promise per save (the log's, with the dirty flag set again on a
    // failure), not three, for each spot of a bulk import.
    let written: Promise<void>;
    try {
      written = durable ? this.log.appendDurable(this.record) : this.log.appendSoon(this.record);
    } catch (error) {
      written = Promise.reject(error);
    }
    return written.catch((error: unknown) => {
      this.dirty = true;
      throw error;
    });
  }

  /** The record changed in a way a repeated step would restore: written with the next save or flush. */
  touch(): void {
    this.dirty = true;
  }

  flush(): Promise<void> {
    return this.dirty ? this.save(false) : Promise.resolve();
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease();
  }
}

/** The record in a line of the log, checked: a damaged one is named, never trusted. */
function checkRecord(line: string, file: string, sourceId: string): SpotJournalRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw damaged(file, sourceId, l10n.t('it is not valid JSON ({0})', (error as Error).message));
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > JOURNAL_FORMAT) {
    throw new JournalError(
      l10n.t('The journal {0} was written by a newer version (format {1}). Update the extension or command-line tool, then run again.', file, format),
      file,
    );
  }
  const checked = spotJournalSchema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue.path.join('.');
    throw damaged(file, sourceId, where ? `${where}: ${issue.message}` : l10n.t('its content: {0}', issue.message));
  }
  return checked.data;
}

function damaged(file: string, sourceId: string, why: string): JournalError {
  return new JournalError(
    l10n.t(
      'The last line for source_id "{0}" in the journal {1} cannot be used: {2}. It records the media uploads of that spot, so nothing was sent for this spot. Repair the line, or delete it and run again: the spot\'s line before it (if any) is then its record, and without any, a gallery that already holds media is matched by count and files are not uploaded twice.',
      sourceId,
      file,
      why,
    ),
    file,
  );
}

function ignoreExists(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EEXIST') throw error;
}
