// Exactly once without an idempotency key. Before each upload the journal records the gallery's
// media ids; uploads into one gallery go one at a time. So when an upload's reply never came
// (crash, kill, dropped connection), the gallery tells what happened: an id that is new since that
// record and not claimed by another journal entry is that file; no such id means it did not
// arrive. File names prove nothing (the service stores uploads under names of its own).
import type { GalleryJournal, PendingUpload } from '../journal/journalRecord';

export type LostUploadVerdict =
  | { kind: 'arrived'; mediaId: number }
  | { kind: 'absent' }
  /** Several new ids: someone else added media meanwhile, and which one is this file cannot be told. */
  | { kind: 'ambiguous'; mediaIds: number[] };

export function resolveLostUpload(pending: PendingUpload, presentIds: readonly number[], gallery: GalleryJournal): LostUploadVerdict {
  const before = new Set(pending.before);
  const claimed = claimedIds(gallery);
  const fresh = presentIds.filter((id) => !before.has(id) && !claimed.has(id));
  if (fresh.length === 0) return { kind: 'absent' };
  if (fresh.length === 1) return { kind: 'arrived', mediaId: fresh[0] };
  return { kind: 'ambiguous', mediaIds: fresh };
}

export function claimedIds(gallery: GalleryJournal): Set<number> {
  return new Set(Object.values(gallery.media).map((entry) => entry.mediaId));
}
