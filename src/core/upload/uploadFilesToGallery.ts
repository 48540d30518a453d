// The one upload policy: files go into a gallery one at a time (so each upload adds exactly one
// media item), each failure is classified once (uploadFailure.ts), and the run stops when the next
// file would fail the same way. Every way files reach a gallery runs through here: the Explorer's
// upload and drag and drop, spot-import upload, and the media workflow, which adds a ledger (its
// journal) that makes each file arrive exactly once: announced before its last byte goes out, and
// settled from what the gallery holds when no usable reply came. Without a ledger nothing is ever
// sent twice: a file that may have arrived is reported as such, for the user to check.
import { CancelledError, ServiceError, isCancellation } from '../api/errors';
import { retryDelayMs, sleep, type RetryPolicy } from '../api/retryPolicy';
import type { ServiceClient } from '../api/serviceClient';
import { mediaIdOfReply } from './mediaReply';
import { classifyUploadFailure, type UploadFailure, type UploadFailureKind } from './uploadFailure';
import type { SentContent } from '../api/uploadFile';
import type { PackedFile } from '../files/packedFile';
import { l10n } from '../text/l10n';
import { withMembers } from '../objects/withMembers';

export interface UploadItem {
  path: string;
  /** Name the service records (default: the file's own name). */
  name?: string;
  mimeType?: string;
  /** Bytes already read (the media check's), sent instead of reading the file again. */
  content?: Uint8Array;
  /** A file inside an archive, read from it as it is sent (`path` only names it). */
  packed?: PackedFile;
  /** The content's SHA-256: a file that no longer has it is stopped before its end. */
  sha256?: string;
  /**
   * With a ledger: the file is not hashed yet. Its upload hashes it as it goes out (it is read
   * once), and the ledger's announcement waits for that hash: it is made once the last byte is
   * read, before the final piece. `size` is then the size it was checked with.
   */
  hashWhenSent?: boolean;
  size?: number;
}

export type UploadStatus =
  /** The service has it (its reply said so, or the ledger found it in the gallery). */
  | 'arrived'
  /** It did not arrive: refused, changed, or broken off before its end. Safe to send again. */
  | 'failed'
  /** The whole file went out and no answer came: it may be stored; check the gallery before sending it again. */
  | 'unsure'
  /** Never sent (the run stopped first, or was cancelled while it went out). */
  | 'not-sent';

export interface UploadedFile<F extends UploadItem> {
  file: F;
  status: UploadStatus;
  /** The media id, when the service's reply or the gallery named it. */
  mediaId?: number;
  /** The reply came (reply), or the ledger found the file in the gallery after a failure (settled). */
  how?: 'reply' | 'settled';
  failure?: UploadFailure;
  /** Attempts made (the ledger sends a file again when the gallery shows it did not arrive). */
  attempts: number;
}

/**
 * What makes uploads exactly-once (the media workflow's journal). Every method may throw to stop
 * the run (an error of the ledger's own, such as a journal that cannot be written).
 */
export interface UploadLedger<F extends UploadItem> {
  /**
   * Before `file` goes out. The body's last byte waits for the promise; a rejection stops the file
   * before it. A file hashed while it is sent (hashWhenSent) is announced once its bytes are read,
   * with their hash (`sent`), still before its last byte goes out.
   */
  announce(file: F, sent?: SentContent): Promise<void>;
  /** The service answered success naming `mediaId`: true when that settles it (a new id), false to ask settle(). */
  accept(file: F, mediaId: number | undefined): boolean;
  /** No usable reply: what the gallery holds says whether `file` arrived. */
  settle(file: F): Promise<{ arrived: true; mediaId: number } | { arrived: false }>;
  /** The file is known not to have arrived (refused, changed, given up, cancelled between attempts): nothing waits for it now. */
  forget(file: F, failure: UploadFailure): void;
}

export interface UploadFilesOptions<F extends UploadItem> {
  /** The client, or one per file (a long run picks up a client rebuilt for new credentials). */
  client: Pick<ServiceClient, 'uploadMedia'> | ((file: F) => Promise<Pick<ServiceClient, 'uploadMedia'>>);
  galleryId: number;
  files: readonly F[];
  /** Starts no new file. The file in flight goes on (its outcome is then known) unless abortSignal fires too. */
  signal?: AbortSignal;
  /** Drops the file in flight. */
  abortSignal?: AbortSignal;
  ledger?: UploadLedger<F>;
  /** Backoff before a ledger sends a file again that the gallery shows did not arrive. */
  retry?: RetryPolicy;
  onBytes?(file: F, sentBytes: number, totalBytes: number): void;
  /** After each file has its outcome; the next file waits for a returned promise. */
  onFile?(result: UploadedFile<F>, index: number): void | Promise<void>;
}

export interface UploadFilesResult<F extends UploadItem> {
  /** One per file, in the files' order. */
  files: UploadedFile<F>[];
  /** Why the run stopped before the last file, when it did (cancelled included). */
  stop?: UploadFailure;
}

const CANCELLED: Pick<UploadFailure, 'kind' | 'stored' | 'scope'> = { kind: 'cancelled', stored: 'no', scope: 'gallery' };

export async function uploadFilesToGallery<F extends UploadItem>(options: UploadFilesOptions<F>): Promise<UploadFilesResult<F>> {
  const results: UploadedFile<F>[] = options.files.map((file) => ({ file, status: 'not-sent', attempts: 0 }));
  let stop: UploadFailure | undefined;
  for (const [index, result] of results.entries()) {
    if (options.signal?.aborted) {
      stop = withMembers(CANCELLED, { error: new CancelledError() });
      break;
    }
    const failure = await sendFile(options, result);
    await options.onFile?.(result, index);
    if (failure && failure.scope === 'gallery') {
      stop = failure;
      break;
    }
  }
  return { files: results, stop };
}

/** Sends one file until it arrived or failed for good; the failure when it did not arrive. */
async function sendFile<F extends UploadItem>(options: UploadFilesOptions<F>, result: UploadedFile<F>): Promise<UploadFailure | undefined> {
  const { file } = result;
  const { ledger } = options;
  for (;;) {
    result.attempts++;
    // A file hashed as it goes out is announced once it is hashed (see UploadItem.hashWhenSent).
    const hashLate = ledger !== undefined && file.hashWhenSent === true && file.content === undefined;
    let announced = hashLate ? undefined : ledger?.announce(file);
    announced?.catch(() => undefined); // awaited below, whatever the upload did
    const announceHashed = (sent: SentContent) => {
      const announcing = ledger!.announce(file, sent);
      announcing.catch(() => undefined);
      announced = announcing;
      return announcing;
    };
    let error: ServiceError | undefined;
    let mediaId: number | undefined;
    try {
      const client = typeof options.client === 'function' ? await options.client(file) : options.client;
      const sent = await client.uploadMedia(options.galleryId, file.path, {
        signal: options.abortSignal,
        fileName: file.name,
        mimeType: file.mimeType,
        content: file.content,
        packed: file.packed,
        sha256: hashLate ? undefined : file.sha256,
        holdEnd: announced,
        hashWhileSending: hashLate ? { size: file.size!, hashed: announceHashed } : undefined,
        onProgress: (sentBytes, totalBytes) => options.onBytes?.(file, sentBytes, totalBytes),
      });
      mediaId = mediaIdOfReply(sent.reply);
    } catch (caught) {
      error = asServiceError(caught);
    }
    // An announcement that failed stopped the body before its end: the ledger's error stops the run.
    await announced;
    if (!error && (!ledger || ledger.accept(file, mediaId))) {
      Object.assign(result, { status: 'arrived', mediaId, how: 'reply', failure: undefined });
      return undefined;
    }
    const failure = error ? classifyUploadFailure(error) : undefined;
    if (failure && (failure.kind === 'cancelled' || failure.kind === 'credentials' || failure.kind === 'refused' || failure.kind === 'changed')) {
      // Nothing stored, or (cancelled, refused credentials) the ledger settles it on the next run.
      result.status = failure.kind === 'cancelled' && failure.stored === 'no' ? 'not-sent' : failure.stored === 'maybe' ? 'unsure' : 'failed';
      result.failure = failure;
      // Refused or changed: known not stored. Cancelled or refused credentials: left announced,
      // for the next run to settle from the gallery.
      if (failure.kind === 'refused' || failure.kind === 'changed') ledger?.forget(file, failure);
      return failure;
    }
    if (!ledger) {
      // Without a ledger nobody can tell whether it arrived: it is never sent again blindly.
      result.status = failure!.stored === 'maybe' ? 'unsure' : 'failed';
      result.failure = failure;
      return failure;
    }
    // Never announced (a file hashed as it went out, stopped before its last byte was read): its
    // final piece never went, so it cannot have arrived, and no gallery read can say otherwise.
    const settled = announced === undefined ? { arrived: false as const } : await ledger.settle(file);
    if (settled.arrived) {
      Object.assign(result, { status: 'arrived', mediaId: settled.mediaId, how: 'settled', failure: undefined });
      return undefined;
    }
    const why = failure ?? {
      kind: 'failed' as UploadFailureKind,
      stored: 'no' as const,
      scope: 'gallery' as const,
      error: new ServiceError('malformed', l10n.t('The reply named no media and the gallery does not hold the file.')),
    };
    const retries = options.retry?.maxRetries ?? 0;
    if (result.attempts > retries) {
      result.status = 'failed';
      const message =
        result.attempts === 1
          ? l10n.t('not stored after 1 attempts: {0}', why.error.message)
          : l10n.t('not stored after {0} attempts: {1}', result.attempts, why.error.message);
      result.failure = withMembers(why, { error: new ServiceError(why.error.kind, message, why.error.details) });
      ledger.forget(file, result.failure);
      return result.failure;
    }
    ledger.forget(file, why);
    try {
      await sleep(retryDelayMs(result.attempts - 1, options.retry!), options.signal);
    } catch (error) {
      if (!isCancellation(error)) throw error;
      result.status = 'not-sent';
      result.failure = withMembers(CANCELLED, { error: new CancelledError() });
      return result.failure;
    }
  }
}

/** What reaches here from below the client that is not a ServiceError is a cancellation or a defect. */
function asServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (isCancellation(error)) return new CancelledError();
  throw error;
}
