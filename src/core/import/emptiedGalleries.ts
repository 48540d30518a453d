// A gallery field whose media folder lost every file has no upload step, so nothing else looks at
// its gallery: the media the journal recorded for it are settled against the gallery here (one
// read) and each still held is reported as left over, as for a folder that lost some of its files.
import type { SpotProblem } from '../media/checkSpotMedia';
import { uploadGalleryMedia, type GalleryUploadContext } from './galleryUploads';
import { leftOverMediaProblems } from './leftOverMedia';
import { withMembers } from '../objects/withMembers';

/** What the check needs beyond the journal and the run's client, retry and signals. */
export type EmptiedGalleryContext = Omit<GalleryUploadContext, 'field' | 'files' | 'bytes'>;

/**
 * The left-over warnings of the spot's gallery fields the check planned no upload for (`planned`)
 * whose value is still their gallery (its id, or null while the journal knows it) and whose gallery
 * the journal recorded media in. `text` is the checked text; `folder` the media folder.
 */
export async function emptiedGalleryProblems(
  ctx: EmptiedGalleryContext,
  attributes: Record<string, unknown>,
  planned: readonly string[],
  text: string,
  folder: string,
): Promise<SpotProblem[]> {
  const problems: SpotProblem[] = [];
  for (const [field, gallery] of Object.entries(ctx.journal.record.galleries)) {
    if (planned.includes(field) || Object.keys(gallery.media).length === 0) continue;
    const value = attributes[field];
    if (value !== gallery.galleryId && value !== null) continue;
    const upload = await uploadGalleryMedia(withMembers(ctx, { field, files: [], bytes: () => {} }));
    problems.push(...leftOverMediaProblems(text, field, gallery.galleryId, folder, upload.leftOver));
  }
  return problems;
}
