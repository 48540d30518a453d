// Media a gallery holds of files no longer among its spot's (replaced or removed after they were
// sent): the interface has no delete, so the run cannot make the gallery what the folder says. Each
// is a warning on the gallery field, rather than a clean success, saying what to remove by hand.
import { join } from 'node:path';
import { parseTree } from 'jsonc-parser';
import { locateInTree } from '../documents/locate';
import { toPointer } from '../documents/problems';
import type { SpotProblem } from '../media/checkSpotMedia';
import type { LeftOverMedia } from './galleryUploads';
import { l10n } from '../text/l10n';

/** The warnings, placed on the field's value in `text` (the checked text, without a byte-order mark); `folder` is the media folder. */
export function leftOverMediaProblems(text: string, field: string, galleryId: number, folder: string, media: readonly LeftOverMedia[]): SpotProblem[] {
  if (media.length === 0) return [];
  const path = ['data', 'attributes', field];
  const root = parseTree(text);
  const span = root ? locateInTree(root, path) : { offset: 0, length: 0 };
  return media.map(({ mediaId, file }) => ({
    pointer: toPointer(path),
    message: l10n.t(
      'Gallery {0} ({1}) holds media {2}, sent from {3}, which is no longer among the files of this spot (replaced or removed since): nothing here can delete it, so remove it on the service by hand.',
      galleryId,
      field,
      mediaId,
      file,
    ),
    ...span,
    severity: 'warning' as const,
    file: join(folder, file),
  }));
}
