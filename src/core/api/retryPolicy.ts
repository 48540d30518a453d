// When and how long to wait before trying a request again. Hand-written on purpose: undici's
// RetryAgent has no jitter and cannot sit inside the 401 renew-and-replay step, and the whole
// policy is the few lines below.
import { CancelledError } from './errors';

export interface RetryPolicy {
  /** Retries after the first attempt (default 5). */
  maxRetries: number;
  /** First backoff step (default 250 ms); doubles per attempt. */
  baseMs: number;
  /** Upper bound of one wait, Retry-After included (default 30 s). */
  maxMs: number;
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 5, baseMs: 250, maxMs: 30_000, random: Math.random };

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
