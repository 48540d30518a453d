// The temporary file a photo download writes until the photo is whole and renamed into the cache
// (<key>.<pid>.<hex>.part), and the removal of those a run left behind when it was killed in the
// middle of one. Several processes may fetch into one cache (imports to two accounts, the editor and
// the command line), so only a .part whose process is gone, or one older than any download may take,
// is removed; one being written now is left alone.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

const PART = /\.part$/;
/** The process that writes it, in names since it was named there; earlier names (<key>.<hex>.part) have none. */
const WRITER = /\.(\d+)\.[0-9a-f]{8}\.part$/;

/** A new temporary file for the photo whose cache file is `dataPath`: named for this process, and never for another download. */
export function partFileFor(dataPath: string): string {
  return `${dataPath}.${process.pid}.${randomBytes(4).toString('hex')}.part`;
}

/**
 * Removes the .part files in `cacheDir` that no download is writing: its process is gone (killed), or
 * it was last written more than `maxAgeMs` ago (longer than a download's deadline: its attempt is over,
 * whatever process wrote it). Best effort: a file another process removes meanwhile is no failure.
 */
export async function removeStaleParts(cacheDir: string, maxAgeMs: number): Promise<void> {
  const names = await fs.readdir(cacheDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!PART.test(name)) continue;
    const path = join(cacheDir, name);
    const writer = WRITER.exec(name);
    const stale =
      (writer !== null && !isRunning(Number(writer[1]))) ||
      (await fs.stat(path).then(
        (stats) => Date.now() - stats.mtimeMs > maxAgeMs,
        () => false,
      ));
    if (stale) await fs.rm(path, { force: true }).catch(() => undefined);
  }
}

/** Whether a process with this id runs on this machine (signal 0 only asks; EPERM: it runs, as another user). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
