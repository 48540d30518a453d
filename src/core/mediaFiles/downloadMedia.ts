// Fetches one media file from the files host. The files host is public (public clients of the
// platform load images from it without a token), so no bearer goes there: a token for the API
// must never reach another host. The body is read chunk by chunk against a limit; past the limit
// the request is dropped and the caller asked (a question may take longer than any idle timeout,
// so the download starts over once the answer is yes). Each download has an overall deadline: a
// server that drips its reply trips no idle timeout.
import { request, type Dispatcher } from 'undici';
import { CancelledError, ServiceError, throwIfAborted } from '../api/errors';
import { defaultDispatcher } from '../api/http';
import { AttemptDeadline } from '../api/deadline';
import { DEFAULT_DOWNLOAD_DEADLINE_MS } from '../api/requestDefaults';
import { toServiceError } from '../api/networkError';
import { discard, httpError, readText } from '../api/readReply';
import { Redactor } from '../api/redact';
import { requireSecureUrl } from '../api/secureUrl';
import { refusedRedirect } from '../api/redirectPolicy';
import { formatDecimal, l10n } from '../text/l10n';

/** Above this the caller is asked (the extension's spotImport.media.askBeforeDownloadMB). */
export const DEFAULT_ASK_ABOVE_BYTES = 10 * 1024 * 1024;
/** Never more than this, asked or not: the bytes are held in memory. */
export const MAX_MEDIA_BYTES = 1024 * 1024 * 1024;
const MAX_REDIRECTS = 5;

export interface MediaDownloadOptions {
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  /** Bytes received so far, and the size the server announced (undefined when it did not). */
  onProgress?: (received: number, total: number | undefined) => void;
  /** Files larger than this need confirmLarge's yes; without confirmLarge they fail (MediaTooLargeError). */
  askAboveBytes?: number;
  /**
   * Asked once, when the file turns out larger than askAboveBytes: with the announced size, or
   * undefined when the server announced none and more than askAboveBytes arrived.
   */
  confirmLarge?: (announcedBytes: number | undefined) => Promise<boolean>;
  /** Hard limit (default MAX_MEDIA_BYTES). */
  maxBytes?: number;
  /**
   * Overall time for one download, its redirects and body included (default DEFAULT_DOWNLOAD_DEADLINE_MS):
   * a server that drips a byte at a time never trips the idle timeout.
   */
  deadlineMs?: number;
  /** Who is downloading, as a message begins (default "Downloading the media file"). */
  what?: string;
  redactor?: Redactor;
}

export interface DownloadedMedia {
  bytes: Uint8Array;
  /** The reply's Content-Type, without parameters; undefined when absent. */
  contentType?: string;
  /** Where the bytes came from in the end (after redirects). */
  url: string;
}

/** The file is larger than the caller allows. */
export class MediaTooLargeError extends ServiceError {
  constructor(
    what: string,
    readonly limitBytes: number,
    readonly announcedBytes: number | undefined,
  ) {
    super(
      'configuration',
      announcedBytes !== undefined
        ? l10n.t('{0}: the file is larger than {1} ({2}).', what, formatBytes(limitBytes), formatBytes(announcedBytes))
        : l10n.t('{0}: the file is larger than {1}.', what, formatBytes(limitBytes)),
    );
    this.name = 'MediaTooLargeError';
  }
}

/**
 * Downloads the file at `url` (https, or http on this machine). Fails with a ServiceError: 'http'
 * for a non-2xx answer (in the server's words), 'network' or 'timeout', 'cancelled' when the
 * signal fired or the caller declined a large file, MediaTooLargeError past the limit.
 */
export async function downloadMedia(url: string | URL, options: MediaDownloadOptions = {}): Promise<DownloadedMedia> {
  const askAbove = options.askAboveBytes ?? DEFAULT_ASK_ABOVE_BYTES;
  const hardLimit = options.maxBytes ?? MAX_MEDIA_BYTES;
  const what = options.what ?? l10n.t('Downloading the media file');
  const first = await fetchWithin(url, Math.min(askAbove, hardLimit), what, options);
  if (!(first instanceof MediaTooLargeError)) return first;
  if (!options.confirmLarge || askAbove >= hardLimit) throw first;
  throwIfAborted(options.signal);
  if (!(await options.confirmLarge(first.announcedBytes)))
    throw new CancelledError(l10n.t('{0}: not downloaded (larger than {1}).', what, formatBytes(askAbove)));
  const second = await fetchWithin(url, hardLimit, what, options);
  if (second instanceof MediaTooLargeError) throw second;
  return second;
}

/** One download that stops (and answers MediaTooLargeError) as soon as the file exceeds `limit`. */
/** The slowest a download may arrive before its deadline cuts it off: a line far slower than any that plays a video. */
const SLOWEST_BYTES_PER_SECOND = 128 * 1024;

/**
 * A download's overall deadline: DEFAULT_DOWNLOAD_DEADLINE_MS, or longer when the most it may hold
 * (the limit the person agreed to, up to 1 GiB) needs longer at SLOWEST_BYTES_PER_SECOND. A
 * server that drips is still cut off; a large video on a slow line is not.
 */
export function downloadDeadlineMs(limitBytes: number): number {
  return Math.max(DEFAULT_DOWNLOAD_DEADLINE_MS, Math.ceil((limitBytes / SLOWEST_BYTES_PER_SECOND) * 1000));
}

async function fetchWithin(start: string | URL, limit: number, what: string, options: MediaDownloadOptions): Promise<DownloadedMedia | MediaTooLargeError> {
  const redactor = options.redactor ?? new Redactor();
  let current = requireSecureUrl(String(start), 'media address');
  // One clock for the whole download, redirects included (each request's signal ends its body too).
  const deadline = new AttemptDeadline(options.signal, options.deadlineMs ?? downloadDeadlineMs(limit));
  const failure = (error: unknown, status?: number) =>
    toServiceError(error, { what, host: current.host, signal: options.signal, deadline, redactor, ...(status !== undefined ? { status } : {}) });
  try {
    for (let redirects = 0; ; redirects++) {
      throwIfAborted(options.signal);
      let response: Dispatcher.ResponseData;
      try {
        response = await request(current, {
          method: 'GET',
          dispatcher: options.dispatcher ?? defaultDispatcher(),
          signal: deadline.signal,
          headers: { accept: '*/*' },
        });
      } catch (error) {
        throw failure(error);
      }
      const status = response.statusCode;
      if (status >= 300 && status < 400 && status !== 304 && typeof response.headers.location === 'string') {
        await discard(response.body);
        if (redirects >= MAX_REDIRECTS) throw new ServiceError('http', l10n.t('{0} failed: more than {1} redirects.', what, MAX_REDIRECTS), { status });
        current = nextLocation(current, response.headers.location, what);
        continue;
      }
      try {
        if (status < 200 || status >= 300) {
          const text = await readText(response.body, what, response.headers);
          throw httpError(what, status, text, { redactor });
        }
        return await readBody(response, current, limit, what, options);
      } catch (error) {
        drop(response.body);
        throw failure(error, status);
      }
    }
  } finally {
    deadline.dispose();
  }
}

async function readBody(
  response: Dispatcher.ResponseData,
  url: URL,
  limit: number,
  what: string,
  options: MediaDownloadOptions,
): Promise<DownloadedMedia | MediaTooLargeError> {
  const announced = Number(response.headers['content-length']);
  const total = Number.isSafeInteger(announced) && announced >= 0 ? announced : undefined;
  if (total !== undefined && total > limit) {
    drop(response.body);
    return new MediaTooLargeError(what, limit, total);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  options.onProgress?.(0, total);
  for await (const chunk of response.body) {
    received += (chunk as Buffer).length;
    if (received > limit) {
      drop(response.body);
      return new MediaTooLargeError(what, limit, total);
    }
    chunks.push(chunk as Buffer);
    options.onProgress?.(received, total);
  }
  const type = response.headers['content-type'];
  const contentType = typeof type === 'string' ? type.split(';')[0].trim().toLowerCase() || undefined : undefined;
  return { bytes: Buffer.concat(chunks, received), url: url.toString(), ...(contentType ? { contentType } : {}) };
}

/** Stops reading a reply: the connection is closed (its abort error has nobody to tell). */
function drop(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** A redirect target: relative to the current address, and one redirectPolicy.ts lets a download follow. */
function nextLocation(current: URL, location: string, what: string): URL {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new ServiceError('http', l10n.t('The files host at {0} redirected to "{1}", which is not an address.', current.host, location));
  }
  const refusal = refusedRedirect(current, next);
  if (refusal) throw new ServiceError('configuration', l10n.t('{0} failed: {1}.', what, refusal));
  return requireSecureUrl(next.toString(), 'media address');
}

/** "10 MB", "1.5 MB" ("1,5 MB" in German), "800 KB": sizes in words (1 MB = 1,048,576 bytes, as the setting counts). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${trim(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KB`;
  return l10n.t('{0} bytes', bytes);
}

function trim(value: number): string {
  return value >= 10 || Number.isInteger(value) ? String(Math.round(value)) : formatDecimal(value, 1);
}
