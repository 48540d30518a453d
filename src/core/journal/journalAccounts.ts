// The account journals a front end works with, shared by its runs: one lock and one log per
// account folder however many runs use it, the spots those runs hold, and the logs kept for the
// next run. A front end makes one (the extension per window, the command line per process) and
// disposes it when it ends, which drops the kept logs and their timers.
import { join } from 'node:path';
import { RecordLog, type RecordLogOptions } from './recordLog';
import { releaseRunLock, takeRunLock } from './runLock';

/**
 * How long and how many logs are kept for the next run: as long as the next import of a session
 * is likely to come, and only the last two (a window's workspace folder and the sandbox's).
 */
const KEPT_LOG_MS = 5 * 60 * 1000;
const KEPT_LOGS_AT_MOST = 2;

export class JournalAccounts {
  /** Spots open in a run, by account folder and source id: two runs cannot share a spot either. */
  private readonly held = new Set<string>();
  /** Accounts in use, by real folder: runs share their lock and log. */
  private readonly accounts = new Map<string, { users: number; ready: Promise<RecordLog> }>();
  /** Accounts whose last run is closing its log and giving back the lock. */
  private readonly releasing = new Map<string, Promise<void>>();
  /** Logs no run uses now (RecordLog.park), for the next run: a bulk import's log is read whole. */
  private readonly kept = new Map<string, { log: RecordLog; expiry: NodeJS.Timeout }>();
  private disposed = false;

  /** Marks a spot as worked on; false when a run already holds it. */
  hold(key: string): boolean {
    if (this.held.has(key)) return false;
    this.held.add(key);
    return true;
  }

  letGo(key: string): void {
    this.held.delete(key);
  }

  /** Logs kept for the next run (for tests and the log). */
  get keptLogs(): number {
    return this.kept.size;
  }

  /**
   * One process at a time per account journal (uploads into one gallery must go one at a time,
   * and two processes could each start one): the account's lock (a file naming its process, see
   * runLock.ts), then its log. Runs sharing this object share both.
   */
  async acquire(accountDir: string, options: RecordLogOptions): Promise<RecordLog> {
    for (;;) {
      const known = this.accounts.get(accountDir);
      if (known) {
        known.users++;
        return known.ready.catch((error: unknown) => {
          known.users--;
          throw error;
        });
      }
      // The last run's giving back first: the lock file still names this process, so taking it
      // now would take it over, and that release would then remove the new run's lock.
      const giving = this.releasing.get(accountDir);
      if (!giving) break;
      await giving;
    }
    const entry = { users: 1, ready: this.lockAndOpen(accountDir, options) };
    this.accounts.set(accountDir, entry);
    try {
      return await entry.ready;
    } catch (error) {
      if (this.accounts.get(accountDir) === entry) this.accounts.delete(accountDir);
      throw error;
    }
  }

  /** One user fewer; the last one closes the log (its writes on disk) and gives up the lock. */
  async release(log: RecordLog): Promise<void> {
    const entry = this.accounts.get(log.accountDir);
    if (!entry || --entry.users > 0) return;
    this.accounts.delete(log.accountDir);
    const giving = this.giveBack(log);
    const settled = giving.catch(() => undefined);
    this.releasing.set(log.accountDir, settled);
    try {
      await giving;
    } finally {
      if (this.releasing.get(log.accountDir) === settled) this.releasing.delete(log.accountDir);
    }
  }

  /** Drops the kept logs and their timers; a run still going closes its log as usual and keeps nothing. */
  dispose(): void {
    this.disposed = true;
    for (const accountDir of [...this.kept.keys()]) this.forget(accountDir);
  }

  private async lockAndOpen(accountDir: string, options: RecordLogOptions): Promise<RecordLog> {
    const lock = join(accountDir, 'run.lock');
    await takeRunLock(lock);
    try {
      return (await this.keptLog(accountDir, options)) ?? (await RecordLog.open(accountDir, options));
    } catch (error) {
      await releaseRunLock(lock);
      throw error;
    }
  }

  private async giveBack(log: RecordLog): Promise<void> {
    try {
      if ((await log.park()) && !this.disposed) this.keep(log);
    } finally {
      await releaseRunLock(join(log.accountDir, 'run.lock'));
    }
  }

  private keep(log: RecordLog): void {
    this.forget(log.accountDir);
    const expiry = setTimeout(() => this.forget(log.accountDir), KEPT_LOG_MS);
    // A process that is done (the command line) does not wait for it.
    expiry.unref();
    this.kept.set(log.accountDir, { log, expiry });
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= KEPT_LOGS_AT_MOST) break;
      this.forget(oldest);
    }
  }

  private forget(accountDir: string): void {
    clearTimeout(this.kept.get(accountDir)?.expiry);
    this.kept.delete(accountDir);
  }

  /** The account's kept log, when the file is still as this process left it and the run asks for the same options. */
  private async keptLog(accountDir: string, options: RecordLogOptions): Promise<RecordLog | undefined> {
    const entry = this.kept.get(accountDir);
    if (!entry) return undefined;
    this.forget(accountDir);
    return entry.log.opensWith(options) && (await entry.log.resume()) ? entry.log : undefined;
  }
}
