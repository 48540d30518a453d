// When and how long to wait before trying a request again. Hand-written on purpose: undici's
// RetryAgent has no jitter and cannot sit inside the 401 renew-and-replay step, and the whole
// policy is the few lines below.
import { CancelledError, ServiceError } from './errors';
import { DEFAULT_MAX_RETRIES } from './requestDefaults';
import { l10n } from '../text/l10n';

export interface RetryPolicy {
  /** Retries after the first attempt (default DEFAULT_MAX_RETRIES). */
  maxRetries: number;
  /** First backoff step (default 250 ms); doubles per attempt. */
  baseMs: number;
  /** Upper bound of one wait, Retry-After included (default 30 s). */
  maxMs: number;
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: DEFAULT_MAX_RETRIES, baseMs: 250, maxMs: 30_000, random: Math.random };

/** Statuses that mean "not now" rather than "no". */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/** Errors that mean the connection dropped or could not be made, before any answer. */
export function isRetryableNetworkError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return (
    code === 'ECONNRESET' ||
    code === 'ECONNREFUSED' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_CLOSED' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  );
}

/** Full jitter (a random wait up to the exponential step), but never less than Retry-After. */
export function retryDelayMs(attempt: number, policy: RetryPolicy, retryAfterMs?: number): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  const jittered = Math.round(policy.random() * step);
  return Math.min(policy.maxMs, Math.max(jittered, retryAfterMs ?? 0));
}

/** A failed attempt as the policy judges it: the server's answer (its status and Retry-After), or the transport's error. */
export type RetryFailure = { status: number; retryAfterMs?: number } | { networkError: unknown };

/**
 * How long to wait before sending a failed attempt again, or undefined to give up with its error:
 * retries are used up, the failure is not one that means "not now", or the server asked to wait
 * longer than the policy ever waits (coming back early would only be refused again; the error
 * says when to try).
 */
export function retryDelayAfter(failure: RetryFailure, attempt: number, policy: RetryPolicy): number | undefined {
  if (attempt >= policy.maxRetries) return undefined;
  if ('networkError' in failure) return isRetryableNetworkError(failure.networkError) ? retryDelayMs(attempt, policy) : undefined;
  if (!isRetryableStatus(failure.status)) return undefined;
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxMs) return undefined;
  return retryDelayMs(attempt, policy, failure.retryAfterMs);
}

/** retryDelayAfter for the service client's errors. */
export function retryDelayFor(error: unknown, attempt: number, policy: RetryPolicy): number | undefined {
  if (!(error instanceof ServiceError)) return undefined;
  if (error.kind === 'network') return retryDelayAfter({ networkError: error.details.cause }, attempt, policy);
  if (error.kind !== 'http' || error.status === undefined) return undefined;
  return retryDelayAfter({ status: error.status, retryAfterMs: error.details.retryAfterMs }, attempt, policy);
}

/**
 * "The server asked to wait 120 s (until 17:42:10) before trying again.": the wait a server asked
 * for, and when it ends (local time).
 */
export function describeWait(retryAfterMs: number, retryAt: number): string {
  const at = new Date(retryAt);
  const pad = (value: number) => String(value).padStart(2, '0');
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  // A wait past today's end names the day too.
  const sameDay = new Date(retryAt - retryAfterMs).toDateString() === at.toDateString();
  const when = sameDay ? time : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
  return l10n.t('The server asked to wait {0} s (until {1}) before trying again.', Math.ceil(retryAfterMs / 1000), when);
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
