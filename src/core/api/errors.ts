// Typed failures of the service core. Every message is written for a person: it names what went
// wrong, the server's own words when there are some, and never a token or a secret (the text is
// scrubbed by the redactor before a message is built from it). No dependencies but the core's
// messages (text/l10n.ts, which the extension bundles anyway): the extension bundles this file to
// recognise the core's errors without loading the core.
import { l10n } from '../text/l10n';

export type ServiceErrorKind = 'authentication' | 'http' | 'network' | 'timeout' | 'malformed' | 'cancelled' | 'configuration';

/**
 * How far a request that carries a body (an upload) got before it failed. What may be sent again
 * depends on it: a body that did not go out whole cannot have been stored.
 * - 'none': nothing of the request went out (no connection, no token, an unreadable file).
 * - 'partly': part of the body went out, then the connection broke or the caller cancelled, and
 *   no reply came.
 * - 'whole': the whole body went out (handed to the connection) and no reply came: the server may
 *   have acted on it.
 * - 'answered': the server replied; `status` says how.
 */
export type RequestSent = 'none' | 'partly' | 'whole' | 'answered';

export interface ServiceErrorDetails {
  status?: number;
  /** The server's own words, scrubbed of secrets. */
  serverMessage?: string;
  /** The wait the server asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** When that wait ends (epoch milliseconds). */
  retryAt?: number;
  /** Set on failures of uploads; see RequestSent. */
  requestSent?: RequestSent;
  cause?: unknown;
}

export class ServiceError extends Error {
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    readonly details: ServiceErrorDetails = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }
  get status(): number | undefined {
    return this.details.status;
  }
  get serverMessage(): string | undefined {
    return this.details.serverMessage;
  }
  get requestSent(): RequestSent | undefined {
    return this.details.requestSent;
  }
}

/** The credentials were refused (invalid_client), or a renewed token was refused again. */
export class AuthenticationError extends ServiceError {
  constructor(message: string, details: ServiceErrorDetails = {}) {
    super('authentication', message, details);
    this.name = 'AuthenticationError';
  }
}

/** The caller's AbortSignal fired. UIs stay silent about these. */
export class CancelledError extends ServiceError {
  constructor(message = 'Cancelled.', details: ServiceErrorDetails = {}) {
    super('cancelled', message, details);
    this.name = 'CancelledError';
  }
}

/**
 * The server answered, but not in the shape the interface promises. `what` names the request as
 * the message's object ("the import", "reading gallery 3"): "The server sent an unexpected reply
 * to {what}: {problem}". Or the whole message, when it names the request another way (a reply
 * too large, see replyTooLarge).
 */
export class MalformedReplyError extends ServiceError {
  constructor(what: string, problem: string, status?: number);
  constructor(whole: { message: string; status?: number });
  constructor(what: string | { message: string; status?: number }, problem?: string, status?: number) {
    const message = typeof what === 'string' ? l10n.t('The server sent an unexpected reply to {0}: {1}', what, problem!) : what.message;
    super('malformed', message, { status: typeof what === 'string' ? status : what.status });
    this.name = 'MalformedReplyError';
  }
}

/**
 * A file being uploaded is not the file that was meant: it changed size while it was sent, or its
 * content is no longer the content the caller hashed. The request was stopped before its end, so
 * nothing was stored; sending it again as it is now would fail the same way.
 */
export class FileChangedError extends ServiceError {
  constructor(
    readonly path: string,
    message: string,
  ) {
    // Only ever raised while the body goes out, before its final piece.
    super('configuration', message, { requestSent: 'partly' });
    this.name = 'FileChangedError';
  }
}

/** Error names that mean "cancelled": an AbortSignal's, the core's, and a host's (VS Code's CancellationError is named 'Canceled'). */
const CANCELLATION_NAMES = new Set(['AbortError', 'CancelledError', 'Canceled']);

/**
 * Cancellation, whoever raised it. Read by shape, not class: the extension meets errors of the
 * core's bundle, whose classes are not its own.
 */
export function isCancellation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (error as { kind?: unknown }).kind === 'cancelled' || CANCELLATION_NAMES.has(error.name);
}

/** Throws CancelledError when the signal has fired: call it between steps of long work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}
