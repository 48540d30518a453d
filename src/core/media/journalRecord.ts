// The journal's content for one spot: what is known to be done, and the one upload per gallery
// that may be in flight. Checked with zod on every read, so a damaged file is named, not trusted.
import * as z from 'zod';

export const JOURNAL_FORMAT = 1;

const id = z.number().int().positive();

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
  pending: pendingSchema.optional(),
  /** Media ids in the order last set or found, and the weights this workflow sent. */
  order: z.array(id).optional(),
  weights: z.record(z.string(), z.number()).optional(),
});

const fileHashSchema = z.object({ size: z.number().int().nonnegative(), mtimeMs: z.number(), sha256: z.string() });

export const spotJournalSchema = z.object({
  format: z.literal(JOURNAL_FORMAT),
  service: z.string(),
  clientId: z.string(),
  sourceId: z.string(),
  /** The document last run for this source_id (for people reading the journal). */
  document: z.string().optional(),
  spotId: id.optional(),
  /** By gallery field. */
  galleries: z.record(z.string(), galleryEntrySchema),
  /** The last text imported as the final step (or as a plain import), by hash. */
  finalImport: z.object({ sha256: z.string(), state: z.number().int(), at: z.string() }).optional(),
  /** The ids and state the document should hold; kept until they are written into it. */
  writeBack: z.object({ status: z.enum(['written', 'disabled', 'conflict', 'failed']), at: z.string() }).optional(),
  /** Hash cache by media path: a file whose size and mtime are unchanged is not read again. */
  files: z.record(z.string(), fileHashSchema).optional(),
  updatedAt: z.string(),
});

export type SpotJournalRecord = z.infer<typeof spotJournalSchema>;
export type GalleryJournal = z.infer<typeof galleryEntrySchema>;
export type PendingUpload = z.infer<typeof pendingSchema>;
export type FileHashEntry = z.infer<typeof fileHashSchema>;
