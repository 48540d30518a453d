// The photos of a table read from an archive, found by the names its cells give (photoLookup.ts):
// ODK Central keeps them in media/ under their own names, KoBoToolbox one folder per submission.
import { posix } from 'node:path';
import type { TableArchive } from '../read/types';
import { PhotoLookup } from './photoLookup';

/** The photos below `folder` of the archive ('' for its top); entries are the archive's paths. */
export function archivePhotos(archive: TableArchive, folder: string): PhotoLookup {
  const prefix = folder === '' ? '' : `${folder}/`;
  return new PhotoLookup(
    {
      has: (entry) => archive.has(entry),
      list: () => Promise.resolve({ entries: archive.names().filter((entry) => entry.startsWith(prefix)) }),
    },
    folder,
  );
}

/** A folder of the archive as a mapping gives it ("media", "./media/", "."): '' for its top; undefined when it climbs out. */
export function archiveFolder(folder: string | undefined): string | undefined {
  const normal = posix.normalize(`${folder ?? '.'}`.replaceAll('\\', '/')).replace(/\/+$/, '');
  if (normal === '.' || normal === '') return '';
  if (normal.startsWith('..') || normal.startsWith('/')) return undefined;
  return normal;
}
