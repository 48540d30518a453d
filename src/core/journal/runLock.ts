// One process at a time per account journal: a lock file naming its process (pid and host),
// created whole in one step. A lock left by a process that no longer runs on this machine (killed,
// crashed) is taken over. Taking over is the delicate part: two runs that resume together both
// find the same dead owner, and a plain "remove, then create" lets the second remove the lock the
// first has just created, so both would hold it. Takeovers therefore go one at a time, under a
// second lock file (`<lock>.takeover`), and remove the old lock only if it still says what was
// judged stale. That guard is held for a few milliseconds; one left by a crash in that window is
// removed like a stale lock, with the plain "remove, then create" again: two runs could then both
// hold the guard if they start at the same moment after a run crashed inside those milliseconds.
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { JournalLockedError } from './journalErrors';
import { l10n } from '../text/l10n';

interface LockOwner {
  pid: number;
  host: string;
}

/** A lock whose content cannot be read yet may be one being written (see createWhole's fallback). */
const UNREADABLE_GRACE_MS = 5_000;
/** How long a takeover may wait for another process's takeover to finish. */
const TAKEOVER_WAIT_MS = 5_000;
const TAKEOVER_POLL_MS = 20;

const me = (): LockOwner => ({ pid: process.pid, host: hostname() });

/** Takes the lock, or throws JournalLockedError naming the process that has it. */
export async function takeRunLock(lock: string): Promise<void> {
  const mine = JSON.stringify(me());
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createWhole(lock, mine)) return;
    const seen = await readLock(lock);
    if (seen === undefined) continue; // gone meanwhile: try again
    if (!(await isStale(lock, seen))) throw lockedBy(lock, seen);
    await removeIfStill(lock, seen);
  }
  throw new JournalLockedError(l10n.t('Could not lock {0}: it keeps coming back. Check that no other run is active.', lock), lock);
}

/** Gives the lock back, if it is still this process's (it is never taken from a live process). */
export async function releaseRunLock(lock: string): Promise<void> {
  const seen = await readLock(lock);
  if (seen !== undefined && isMine(seen)) await fs.rm(lock, { force: true });
}

/** Removes `lock` if it still reads `judged`, with no other takeover running meanwhile. */
async function removeIfStill(lock: string, judged: string): Promise<void> {
  const guard = `${lock}.takeover`;
  await takeGuard(guard);
  try {
    if ((await readLock(lock)) === judged) await fs.rm(lock, { force: true });
  } finally {
    await releaseRunLock(guard);
  }
}

async function takeGuard(guard: string): Promise<void> {
  const mine = JSON.stringify(me());
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    if (await createWhole(guard, mine)) return;
    const seen = await readLock(guard);
    if (seen !== undefined && (await isStale(guard, seen))) {
      await fs.rm(guard, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new JournalLockedError(
        l10n.t(
          "Could not lock {0}: another run has been taking over its journal's lock for {1} s. If no run is active, delete {2}.",
          dirname(guard),
          TAKEOVER_WAIT_MS / 1000,
          guard,
        ),
        guard,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, TAKEOVER_POLL_MS));
  }
}

/**
 * Left by a process that is gone on this machine, by this very process id in an earlier life (ids
 * are reused after a restart), or unreadable for longer than a write takes (damage).
 */
async function isStale(path: string, text: string): Promise<boolean> {
  const owner = parseOwner(text);
  if (owner) return owner.host === hostname() && (owner.pid === process.pid || !isAlive(owner.pid));
  const stats = await fs.lstat(path).catch(() => undefined);
  return stats !== undefined && Date.now() - stats.mtimeMs > UNREADABLE_GRACE_MS;
}

function isMine(text: string): boolean {
  const owner = parseOwner(text);
  return owner !== undefined && owner.pid === process.pid && owner.host === hostname();
}

function lockedBy(lock: string, text: string): JournalLockedError {
  const owner = parseOwner(text);
  const message = owner
    ? l10n.t(
        'Another run (process {0} on {1}) is using the journal {2}. Wait for it to finish; if no run is active, delete {3}.',
        owner.pid,
        owner.host,
        dirname(lock),
        lock,
      )
    : l10n.t(
        'Another run (a process that is still writing the lock) is using the journal {0}. Wait for it to finish; if no run is active, delete {1}.',
        dirname(lock),
        lock,
      );
  return new JournalLockedError(message, lock);
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

/** The lock's content as written (a link's target, or a file's text); undefined when there is no lock. */
async function readLock(path: string): Promise<string | undefined> {
  try {
    return await fs.readlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  }
  return fs.readFile(path, 'utf8').catch(() => undefined);
}

function parseOwner(text: string): LockOwner | undefined {
  try {
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
