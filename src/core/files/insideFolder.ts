// Whether a file is inside a folder once symbolic links are resolved: what data names for an
// upload (a table's photo cell, a file in a spot document's media folder) is sent only from
// inside its folder. A name with "..", a full path, or a link (git keeps links, so a cloned
// repository can hold one to ~/.ssh) must not make an import read and send a file from elsewhere.
import { promises as fs } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/** Both must exist (their real paths are compared); a file that cannot be resolved is not inside. */
export async function isInsideFolder(folder: string, path: string): Promise<boolean> {
  let root: string;
  let real: string;
  try {
    [root, real] = await Promise.all([fs.realpath(folder), fs.realpath(path)]);
  } catch {
    return false;
  }
  const within = relative(root, real);
  return within !== '' && within !== '..' && !within.startsWith(`..${sep}`) && !isAbsolute(within);
}
