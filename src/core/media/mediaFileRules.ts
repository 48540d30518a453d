// What makes a file fit to go into a gallery, checked before a byte is sent, with the same words
// wherever files are sent: beside a spot document (checkSpotMedia), and straight into a gallery
// (the Explorer's upload, spot-import upload). A file of a type not accepted, an empty one, or one
// that is not a file or cannot be read is refused.
import { promises as fs, type Stats } from 'node:fs';
import { isInsideFolder } from '../files/insideFolder';
import { mimeTypeOf } from '../files/mimeType';
import type { PackedFile } from '../files/packedFile';
import { DEFAULT_ACCEPTED_TYPES, isAcceptedType } from './acceptedTypes';
import { l10n } from '../text/l10n';

/** What a check needs of a file's stats (an archive's entry has these too). */
type FileStats = Pick<Stats, 'size' | 'mtimeMs' | 'isFile'>;

export type MediaFileVerdict =
  | { ok: true; mimeType: string; stats: FileStats }
  /** Why it is refused: words that follow the file's name ("notes.txt: type text/plain is not accepted …"). */
  | { ok: false; problem: string; code: 'missing' | 'unreadable' | 'not-a-file' | 'type' | 'empty' | 'outside' };

/**
 * `packed`: a file inside an archive, checked from what the archive says of it (`path` then only
 * names it). `within`: the folder a file named by data must be inside, links resolved
 * (files/insideFolder.ts); absent for files a person picked (an upload's).
 */
export async function checkMediaFile(
  path: string,
  name: string,
  acceptedTypes: readonly string[] = DEFAULT_ACCEPTED_TYPES,
  packed?: PackedFile,
  within?: string,
): Promise<MediaFileVerdict> {
  let stats: FileStats;
  try {
    stats = packed ? { size: packed.size, mtimeMs: packed.mtimeMs, isFile: () => true } : await fs.stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, code: code === 'ENOENT' ? 'missing' : 'unreadable', problem: l10n.t('cannot be read ({0}).', code ?? (error as Error).message) };
  }
  if (!stats.isFile()) return { ok: false, code: 'not-a-file', problem: l10n.t('is not a file.') };
  const inside = !packed && within !== undefined ? await isInsideFolder(within, path) : true;
  if (typeof inside === 'object') return { ok: false, code: 'unreadable', problem: l10n.t('cannot be read ({0}).', inside.unresolved) };
  if (!inside)
    return {
      ok: false,
      code: 'outside',
      problem: l10n.t('is outside the folder {0} (a name with "..", a full path or a link to elsewhere): only files inside it are sent; copy it into the folder.', within!),
    };
  const mimeType = mimeTypeOf(name);
  if (!isAcceptedType(mimeType, acceptedTypes)) {
    const accepted = acceptedTypes.join(', ');
    const problem = mimeType ? l10n.t('type {0} is not accepted (accepted: {1}).', mimeType, accepted) : l10n.t('an unknown file type is not accepted (accepted: {0}).', accepted);
    return { ok: false, code: 'type', problem };
  }
  if (stats.size === 0) return { ok: false, code: 'empty', problem: l10n.t('the file is empty.') };
  return { ok: true, mimeType: mimeType!, stats };
}
