// Turns what undici throws into a ServiceError a person can act on: cancelled, past its deadline,
// timed out, or the connection failed, and for a request with a body, how far that body got.
import { CancelledError, ServiceError, isCancellation, type RequestSent, type ServiceErrorDetails } from './errors';
import { describeCertificateProblem } from './certificates';
import { formatSeconds, type AttemptDeadline } from './deadline';
import type { Redactor } from './redact';
import { l10n } from '../text/l10n';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export interface FailureContext {
  /** Who failed, as a message begins: "The import", "Uploading to gallery 3 (a.jpg)". */
  what: string;
  host: string;
  /** The caller's signal: when it fired, the failure is a cancellation. */
  signal?: AbortSignal;
  /** The attempt's deadline: when it passed, the failure is a timeout that says so. */
  deadline?: Pick<AttemptDeadline, 'timedOut' | 'deadlineMs'>;
  /** For a request with a body: how far it got (see RequestSent). */
  requestSent?: RequestSent;
  /** The reply's status, when its head arrived before the failure. */
  status?: number;
  /** Scrubs the transport's own words (which may quote a URL) before they become a message. */
  redactor?: Pick<Redactor, 'redact'>;
}

export function toServiceError(error: unknown, context: FailureContext): ServiceError {
  if (error instanceof ServiceError) return error;
  const { what, host, requestSent } = context;
  const details: ServiceErrorDetails = {
    cause: error,
    ...(requestSent ? { requestSent } : {}),
    ...(context.status !== undefined ? { status: context.status } : {}),
  };
  const deadlinePassed = context.deadline?.timedOut === true;
  if (context.signal?.aborted || (isCancellation(error) && !deadlinePassed)) return new CancelledError(undefined, requestSent ? { requestSent } : {});
  // Where in the exchange the connection was lost, and what follows for the body: 'partly', it
  // cannot have been stored; 'whole', it may have been.
  const lost = requestSent && requestSent !== 'none' ? requestSent : undefined;
  if (deadlinePassed) {
    const seconds = formatSeconds(context.deadline!.deadlineMs ?? 0);
    if (requestSent === 'whole' || requestSent === 'answered') {
      // An upload's deadline runs only once its body went out whole (see uploadFile).
      return new ServiceError(
        'timeout',
        l10n.t(
          '{0}: the whole file was sent, but the reply from {1} did not finish within {2} s, so the request was stopped; the file may have been stored. Check the gallery before sending it again.',
          what,
          host,
          seconds,
        ),
        details,
      );
    }
    const message =
      lost === 'partly'
        ? l10n.t(
            '{0} got no complete reply from {1} within {2} s and was stopped; it cannot have been stored. The server may be overloaded: try again later.',
            what,
            host,
            seconds,
          )
        : l10n.t('{0} got no complete reply from {1} within {2} s and was stopped. The server may be overloaded: try again later.', what, host, seconds);
    return new ServiceError('timeout', message, details);
  }
  const code = (error as { code?: string } | undefined)?.code ?? '';
  if (TIMEOUT_CODES.has(code)) return new ServiceError('timeout', timedOut(what, host, lost), details);
  const words = context.redactor?.redact(error instanceof Error ? error.message : String(error)) ?? String(error);
  if (lost) return new ServiceError('network', connectionLost(what, host, lost, code || words), details);
  const reason = describeNetworkCode(code) ?? words;
  return new ServiceError('network', l10n.t('{0} could not reach {1}: {2}', what, host, reason), details);
}

/** An idle timeout of the connection, by how far the request got. */
function timedOut(what: string, host: string, lost: Exclude<RequestSent, 'none'> | undefined): string {
  switch (lost) {
    case 'partly':
      return l10n.t('{0} timed out waiting for {1} while the file was being sent; it cannot have been stored. Check the connection or try again.', what, host);
    case 'whole':
      return l10n.t(
        '{0} timed out waiting for {1} after the whole file was sent, before any reply; it may have been stored. Check the connection or try again.',
        what,
        host,
      );
    case 'answered':
      return l10n.t('{0} timed out waiting for {1} while the reply was being read. Check the connection or try again.', what, host);
    default:
      return l10n.t('{0} timed out waiting for {1}. Check the connection or try again.', what, host);
  }
}

/** The connection broke after the request began to go out; `cause` is the transport's code or words. */
function connectionLost(what: string, host: string, lost: Exclude<RequestSent, 'none'>, cause: string): string {
  switch (lost) {
    case 'partly':
      return l10n.t('{0} failed: the connection to {1} was lost while the file was being sent ({2}); it cannot have been stored.', what, host, cause);
    case 'whole':
      return l10n.t(
        '{0} failed: the connection to {1} was lost after the whole file was sent, before any reply ({2}); it may have been stored.',
        what,
        host,
        cause,
      );
    case 'answered':
      return l10n.t('{0} failed: the connection to {1} was lost while the reply was being read ({2}).', what, host, cause);
  }
}

function describeNetworkCode(code: string): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return l10n.t('the connection was refused (is the server running?).');
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return l10n.t('the connection was dropped before a reply arrived.');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return l10n.t('the host name could not be resolved.');
    default: {
      const certificate = describeCertificateProblem(code);
      return certificate && `${certificate}.`;
    }
  }
}
