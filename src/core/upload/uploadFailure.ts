// What a failed upload means, decided once for every way files go into a gallery (the Explorer,
// drag and drop, the media workflow, spot-import upload): whether the file may be stored, and
// whether the next file of the run may still go.
import { isCancellation, type ServiceError } from '../api/errors';

export type UploadFailureKind =
  /** The caller stopped it. */
  | 'cancelled'
  /** The credentials were refused (401, the token endpoint), or may not do this (403). */
  | 'credentials'
  /** The service said no to this file (a 4xx about it: type, size, content): nothing was stored. */
  | 'refused'
  /** The file changed while it was sent: stopped before its end, so nothing was stored. */
  | 'changed'
  /** The gallery is not there (404). */
  | 'no-gallery'
  /** Anything else: the network, a timeout, 408, 429, 5xx after the client's retries, an odd reply. */
  | 'failed';

export interface UploadFailure {
  kind: UploadFailureKind;
  error: ServiceError;
  /**
   * 'maybe': the whole body went out and no usable answer came, so the service may have stored
   * it (sending it again blindly could store it twice); 'no': it cannot have been stored.
   */
  stored: 'no' | 'maybe';
  /** 'file': only this file failed, the next may go; 'gallery': the next would fail the same way. */
  scope: 'file' | 'gallery';
}

/** `error` as the core's uploads throw it (a ServiceError, or a cancellation from below). */
export function classifyUploadFailure(error: ServiceError): UploadFailure {
  const kind = kindOf(error);
  const stored = mayBeStored(error) ? 'maybe' : 'no';
  return { kind, error, stored, scope: kind === 'refused' || kind === 'changed' ? 'file' : 'gallery' };
}

function kindOf(error: ServiceError): UploadFailureKind {
  if (isCancellation(error)) return 'cancelled';
  if (error.name === 'FileChangedError') return 'changed';
  if (error.kind === 'authentication') return 'credentials';
  const status = error.kind === 'http' ? error.status : undefined;
  if (status === 403) return 'credentials';
  if (status === 404) return 'no-gallery';
  if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) return 'refused';
  return 'failed';
}

/**
 * The core says how far the last attempt got (requestSent; absent: nothing went out). The whole
 * body went out and no answer came, or a success answer came and then its reading broke. A body
 * that went out only in part cannot be stored, and a refusal stored nothing.
 */
function mayBeStored(error: ServiceError): boolean {
  if (error.requestSent === 'whole') return true;
  return error.requestSent === 'answered' && error.kind !== 'http' && error.status !== undefined && error.status >= 200 && error.status < 300;
}
