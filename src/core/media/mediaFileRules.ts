// What makes a file fit to go into a gallery, checked before a byte is sent, with the same words
// wherever files are sent: beside a spot document (checkSpotMedia), and straight into a gallery
// (the Explorer's upload, spot-import upload). A file of a type not accepted, an empty one, or one
// that is not a file or cannot be read is refused.
import { promises as fs, type Stats } from 'node:fs';
import { mimeTypeOf } from '../files/mimeType';
import { DEFAULT_ACCEPTED_TYPES, isAcceptedType } from './acceptedTypes';
import { l10n } from '../text/l10n';

export type MediaFileVerdict =
  | { ok: true; mimeType: string; stats: Stats }
  /** Why it is refused: words that follow the file's name ("notes.txt: type text/plain is not accepted …"). */
  | { ok: false; problem: string; code: 'missing' | 'unreadable' | 'not-a-file' | 'type' | 'empty' };

export async function checkMediaFile(path: string, name: string, acceptedTypes: readonly string[] = DEFAULT_ACCEPTED_TYPES): Promise<MediaFileVerdict> {
  let stats: Stats;
  try {
    stats = await fs.stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, code: code === 'ENOENT' ? 'missing' : 'unreadable', problem: l10n.t('cannot be read ({0}).', code ?? (error as Error).message) };
  }
  if (!stats.isFile()) return { ok: false, code: 'not-a-file', problem: l10n.t('is not a file.') };
  const mimeType = mimeTypeOf(name);
  if (!isAcceptedType(mimeType, acceptedTypes)) {
    const accepted = acceptedTypes.join(', ');
    const problem = mimeType ? l10n.t('type {0} is not accepted (accepted: {1}).', mimeType, accepted) : l10n.t('an unknown file type is not accepted (accepted: {0}).', accepted);
    return { ok: false, code: 'type', problem };
  }
  if (stats.size === 0) return { ok: false, code: 'empty', problem: l10n.t('the file is empty.') };
  return { ok: true, mimeType: mimeType!, stats };
}
