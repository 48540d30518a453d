// Which document a media folder belongs to, by the import's convention (walk.media/ beside
// walk.spot.json): naming the folder on the command line imports that document with its media.
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * The document a media folder belongs to, by the workflow's convention (walk.media/ beside
 * walk.spot.json, see mediaFolderFor), or undefined when the folder is not a media folder or has
 * no document.
 */
export async function documentOfMediaFolder(folder: string): Promise<string | undefined> {
  const name = basename(folder);
  if (!/\.media$/i.test(name)) return undefined;
  const stem = name.slice(0, -'.media'.length);
  for (const candidate of [`${stem}.spot.json`, `${stem}.json`]) {
    const path = join(dirname(folder), candidate);
    if (
      await fs.stat(path).then(
        (stats) => stats.isFile(),
        () => false,
      )
    )
      return path;
  }
  return undefined;
}
