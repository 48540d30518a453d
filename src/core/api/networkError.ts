// Turns what undici throws into a ServiceError a person can act on: cancelled, past its deadline,
// timed out, or the connection failed, and for a request with a body, how far that body got.
import { CancelledError, ServiceError, isCancellation, type RequestSent, type ServiceErrorDetails } from './errors';
import { describeCertificateProblem } from './certificates';
import { formatSeconds, type AttemptDeadline } from './deadline';
import type { Redactor } from './redact';

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

/** Where in the exchange the connection was lost, and what follows for the body. */
const LOST: Record<Exclude<RequestSent, 'none'>, { when: string; so?: string }> = {
  partly: { when: 'while the file was being sent', so: 'it cannot have been stored' },
  whole: { when: 'after the whole file was sent, before any reply', so: 'it may have been stored' },
  answered: { when: 'while the reply was being read' },
};

export function toServiceError(error: unknown, context: FailureContext): ServiceError {
  if (error instanceof ServiceError) return error;
  const { what, host, requestSent } = context;
  const details: ServiceErrorDetails = { cause: error, ...(requestSent ? { requestSent } : {}), ...(context.status !== undefined ? { status: context.status } : {}) };
  const deadlinePassed = context.deadline?.timedOut === true;
  if (context.signal?.aborted || (isCancellation(error) && !deadlinePassed)) return new CancelledError(undefined, requestSent ? { requestSent } : {});
  const lost = requestSent && requestSent !== 'none' ? LOST[requestSent] : undefined;
  const consequence = lost?.so ? `; ${lost.so}` : '';
  if (deadlinePassed) {
    const seconds = formatSeconds(context.deadline!.deadlineMs ?? 0);
    if (requestSent === 'whole' || requestSent === 'answered') {
      // An upload's deadline runs only once its body went out whole (see uploadFile).
      return new ServiceError(
        'timeout',
        `${what}: the whole file was sent, but the reply from ${host} did not finish within ${seconds} s, so the request was stopped; the file may have been stored. Check the gallery before sending it again.`,
        details,
      );
    }
    return new ServiceError('timeout', `${what} got no complete reply from ${host} within ${seconds} s and was stopped${consequence}. The server may be overloaded: try again later.`, details);
  }
  const code = (error as { code?: string } | undefined)?.code ?? '';
  if (TIMEOUT_CODES.has(code)) {
    const when = lost ? ` ${lost.when}` : '';
    return new ServiceError('timeout', `${what} timed out waiting for ${host}${when}${consequence}. Check the connection or try again.`, details);
  }
  const words = context.redactor?.redact(error instanceof Error ? error.message : String(error)) ?? String(error);
  if (lost) {
    return new ServiceError('network', `${what} failed: the connection to ${host} was lost ${lost.when} (${code || words})${consequence}.`, details);
  }
  const reason = describeNetworkCode(code) ?? words;
  return new ServiceError('network', `${what} could not reach ${host}: ${reason}`, details);
}

function describeNetworkCode(code: string): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (is the server running?).';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'the connection was dropped before a reply arrived.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved.';
    default: {
      const certificate = describeCertificateProblem(code);
      return certificate && `${certificate}.`;
    }
  }
}
