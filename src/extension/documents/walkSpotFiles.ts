// A quick walk of a folder for the files named *.spot.json, in plain Node (no VS Code): what a
// folder's search (findSpotFiles) will most likely find, known in milliseconds where the workbench's
// file search takes about a second for thousands of files. It is a guess that the search then
// corrects: it passes over symbolic links, never reads a file's content (a .json document of
// spots by its data.type is found by the search alone), and gives no guess at all when a folder
// cannot be read or the tree is too big.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface WalkOptions {
  /** Whether a folder or file of this name is passed over (with its contents). */
  skip(name: string): boolean;
  /** Folders whose names start with a dot are passed over (the search's own rule). */
  skipDotFolders: boolean;
  /** The walk gives up (undefined) after this many entries: a big tree is left to the search. */
  maxEntries: number;
  signal?: AbortSignal;
}

/** A spot document by its name (the search's rule too). */
export const SPOT_FILE = /\.spot\.json$/i;

/** The paths of the *.spot.json files under `folder`, in no particular order; undefined when the walk gave up or the folder cannot be read. */
export async function walkSpotFiles(folder: string, options: WalkOptions): Promise<string[] | undefined> {
  const found: string[] = [];
  const pending = [folder];
  let entries = 0;
  try {
    for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
      if (options.signal?.aborted) return undefined;
      // A folder's entries at once: iterating opendir's batches took 3 to 8 times as long for
      // 10,000 files (a promise per entry), and the extension host has other work between them.
      const listed = await readdir(path, { withFileTypes: true });
      entries += listed.length;
      if (entries > options.maxEntries) return undefined;
      for (const entry of listed) {
        if (options.skip(entry.name)) continue;
        if (entry.isDirectory()) {
          if (!(options.skipDotFolders && entry.name.startsWith('.'))) pending.push(join(path, entry.name));
        } else if (entry.isFile() && SPOT_FILE.test(entry.name)) found.push(join(path, entry.name));
      }
    }
  } catch {
    // An unreadable folder: the search passes over it, and says nothing; the guess is left to it.
    return undefined;
  }
  return found;
}
