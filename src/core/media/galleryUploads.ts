// Step 3 for one gallery: settle an upload an earlier run left open, then send every file the
// gallery does not hold yet, one at a time, each announced in the journal before it goes out.
import { AuthenticationError, FileChangedError, ServiceError, isCancellation, throwIfAborted } from '../api/errors';
import { retryDelayMs, sleep, type RetryPolicy } from '../api/retryPolicy';
import type { ServiceClient } from '../api/serviceClient';
import type { CheckedMediaFile } from './checkSpotMedia';
import { JournalError, type SpotJournal } from './journal';
import type { GalleryJournal } from './journalRecord';
import { claimedIds, mediaIdOfReply, resolveLostUpload } from './lostUpload';
import type { GalleryOutcome, StepName } from './types';

export interface GalleryUploadContext {
  client: Pick<ServiceClient, 'getGallery' | 'uploadMedia'>;
  journal: SpotJournal;
  field: string;
  files: CheckedMediaFile[];
  retry: RetryPolicy;
  signal?: AbortSignal;
  /** Drops an upload in flight (see MediaWorkflowOptions.abortSignal). */
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
}

/** Stops one gallery with a reason (the run goes on with the next). */
class GalleryStop extends Error {
  constructor(message: string, readonly file = '') {
    super(message);
  }
}

export async function uploadGalleryMedia(ctx: GalleryUploadContext): Promise<GalleryUploadResult> {
  const gallery = ctx.journal.record.galleries[ctx.field];
  const galleryId = gallery.galleryId;
  const outcome: GalleryOutcome = { field: ctx.field, galleryId, files: ctx.files.length, uploaded: 0, resolved: 0, skipped: 0, failed: [], order: 'not-reached' };
  const recordedAtStart = new Set(Object.keys(gallery.media));
  const missing = () => ctx.files.filter((file) => !gallery.media[file.key]);
  const result = (complete: boolean, adopted = false): GalleryUploadResult => {
    // Already there: recorded before this run, or matched by count just now.
    outcome.skipped = ctx.files.filter((file) => gallery.media[file.key] && (recordedAtStart.has(file.key) || gallery.media[file.key].how === 'adopted')).length;
    return { outcome, complete, adopted };
  };
  if (!gallery.pending && missing().length === 0) return result(true);

  // The journal has followed this gallery's uploads (an upload announced, or media recorded).
  const tracked = gallery.pending !== undefined || recordedAtStart.size > 0;
  throwIfAborted(ctx.signal);
  let present = (await ctx.client.getGallery(galleryId, { signal: ctx.signal })).media.map((media) => media.id);
  outcome.mediaInGallery = present.length;
  try {
    if (gallery.pending) settleEarlierUpload(ctx, gallery, present, outcome);
    forgetVanished(ctx, gallery, present, recordedAtStart);
    if (!tracked && present.length > 0) {
      const adopted = adoptByCount(ctx, gallery, present, missing());
      ctx.journal.touch();
      return result(adopted, adopted);
    }
    for (const file of missing()) {
      if (ctx.signal?.aborted) break;
      present = await sendOnce(ctx, gallery, file, present, outcome);
    }
  } catch (error) {
    if (!(error instanceof GalleryStop)) {
      ctx.journal.touch();
      throw error;
    }
    outcome.failed.push({ file: error.file, reason: error.message });
  }
  ctx.journal.touch();
  outcome.mediaInGallery = present.length;
  return result(missing().length === 0 && !gallery.pending && outcome.failed.length === 0);
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
    ctx.step('resolve', `${pending.file}: the reply to its upload was lost; gallery ${gallery.galleryId} holds it as media ${verdict.mediaId}, so it is not sent again`);
  } else {
    ctx.step('resolve', `${pending.file}: its upload did not reach gallery ${gallery.galleryId}; it is sent again`);
  }
}

/** Media the journal recorded that the gallery no longer holds (deleted since): sent again. */
function forgetVanished(ctx: GalleryUploadContext, gallery: GalleryJournal, present: number[], recordedAtStart: Set<string>): void {
  const ids = new Set(present);
  for (const [key, entry] of Object.entries(gallery.media)) {
    if (ids.has(entry.mediaId)) continue;
    delete gallery.media[key];
    recordedAtStart.delete(key);
    if (ctx.files.some((file) => file.key === key)) ctx.step('resolve', `${entry.file}: media ${entry.mediaId} is no longer in gallery ${gallery.galleryId}; it is sent again`);
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
      `Gallery ${gallery.galleryId} holds ${unknown.length} media the journal does not know, and ${files.length} files are beside the document: ` +
        'which of them are there cannot be told (the service renames uploads), so nothing was sent to it. Upload the missing ones by hand (Upload Media to Gallery), then run again: a gallery holding as many media as there are files counts as complete.',
    );
  }
  files.forEach((file, index) => (gallery.media[file.key] = { mediaId: unknown[index], file: file.relativePath, how: 'adopted' }));
  ctx.step('skip', `gallery ${gallery.galleryId} already holds ${unknown.length} media the journal does not know; its ${files.length} files count as there and are not sent`);
  return true;
}

/** Sends one file until it is known to be in the gallery exactly once, or fails. Returns the gallery's ids after. */
async function sendOnce(ctx: GalleryUploadContext, gallery: GalleryJournal, file: CheckedMediaFile, present: number[], outcome: GalleryOutcome): Promise<number[]> {
  const galleryId = gallery.galleryId;
  for (let attempt = 0; ; attempt++) {
    gallery.pending = { key: file.key, file: file.relativePath, before: present, at: new Date().toISOString() };
    // The one write that also records the previous file's media id: the announcement. It is made
    // durable while the file goes out, and the body's last byte waits for it (holdEnd): the
    // service cannot store a body it has not received whole, so no upload can be stored unannounced.
    const announced = ctx.journal.save().catch((error: Error) => {
      throw unannounced(ctx.journal, file.relativePath, error);
    });
    announced.catch(() => undefined); // awaited below, whatever the upload did
    let failure: unknown;
    let replyId: number | undefined;
    try {
      // Not the run's signal: an upload in flight finishes, so its outcome is known and recorded.
      // Only abortSignal drops it; it was announced, so the next run settles it from the gallery.
      const sent = await ctx.client.uploadMedia(galleryId, file.path, {
        signal: ctx.abortSignal,
        fileName: file.name,
        mimeType: file.mimeType,
        // What goes out is the content the check hashed: its bytes when it kept them, else the
        // file read again and compared with that hash before its end.
        content: file.content,
        sha256: file.sha256,
        onProgress: (sentBytes, totalBytes) => ctx.bytes(file.relativePath, sentBytes, totalBytes),
        holdEnd: announced,
      });
      replyId = mediaIdOfReply(sent.reply);
    } catch (error) {
      failure = error;
    }
    // Not announced: the body never went out whole, so the file is not in the gallery.
    await announced;
    if (replyId !== undefined && !present.includes(replyId)) {
      record(gallery, file, replyId, 'reply');
      outcome.uploaded++;
      ctx.step('upload', `${file.relativePath} (${file.size} bytes) → gallery ${galleryId} as media ${replyId}`);
      return [...present, replyId];
    }
    if (failure instanceof AuthenticationError || isCancellation(failure)) throw failure; // the next run settles it
    if (isRefusal(failure)) {
      // The service said no: nothing was stored.
      gallery.pending = undefined;
      outcome.failed.push({ file: file.relativePath, reason: (failure as Error).message });
      ctx.step('upload', `${file.relativePath} was refused: ${(failure as Error).message}`);
      return present;
    }
    if (failure instanceof FileChangedError) {
      // Stopped before its end, so not stored; sending it again in this run would stop the same
      // way. The next run hashes it anew, even when its size and modification time look unchanged.
      gallery.pending = undefined;
      delete ctx.journal.record.files?.[file.relativePath];
      ctx.journal.touch();
      outcome.failed.push({ file: file.relativePath, reason: failure.message });
      ctx.step('upload', `${file.relativePath} was not sent: ${failure.message}`);
      return present;
    }
    // The upload may or may not have arrived: the gallery says which.
    const after = (await ctx.client.getGallery(galleryId)).media.map((media) => media.id);
    const verdict = resolveLostUpload(gallery.pending, after, gallery);
    if (verdict.kind === 'ambiguous') throw new GalleryStop(ambiguity(galleryId, file.relativePath, verdict.mediaIds, ctx.journal), file.relativePath);
    if (verdict.kind === 'arrived') {
      record(gallery, file, verdict.mediaId, 'resolved');
      outcome.uploaded++;
      ctx.step('resolve', `${file.relativePath}: no usable reply, but gallery ${galleryId} holds it as media ${verdict.mediaId}`);
      return after;
    }
    gallery.pending = undefined;
    const reason = failure instanceof Error ? failure.message : 'the reply named no media and the gallery does not hold it';
    if (attempt >= ctx.retry.maxRetries) {
      outcome.failed.push({ file: file.relativePath, reason: `not stored after ${attempt + 1} attempts: ${reason}` });
      ctx.step('upload', `${file.relativePath}: not stored after ${attempt + 1} attempts (${reason})`);
      return after;
    }
    ctx.step('upload', `${file.relativePath} did not arrive (${reason}); sending it again`);
    present = after;
    await sleep(retryDelayMs(attempt, ctx.retry), ctx.signal);
  }
}

function record(gallery: GalleryJournal, file: CheckedMediaFile, mediaId: number, how: 'reply' | 'resolved'): void {
  gallery.media[file.key] = { mediaId, file: file.relativePath, how };
  gallery.pending = undefined;
}

/** A 4xx other than 408/429 is the service refusing the file: it was not stored. */
function isRefusal(error: unknown): boolean {
  const status = error instanceof ServiceError ? error.status : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** The announcement of an upload could not be written: the file was not sent whole, and the run stops for this spot. */
function unannounced(journal: SpotJournal, file: string, error: Error): JournalError {
  return new JournalError(`The journal ${journal.file} could not be written (${error.message}), so ${file} was not sent (its upload was stopped before its end). Check the disk (free space, permissions), then run again.`, journal.file);
}

function ambiguity(galleryId: number, file: string, mediaIds: number[], journal: SpotJournal): string {
  return (
    `Gallery ${galleryId} got ${mediaIds.length} new media (${mediaIds.join(', ')}) from elsewhere while ${file} was being sent, so whether ${file} arrived cannot be told. ` +
    `Check the gallery, then record the answer in the journal ${journal.file}, in the last line for source_id "${journal.record.sourceId}" (or remove its "pending" entry to send the file again).`
  );
}
