// Writes a file so that a crash at any moment leaves either the old content or the new, never a
// mix: write a temporary file beside it, fsync it, rename it over the old one, fsync the folder
// (the rename itself is only durable once the folder's entry is on disk).
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Permission bits of the new file (default: the old file's, or 0o666 minus umask). */
  mode?: number;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const folder = dirname(path);
  const temp = join(folder, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'w', options.mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncFolder(folder);
}

/** Makes a rename or a new entry in the folder durable. Windows cannot open folders: skipped there. */
export async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await fs.open(folder, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename has happened all the same.
  } finally {
    await handle.close();
  }
}
