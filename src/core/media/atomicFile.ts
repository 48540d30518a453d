// Writes a small file (a document) so that a crash at any moment leaves either the old content
// or the new, never a mix: write a temporary file beside it, fsync it, rename it over the old one,
// fsync the folder (the rename itself is only durable once the folder's entry is on disk). A
// caller whose write may be lost in a power cut (because it would only be redone) can skip the
// folder's fsync. Its calls go to the thread pool: creating and renaming a file on the calling
// thread stalls it for as long as another thread's fsync holds the file system's journal (ext4).
// syncFolderNow is the exception, for a caller that must let nothing run in between.
import { closeSync, fsyncSync, openSync, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Permission bits of the new file (default 0o666 minus umask). */
  mode?: number;
  /**
   * Makes the rename durable (default true: the folder is fsynced). false: the new content is
   * complete on disk, but a power cut may bring the old file back.
   */
  syncFolder?: boolean;
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
  if (options.syncFolder !== false) await syncFolder(folder);
}

/** Makes a rename or a new entry in the folder durable. Windows cannot open folders: skipped there. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await openFolder(folder);
  if (!handle) return;
  try {
    await syncOpenFolder(handle);
  } finally {
    await handle.close();
  }
}

/** syncFolder on the calling thread, for a caller that must let nothing run in between. */
export function syncFolderNow(folder: string): void {
  let fd: number;
  try {
    fd = openSync(folder, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // As in syncOpenFolder: some file systems refuse fsync on a folder.
  } finally {
    closeSync(fd);
  }
}

async function openFolder(folder: string): Promise<FileHandle | undefined> {
  try {
    return await fs.open(folder, 'r');
  } catch {
    return undefined;
  }
}

async function syncOpenFolder(handle: FileHandle): Promise<void> {
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename has happened all the same.
  }
}
