// Whether a file is inside a folder once symbolic links are resolved: what data names for an
// upload (a table's photo cell, a file in a spot document's media folder) is sent only from
// inside its folder. A name with "..", a full path, or a link (git keeps links, so a cloned
// repository can hold one to ~/.ssh) must not make an import read and send a file from elsewhere.
import { promises as fs } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/** Their real paths compared; `{ unresolved }` when either cannot be found (a folder that may not be read, a loop of links). */
export async function isInsideFolder(folder: string, path: string): Promise<boolean | { unresolved: string }> {
  let root: string;
  let real: string;
  try {
    [root, real] = await Promise.all([fs.realpath(folder), fs.realpath(path)]);
  } catch (error) {
    return { unresolved: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
  const within = relative(root, real);
  return within !== '' && within !== '..' && !within.startsWith(`..${sep}`) && !isAbsolute(within);
}
