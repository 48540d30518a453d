// Writes a small file (a document, a snapshot, a cache) so that a crash at any moment leaves
// either the old content or the new, never a mix: write a temporary file beside it, fsync it,
// rename it over the old one, fsync the folder (the rename itself is only durable once the
// folder's entry is on disk). A caller whose write may be lost in a power cut (because it would
// only be redone) can skip the folder's fsync. Its calls go to the thread pool: creating and
// renaming a file on the calling thread stalls it for as long as another thread's fsync holds
// the file system's journal (ext4). syncFolderNow is the exception, for a caller that must let
// nothing run in between.
//
// Used by the core (spot documents, the media journal), the sandbox (state.json) and the
// extension's code cache (src/extension/platform/codeCache.ts). No imports but Node's own, on purpose: the
// code cache runs in dist/extension.js, and a file without dependencies is bundled there as it
// is, without loading dist/core.js at activation (each bundle carries its own copy; none holds
// any state).
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

const TEMP_SUFFIX = '.tmp';

/**
 * Whether a folder entry is a temporary file writeFileAtomic made for `fileName` (in the same
 * folder): one a crash left behind, when no write is under way.
 */
export function isAtomicWriteLeftover(entryName: string, fileName: string): boolean {
  return entryName.startsWith(`.${fileName}.`) && entryName.endsWith(TEMP_SUFFIX);
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const folder = dirname(path);
  // Hidden, and named for this process and this write: no two writers share one (several
  // windows may save the same code cache at once), and 'wx' refuses to open one that exists.
  const temp = join(folder, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
  const handle = await fs.open(temp, 'wx', options.mode);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync(); // the bytes reach the disk before the rename makes them the file
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    await handle.close();
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  if (options.syncFolder !== false) await syncFolder(folder);
}

export interface SyncFolderOptions {
  /**
   * Fail when the folder cannot be opened or fsynced. By default that is let be: some file
   * systems refuse fsync on a folder, and the rename has happened all the same. For a caller that
   * acknowledges nothing before it is durable (the sandbox with a data directory).
   */
  strict?: boolean;
}

/** Makes a rename or a new entry in the folder durable. Windows cannot open folders: skipped there. */
export async function syncFolder(folder: string, options: SyncFolderOptions = {}): Promise<void> {
  if (process.platform === 'win32') return;
  let handle: FileHandle;
  try {
    handle = await fs.open(folder, 'r');
  } catch (error) {
    if (options.strict) throw error;
    return;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (options.strict) throw error;
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
    // As in syncFolder: some file systems refuse fsync on a folder.
  } finally {
    closeSync(fd);
  }
}
