// Step 3 for one gallery: settle an upload an earlier run left open, then send every file the
// gallery does not hold yet through the one upload policy (uploadFilesToGallery), with the spot's
// journal as its ledger: each file announced before its last byte goes out, and settled from what
// the gallery holds when no usable reply came, so each arrives exactly once.
import { throwIfAborted } from '../api/errors';
import type { RetryPolicy } from '../api/retryPolicy';
import type { ServiceClient } from '../api/serviceClient';
import { uploadFilesToGallery, type UploadLedger } from '../upload/uploadFilesToGallery';
import type { CheckedMediaFile } from '../media/checkSpotMedia';
import { contentKey, hashFile } from '../media/contentKey';
import { JournalError, type SpotJournal } from '../journal/journal';
import { journalTime, type GalleryJournal } from '../journal/journalRecord';
import { claimedIds, resolveLostUpload } from './lostUpload';
import type { GalleryOutcome, StepName } from './types';
import { l10n } from '../text/l10n';

export interface GalleryUploadContext {
  client: Pick<ServiceClient, 'getGallery' | 'uploadMedia'>;
  journal: SpotJournal;
  field: string;
  files: CheckedMediaFile[];
  retry: RetryPolicy;
  signal?: AbortSignal;
  /** Drops an upload in flight (see ImportRunOptions.abortSignal). */
  abortSignal?: AbortSignal;
  step(step: StepName, message: string): void;
  bytes(file: string, sentBytes: number, totalBytes: number): void;
}

export interface GalleryUploadResult {
  outcome: GalleryOutcome;
  /** Every file is in the gallery (sent, found, or already recorded). */
  complete: boolean;
  /** Files were matched by count to media the journal did not know: their order is left alone. */
  adopted: boolean;
  /**
   * Media the gallery holds (the journal's record, checked against the gallery in this run) of
   * files no longer among the spot's: replaced or removed since they were sent. The interface
   * cannot delete them, so they stay, and the spot says so.
   */
  leftOver: LeftOverMedia[];
}

export interface LeftOverMedia {
  mediaId: number;
  /** The file it was sent from, relative to the media folder. */
  file: string;
}

/** Stops one gallery with a reason (the run goes on with the next). */
class GalleryStop extends Error {
  constructor(
    message: string,
    readonly file = '',
  ) {
    super(message);
  }
}

export async function uploadGalleryMedia(ctx: GalleryUploadContext): Promise<GalleryUploadResult> {
  const gallery = ctx.journal.record.galleries[ctx.field];
  const galleryId = gallery.galleryId;
  const outcome: GalleryOutcome = {
    field: ctx.field,
    galleryId,
    files: ctx.files.length,
    uploaded: 0,
    resolved: 0,
    skipped: 0,
    failed: [],
    order: 'not-reached',
  };
  const recordedAtStart = new Set(Object.keys(gallery.media));
  const missing = () => ctx.files.filter((file) => !gallery.media[file.key]);
  const result = (complete: boolean, adopted = false): GalleryUploadResult => {
    // Already there: recorded before this run, or matched by count just now.
    outcome.skipped = ctx.files.filter(
      (file) => gallery.media[file.key] && (recordedAtStart.has(file.key) || gallery.media[file.key].how === 'adopted'),
    ).length;
    return { outcome, complete, adopted, leftOver: leftOver(ctx, gallery) };
  };
  if (!gallery.pending && missing().length === 0) {
    // Nothing to send. Media of files no longer here are asked of the gallery (one read, only when
    // the journal has some): those removed on the service since are forgotten, the rest reported.
    if (leftOver(ctx, gallery).length > 0) {
      throwIfAborted(ctx.signal);
      const ids = (await ctx.client.getGallery(galleryId, { signal: ctx.signal })).media.map((media) => media.id);
      outcome.mediaInGallery = ids.length;
      forgetVanished(ctx, gallery, ids, recordedAtStart);
      ctx.journal.touch();
    }
    // A file whose media the gallery no longer holds (deleted on the service) is sent again below.
    if (missing().length === 0) return result(true);
  }

  // The journal has followed this gallery's uploads (an upload announced, or media recorded).
  const tracked = gallery.pending !== undefined || recordedAtStart.size > 0;
  throwIfAborted(ctx.signal);
  const present = { ids: (await ctx.client.getGallery(galleryId, { signal: ctx.signal })).media.map((media) => media.id) };
  outcome.mediaInGallery = present.ids.length;
  try {
    // A gallery that holds anything, or whose uploads the journal followed, is matched against the
    // files by their content: files left for their upload to hash are hashed now (and read again
    // if they are sent). Into a new, empty gallery every file goes, each read once as it is sent.
    if (tracked || present.ids.length > 0) await hashNow(ctx);
    if (gallery.pending) settleEarlierUpload(ctx, gallery, present.ids, outcome);
    forgetVanished(ctx, gallery, present.ids, recordedAtStart);
    if (!tracked && present.ids.length > 0) {
      const adopted = adoptByCount(ctx, gallery, present.ids, missing());
      ctx.journal.touch();
      return result(adopted, adopted);
    }
    const run = await uploadFilesToGallery({
      client: ctx.client,
      galleryId,
      files: missing(),
      // Not the run's signal for the file in flight: it finishes, so its outcome is known and
      // recorded. Only abortSignal drops it; it was announced, so the next run settles it.
      signal: ctx.signal,
      abortSignal: ctx.abortSignal,
      ledger: journalLedger(ctx, gallery, present),
      retry: ctx.retry,
      onBytes: (file, sent, total) => ctx.bytes(file.relativePath, sent, total),
      onFile: ({ file, status, how, mediaId, failure }) => {
        if (status === 'arrived') {
          outcome.uploaded++;
          ctx.step(
            how === 'reply' ? 'upload' : 'resolve',
            how === 'reply'
              ? `${file.relativePath} (${file.size} bytes) → gallery ${galleryId} as media ${mediaId}`
              : `${file.relativePath}: no usable reply, but gallery ${galleryId} holds it as media ${mediaId}`,
          );
        } else if (failure && failure.kind !== 'cancelled' && failure.kind !== 'credentials') {
          outcome.failed.push({ file: file.relativePath, reason: failure.error.message, kind: failure.kind, stored: failure.stored });
          ctx.step('upload', `${file.relativePath}: ${failure.kind === 'refused' ? 'refused' : 'not stored'}: ${failure.error.message}`);
        }
      },
    });
    // Refused credentials, and a file cut off by a cancel, end the spot (the next run settles an
    // announced upload). A cancel between files only stops this gallery: the spot says what is left.
    const cutOff = run.files.some((file) => file.failure?.kind === 'cancelled');
    if (run.stop && (run.stop.kind === 'credentials' || (run.stop.kind === 'cancelled' && cutOff))) throw run.stop.error;
  } catch (error) {
    if (!(error instanceof GalleryStop)) {
      ctx.journal.touch();
      throw error;
    }
    outcome.failed.push({ file: error.file, reason: error.message, kind: 'unclear', stored: 'maybe' });
  }
  ctx.journal.touch();
  outcome.mediaInGallery = present.ids.length;
  return result(missing().length === 0 && !gallery.pending && outcome.failed.length === 0);
}

/**
 * The spot's journal as the upload's ledger. Before each file: the gallery's media ids are
 * recorded with the file, durably, while the file goes out (its last byte waits for that). After
 * it: a reply naming a new id records the file; anything else is settled from the gallery.
 */
function journalLedger(ctx: GalleryUploadContext, gallery: GalleryJournal, present: { ids: number[] }): UploadLedger<CheckedMediaFile> {
  const record = (file: CheckedMediaFile, mediaId: number, how: 'reply' | 'resolved') => {
    if (!file.key) throw new Error(`${file.relativePath} would be recorded before it was hashed`);
    gallery.media[file.key] = { mediaId, file: file.relativePath, how };
    gallery.pending = undefined;
    if (!present.ids.includes(mediaId)) present.ids = [...present.ids, mediaId];
  };
  return {
    announce(file, sent) {
      // Hashed as it went out: from now on known by its content, in this run and (the hash cache) the next.
      if (sent) hashed(ctx, file, sent.sha256, sent.mtimeMs);
      if (!file.key) throw new Error(`${file.relativePath} would be announced before it was hashed`);
      gallery.pending = { key: file.key, file: file.relativePath, before: present.ids, at: journalTime() };
      // The one write that also records the previous file's media id: the announcement. The
      // service cannot store a body it has not received whole, so no upload is stored unannounced.
      return ctx.journal.save().catch((error: Error) => {
        throw unannounced(ctx.journal, file.relativePath, error);
      });
    },
    accept(file, mediaId) {
      if (mediaId === undefined || present.ids.includes(mediaId)) return false;
      record(file, mediaId, 'reply');
      return true;
    },
    async settle(file) {
      const after = (await ctx.client.getGallery(gallery.galleryId)).media.map((media) => media.id);
      const verdict = resolveLostUpload(gallery.pending!, after, gallery);
      if (verdict.kind === 'ambiguous')
        throw new GalleryStop(ambiguity(gallery.galleryId, file.relativePath, verdict.mediaIds, ctx.journal), file.relativePath);
      present.ids = after;
      if (verdict.kind === 'absent') {
        ctx.step('upload', `${file.relativePath} did not arrive in gallery ${gallery.galleryId}`);
        return { arrived: false };
      }
      record(file, verdict.mediaId, 'resolved');
      return { arrived: true, mediaId: verdict.mediaId };
    },
    forget(file, failure) {
      gallery.pending = undefined;
      // Changed since it was hashed: the next run hashes it anew, even when its size and
      // modification time look unchanged.
      if (failure.kind === 'changed') delete ctx.journal.record.files?.[file.relativePath];
      ctx.journal.touch();
    },
  };
}

/** The files the check left for their upload to hash (CheckedMediaFile.hashWhenSent), hashed now. */
async function hashNow(ctx: GalleryUploadContext): Promise<void> {
  for (const file of ctx.files) {
    if (!file.hashWhenSent) continue;
    let content: { sha256: string; size: number };
    try {
      content = await hashFile(file.path, file.size, file.packed);
    } catch (error) {
      throw new GalleryStop(
        l10n.t('{0} cannot be read ({1}).', file.relativePath, (error as NodeJS.ErrnoException).code ?? (error as Error).message),
        file.relativePath,
      );
    }
    if (content.size !== file.size)
      throw new GalleryStop(
        l10n.t('{0} changed after it was checked (it has {1} bytes, not {2}); run again.', file.relativePath, content.size, file.size),
        file.relativePath,
      );
    hashed(ctx, file, content.sha256, file.mtimeMs);
  }
}

/** A file's content is known now: its key, and the journal's hash cache for the next run. */
function hashed(ctx: GalleryUploadContext, file: CheckedMediaFile, sha256: string, mtimeMs: number): void {
  file.sha256 = sha256;
  file.key = contentKey(sha256, file.size);
  file.hashWhenSent = false;
  (ctx.journal.record.files ??= {})[file.relativePath] = { size: file.size, mtimeMs, sha256 };
}

/** An upload an earlier run announced but never saw answered. */
function settleEarlierUpload(ctx: GalleryUploadContext, gallery: GalleryJournal, present: number[], outcome: GalleryOutcome): void {
  const pending = gallery.pending!;
  const verdict = resolveLostUpload(pending, present, gallery);
  if (verdict.kind === 'ambiguous') throw new GalleryStop(ambiguity(gallery.galleryId, pending.file, verdict.mediaIds, ctx.journal), pending.file);
  gallery.pending = undefined;
  const file = ctx.files.find((candidate) => candidate.key === pending.key);
  if (verdict.kind === 'arrived') {
    gallery.media[pending.key] = { mediaId: verdict.mediaId, file: pending.file, how: 'resolved' };
    if (file) outcome.resolved++;
    ctx.step(
      'resolve',
      `${pending.file}: the reply to its upload was lost; gallery ${gallery.galleryId} holds it as media ${verdict.mediaId}, so it is not sent again`,
    );
  } else {
    ctx.step('resolve', `${pending.file}: its upload did not reach gallery ${gallery.galleryId}; it is sent again`);
  }
}

/** The gallery's media, as the journal records them, of files not among the spot's now. */
function leftOver(ctx: GalleryUploadContext, gallery: GalleryJournal): LeftOverMedia[] {
  const keys = new Set(ctx.files.map((file) => file.key));
  return Object.entries(gallery.media)
    .filter(([key]) => !keys.has(key))
    .map(([, entry]) => ({ mediaId: entry.mediaId, file: entry.file }));
}

/** Media the journal recorded that the gallery no longer holds (deleted since): sent again. */
function forgetVanished(ctx: GalleryUploadContext, gallery: GalleryJournal, present: number[], recordedAtStart: Set<string>): void {
  const ids = new Set(present);
  for (const [key, entry] of Object.entries(gallery.media)) {
    if (ids.has(entry.mediaId)) continue;
    delete gallery.media[key];
    recordedAtStart.delete(key);
    if (ctx.files.some((file) => file.key === key))
      ctx.step('resolve', `${entry.file}: media ${entry.mediaId} is no longer in gallery ${gallery.galleryId}; it is sent again`);
  }
}

/**
 * A gallery holding media the journal has not followed (the journal was deleted, or the project
 * was cloned elsewhere; the gallery is named by the document, or the service handed back the one
 * it made for a field earlier): which files they are cannot be told, since the service renames
 * uploads. When it holds at least as many media as there are files, the files
 * count as there (matched in order, never re-sent); with fewer, nothing is sent and it is reported.
 */
function adoptByCount(ctx: GalleryUploadContext, gallery: GalleryJournal, present: number[], files: CheckedMediaFile[]): boolean {
  const unknown = present.filter((id) => !claimedIds(gallery).has(id));
  if (unknown.length < files.length) {
    throw new GalleryStop(
      l10n.t(
        'Gallery {0} holds {1} media the journal does not know, and {2} files are beside the document: which of them are there cannot be told (the service renames uploads), so nothing was sent to it. Upload the missing ones by hand (Upload Media to Gallery), then run again: a gallery holding as many media as there are files counts as complete.',
        gallery.galleryId,
        unknown.length,
        files.length,
      ),
    );
  }
  files.forEach((file, index) => (gallery.media[file.key] = { mediaId: unknown[index], file: file.relativePath, how: 'adopted' }));
  ctx.step(
    'skip',
    `gallery ${gallery.galleryId} already holds ${unknown.length} media the journal does not know; its ${files.length} files count as there and are not sent`,
  );
  return true;
}

/** The announcement of an upload could not be written: the file was not sent whole, and the run stops for this spot. */
function unannounced(journal: SpotJournal, file: string, error: Error): JournalError {
  return new JournalError(
    l10n.t(
      'The journal {0} could not be written ({1}), so {2} was not sent (its upload was stopped before its end). Check the disk (free space, permissions), then run again.',
      journal.file,
      error.message,
      file,
    ),
    journal.file,
  );
}

function ambiguity(galleryId: number, file: string, mediaIds: number[], journal: SpotJournal): string {
  return l10n.t(
    'Gallery {0} got {1} new media ({2}) from elsewhere while {3} was being sent, so whether {3} arrived cannot be told. Check the gallery, then record the answer in the journal {4}, in the last line for source_id "{5}" (or remove its "pending" entry to send the file again).',
    galleryId,
    mediaIds.length,
    mediaIds.join(', '),
    file,
    journal.file,
    journal.record.sourceId,
  );
}
