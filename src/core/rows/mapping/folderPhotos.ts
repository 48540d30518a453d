// The photos of a table in a folder on disk, found by the names its cells give, by the same rule
// as in an archive (photoLookup.ts): an export's photos ZIP unpacked beside the table keeps its
// folder per submission (media/<user>/attachments/<form>/<submission uuid>/…).
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PhotoLookup, isLeftBehind } from './photoLookup';

/**
 * The most entries (files and folders) a listing visits: a folder given as "." beside a table in a
 * home folder is not walked whole for a name that is nowhere. Far more than an export's photos.
 */
const MAX_LISTED_ENTRIES = 100_000;

/** The photos below `folder` (absolute); entries are paths below it with "/" separators. */
export function folderPhotos(folder: string): PhotoLookup {
  return new PhotoLookup({ has: (entry) => exists(resolve(folder, entry)), list: () => listFiles(folder) }, '');
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    // Only an absent file is absent: one that cannot be read is taken, for the check to say why.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
}

/**
 * The files below `folder`, breadth first, without following links to folders (a link to a parent
 * would never end) or going into hidden ones; a folder that cannot be read is passed over.
 */
async function listFiles(folder: string): Promise<{ entries: string[]; listedOnly?: number }> {
  const entries: string[] = [];
  const pending = [''];
  let visited = 0;
  for (let at = 0; at < pending.length; at++) {
    const next = pending[at];
    let listed;
    try {
      listed = await readdir(join(folder, next), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const item of listed) {
      if (++visited > MAX_LISTED_ENTRIES) return { entries, listedOnly: entries.length };
      const entry = next === '' ? item.name : `${next}/${item.name}`;
      if (isLeftBehind(item.name)) continue;
      if (item.isDirectory()) pending.push(entry);
      else if (item.isFile() || item.isSymbolicLink()) entries.push(entry);
    }
  }
  return { entries };
}
