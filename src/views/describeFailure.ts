// Turns an error from the core (or from getting a client) into the short words of a message node
// and the one action most likely to fix it (the first the one policy, errorActions.ts, offers).
// Duck-typed on `kind`/`status` because the core is loaded lazily: its classes are not available
// here as values.
import type * as Core from '../core';
import { actionsFor } from '../platform/errorActions';
import { UNTRUSTED_CERTIFICATE_ADVICE, untrustedCertificateCode } from '../platform/errors';
import { COMMAND } from '../platform/commandIds';

export interface FailureHint {
  title: string;
  command: string;
  /** When true the command receives the gallery node, so it acts on the right gallery. */
  passNode?: boolean;
  args?: unknown[];
}

export interface FailureDescription {
  message: string;
  detail: string;
  hint: FailureHint;
}

const RETRY: FailureHint = { title: 'Retry', command: COMMAND.refreshGallery, passNode: true };
/** A setting of the profile is wrong (its address, say): new credentials would not help. */
const SWITCH_PROFILE: FailureHint = { title: 'Switch Profile…', command: COMMAND.switchProfile };
/** Shown under the gallery's own row: a gallery the service does not have can leave the view. */
const REMOVE_FROM_VIEW: FailureHint = { title: 'Remove from View', command: COMMAND.removeGallery, passNode: true };

function asServiceError(error: unknown): Partial<Core.ServiceError> & { message: string } {
  if (error && typeof error === 'object') return error as Partial<Core.ServiceError> & { message: string };
  return { message: String(error) };
}

/** The node's words by the kind of failure; its button is the one policy's (errorActions.ts) first. */
export function describeFailure(error: unknown): FailureDescription {
  const failure = asServiceError(error);
  const words = failure.serverMessage ?? failure.message ?? 'unknown error';
  const detail = failure.message ?? words;
  const hint: FailureHint = actionsFor(error, { notFound: REMOVE_FROM_VIEW, configuration: SWITCH_PROFILE, retry: RETRY })[0] ?? RETRY;
  return { message: wordsFor(failure, words, error), detail: untrustedCertificateCode(error) ? `${detail} ${UNTRUSTED_CERTIFICATE_ADVICE}` : detail, hint };
}

function wordsFor(failure: Partial<Core.ServiceError>, words: string, error: unknown): string {
  switch (failure.kind) {
    case 'authentication':
      return `Credentials rejected: ${words}`;
    case 'network':
      return untrustedCertificateCode(error) ? `Certificate not trusted: ${words}` : `Service not reachable: ${words}`;
    case 'timeout':
      return `Service not reachable: ${words}`;
    case 'cancelled':
      return 'Loading was cancelled';
    case 'malformed':
      return `Unexpected reply: ${words}`;
    case 'http':
      // Shown under the gallery's own row, so the words need not repeat its id.
      if (failure.status === 404) return `Not found (404): ${words}`;
      if (failure.status === 403) return `Access denied (403): ${words}`;
      return `Service answered ${failure.status ?? 'an error'}: ${words}`;
    default:
      // An ActionableError of the extension layer ("no credentials yet"), or a bad address: its own words.
      return words;
  }
}
