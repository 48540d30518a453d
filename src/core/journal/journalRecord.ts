// The journal's content for one spot: what is known to be done, and the one upload per gallery
// that may be in flight. Checked with zod on every read, so a damaged line of the log is named, not trusted.
import * as z from '../api/zod';

export const JOURNAL_FORMAT = 1;

const id = z.number().check(z.int(), z.gt(0));

const mediaEntrySchema = z.object({
  mediaId: id,
  /** The file's path relative to the media folder when it was recorded (for people). */
  file: z.string(),
  /** reply: the upload's reply named it; resolved: found in the gallery after a lost reply; adopted: matched by count without a journal. */
  how: z.enum(['reply', 'resolved', 'adopted']),
});

const pendingSchema = z.object({
  /** Content key (sha256:size) of the file being uploaded. */
  key: z.string(),
  file: z.string(),
  /** The gallery's media ids just before the upload was sent. */
  before: z.array(id),
  at: z.string(),
});

const galleryEntrySchema = z.object({
  galleryId: id,
  /** created: this workflow's import created it; document: the document named it. */
  origin: z.enum(['created', 'document']),
  /** Content key → the media item that holds it. */
  media: z.record(z.string(), mediaEntrySchema),
  pending: z.optional(pendingSchema),
  /** Media ids in the order last set or found, and the weights this workflow sent. */
  order: z.optional(z.array(id)),
  weights: z.optional(z.record(z.string(), z.number())),
});

const fileHashSchema = z.object({ size: z.number().check(z.int(), z.gte(0)), mtimeMs: z.number(), sha256: z.string() });

export const spotJournalSchema = z.object({
  format: z.literal(JOURNAL_FORMAT),
  service: z.string(),
  clientId: z.string(),
  sourceId: z.string(),
  /** The document last run for this source_id (for people reading the journal). */
  document: z.optional(z.string()),
  spotId: z.optional(id),
  /** By gallery field. */
  galleries: z.record(z.string(), galleryEntrySchema),
  /** The last text imported as the final step (or as a plain import), by hash. */
  finalImport: z.optional(
    z.object({
      sha256: z.string(),
      state: z.number().check(z.int()),
      at: z.string(),
      /**
       * The gallery ids it gave fields the document has as null, every file of theirs in place (a
       * final import with media, or one sent without media standing for it): what a run without
       * media sends for those fields, rather than null and state 2 (completedGalleries.ts).
       */
      galleries: z.optional(z.record(z.string(), id)),
    }),
  ),
  /** The ids and state the document should hold; kept until they are written into it. */
  writeBack: z.optional(z.object({ status: z.enum(['written', 'disabled', 'conflict', 'failed']), at: z.string() })),
  /** Hash cache by media path: a file whose size and mtime are unchanged is not read again. */
  files: z.optional(z.record(z.string(), fileHashSchema)),
  updatedAt: z.string(),
});

export type SpotJournalRecord = z.infer<typeof spotJournalSchema>;
export type GalleryJournal = z.infer<typeof galleryEntrySchema>;
export type PendingUpload = z.infer<typeof pendingSchema>;

let formattedAt = -1;
let formatted = '';

/**
 * Now, as the journal's records say when (ISO 8601, UTC): formatted at most once a millisecond,
 * since a bulk import asks for it three times per spot.
 */
export function journalTime(): string {
  const now = Date.now();
  if (now !== formattedAt) {
    formattedAt = now;
    formatted = new Date(now).toISOString();
  }
  return formatted;
}
