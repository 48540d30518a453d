// Writes a file so that a crash at any moment leaves either the old content or the new, never a
// mix: write a temporary file beside it, fsync it, rename it over the old one, fsync the folder
// (the rename itself is only durable once the folder's entry is on disk). A caller whose write
// may be lost in a power cut (because it would only be redone) can skip the folder's fsync.
import { promises as fs, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Permission bits of the new file (default 0o666 minus umask). */
  mode?: number;
  /**
   * Makes the rename durable; default: open the folder, fsync it, close it. false: the new content
   * is complete on disk, but a power cut may bring the old file back.
   */
  syncFolder?: ((folder: string) => Promise<void>) | false;
  /**
   * fsync the new content before the rename (default true). false only for content whose loss
   * costs nothing but repeating safe work: after a power cut the file may be empty.
   */
  syncFile?: boolean;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const folder = dirname(path);
  const temp = join(folder, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  if (options.syncFile === false && options.syncFolder === false) return writeWithoutSync(path, temp, data);
  const handle = await fs.open(temp, 'w', options.mode);
  try {
    await handle.writeFile(data);
    if (options.syncFile !== false) await handle.sync();
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
  if (options.syncFolder !== false) await (options.syncFolder ?? syncFolder)(folder);
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

export async function openFolder(folder: string): Promise<FileHandle | undefined> {
  try {
    return await fs.open(folder, 'r');
  } catch {
    return undefined;
  }
}

export async function syncOpenFolder(handle: FileHandle): Promise<void> {
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename has happened all the same.
  }
}

/**
 * A small write that waits for no disk: done on the calling thread, since the four thread-pool
 * round trips of the asynchronous calls cost more than the writes themselves (a plain import of
 * thousands of documents spent most of its time in them).
 */
function writeWithoutSync(path: string, temp: string, data: string | Uint8Array): void {
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
