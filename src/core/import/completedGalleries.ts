// A spot sent without its media (--no-media, or a row made without them) after a run with them:
// its text has its gallery fields null and state 2, while the journal records the final import that
// gave those fields their gallery ids, with every file in place, and the spot's final state. Sent as
// it is, that text would move the finished spot back to state 2 and name its galleries pending; so
// it stands for what the run with media sent: the same ids, the same state. Unchanged otherwise, it
// is then that very text (already imported, nothing sent); changed in another member, it is sent so.
import { pendingGalleryFields, type GalleryFieldTypes } from '../api/spotSchema';
import { setSpotState, type SetSpotStateResult } from '../documents/setSpotState';
import type { SpotJournalRecord } from '../journal/journalRecord';

export interface CompletedText {
  /** The text with the gallery ids and the final state; not ok when it is not a spot document. */
  result: SetSpotStateResult;
  state: number;
  /** The ids given to fields the text has as null (what the final import records, see finalImport.galleries). */
  galleries: Record<string, number>;
}

/**
 * The text with every null gallery field given the id the journal's last final import named for it,
 * in that import's state; undefined when a null field has no such id (a gallery still waiting for
 * its media, or one the journal has since given another id): the text is then sent as it is.
 */
export function withCompletedGalleries(
  text: string,
  attributes: Record<string, unknown>,
  definition: GalleryFieldTypes | undefined,
  record: SpotJournalRecord,
): CompletedText | undefined {
  const named = record.finalImport?.galleries;
  if (!named) return undefined;
  const galleries: Record<string, number> = {};
  for (const field of pendingGalleryFields(attributes, definition)) {
    const galleryId = Object.hasOwn(named, field) ? named[field] : undefined;
    if (galleryId === undefined || record.galleries[field]?.galleryId !== galleryId) return undefined;
    galleries[field] = galleryId;
  }
  if (Object.keys(galleries).length === 0) return undefined;
  const state = record.finalImport!.state;
  return { result: setSpotState(text, state, galleries), state, galleries };
}
