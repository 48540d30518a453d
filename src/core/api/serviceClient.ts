// The three operations of the service over undici: import a spot, read a gallery, upload media.
// Every call carries a bearer token, renews it once on 401, and takes an AbortSignal.
import { request, type Dispatcher } from 'undici';
import { AuthenticationError, ServiceError, throwIfAborted } from './errors';
import { discard, httpError, parseReply, readText, scrub } from './readReply';
import { galleryReplySchema, importReplySchema, toGallery, toImportResult, type Gallery, type ImportResult } from './replySchemas';
import { DEFAULT_RETRY_POLICY, isRetryableNetworkError, isRetryableStatus, parseRetryAfter, retryDelayMs, sleep, type RetryPolicy } from './retryPolicy';
import { joinUrl, requireSecureUrl } from './secureUrl';
import { defaultDispatcher } from './http';
import { pendingGalleryFields } from './spotSchema';
import { toServiceError } from './networkError';
import type { TokenSource } from './tokenSource';
import { uploadFile, type UploadOptions, type UploadResult } from '../upload/uploadFile';

export interface ServiceClientOptions {
  baseUrl: string;
  /** The version segment of API paths (default v2.4). */
  apiVersion?: string;
  tokens: Pick<TokenSource, 'getToken' | 'invalidate'>;
  dispatcher?: Dispatcher;
  retry?: Partial<RetryPolicy>;
  /** Multipart field that carries the file (default data[attributes][file]). */
  fileFieldName?: string;
}

/** One media item's place in its gallery: lower orderWeight comes first. */
export interface MediaOrderEntry {
  id: number;
  orderWeight: number;
}

interface SendOptions {
  body?: string;
  contentType?: string;
  /** Safe to send again after 429/503 or a dropped connection. */
  retryable: boolean;
  signal?: AbortSignal;
}

export class ServiceClient {
  readonly apiRoot: string;
  private readonly host: string;
  private readonly policy: RetryPolicy;

  constructor(private readonly options: ServiceClientOptions) {
    const base = requireSecureUrl(options.baseUrl, 'base URL');
    this.host = base.host;
    this.apiRoot = joinUrl(base.toString(), `/api/${options.apiVersion ?? 'v2.4'}`);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  }

  /**
   * Creates or updates (by source_id) one spot. Imports are upserts, so retrying is safe.
   * `text`: the document's JSON as read from a file, when the caller has it, sent as written
   * rather than serialised again.
   */
  async importSpot(document: unknown, options: { signal?: AbortSignal; text?: string } = {}): Promise<ImportResult> {
    const { status, text } = await this.send('The import', 'POST', '/spots/import', {
      body: options.text ?? JSON.stringify(document),
      contentType: 'application/json',
      retryable: true,
      signal: options.signal,
    });
    return toImportResult(parseReply(importReplySchema, text, 'the import', status), requestedPendingFields(document));
  }

  async getGallery(galleryId: number, options: { signal?: AbortSignal } = {}): Promise<Gallery> {
    requireGalleryId(galleryId);
    const { status, text } = await this.send(`Reading gallery ${galleryId}`, 'GET', `/galleries/${galleryId}`, {
      retryable: true,
      signal: options.signal,
    });
    return toGallery(parseReply(galleryReplySchema, text, `reading gallery ${galleryId}`, status));
  }

  /**
   * Sets the order of a gallery's media: lower weights come first, gaps are allowed, and only the
   * media whose place changes need to be listed. Sent as the form fields the platform documents
   * (data[][id], data[][attributes][orderWeight]); setting the same weights again is harmless, so
   * it is retried like a read.
   */
  async setMediaOrder(galleryId: number, entries: ReadonlyArray<MediaOrderEntry>, options: { signal?: AbortSignal } = {}): Promise<void> {
    requireGalleryId(galleryId);
    if (entries.length === 0) return;
    const form = new URLSearchParams();
    for (const entry of entries) {
      form.append('data[][id]', String(entry.id));
      form.append('data[][attributes][orderWeight]', String(entry.orderWeight));
    }
    await this.send(`Ordering the media of gallery ${galleryId}`, 'POST', `/galleries/${galleryId}/media/order`, {
      body: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
      retryable: true,
      signal: options.signal,
    });
  }

  /**
   * Streams one file from disk into a gallery. Not retried after 429/503 or a drop, since part of
   * it may have arrived; a 401 (nothing stored) renews the token and sends it once more.
   */
  async uploadMedia(galleryId: number, filePath: string, options: UploadOptions = {}): Promise<UploadResult> {
    requireGalleryId(galleryId);
    const url = joinUrl(this.apiRoot, `/galleries/${galleryId}/media`);
    const what = `Uploading to gallery ${galleryId}`;
    for (let renewed = false; ; renewed = true) {
      const token = await this.options.tokens.getToken(options.signal);
      const outcome = await uploadFile(url, filePath, {
        ...options,
        galleryId,
        token: token.value,
        dispatcher: this.options.dispatcher ?? defaultDispatcher(),
        fieldName: this.options.fileFieldName ?? 'data[attributes][file]',
        what,
        host: this.host,
      });
      if (outcome.status !== 401) return outcome.result;
      this.options.tokens.invalidate(token.value);
      if (renewed) throw refusedAgain(what);
    }
  }

  private async send(what: string, method: 'GET' | 'POST', path: string, options: SendOptions): Promise<{ status: number; text: string }> {
    const url = joinUrl(this.apiRoot, path);
    let renewed = false;
    for (let retries = 0; ; ) {
      throwIfAborted(options.signal);
      const token = await this.options.tokens.getToken(options.signal);
      let status: number;
      let text: string;
      let retryAfterMs: number | undefined;
      try {
        const response = await request(url, {
          method,
          dispatcher: this.options.dispatcher ?? defaultDispatcher(),
          signal: options.signal,
          headers: {
            authorization: `Bearer ${token.value}`,
            accept: 'application/vnd.api+json',
            ...(options.contentType ? { 'content-type': options.contentType } : {}),
          },
          body: options.body,
        });
        status = response.statusCode;
        retryAfterMs = parseRetryAfter(response.headers['retry-after']);
        if (status === 401 || (options.retryable && isRetryableStatus(status) && retries < this.policy.maxRetries)) {
          await discard(response.body);
          text = '';
        } else {
          text = await readText(response.body, what, response.headers);
        }
      } catch (error) {
        if (options.retryable && isRetryableNetworkError(error) && !options.signal?.aborted && retries < this.policy.maxRetries) {
          await sleep(retryDelayMs(retries++, this.policy), options.signal);
          continue;
        }
        throw toServiceError(error, what, this.host, options.signal);
      }
      if (status === 401) {
        this.options.tokens.invalidate(token.value);
        if (renewed) throw refusedAgain(what);
        renewed = true;
        continue;
      }
      if (options.retryable && isRetryableStatus(status) && retries < this.policy.maxRetries) {
        await sleep(retryDelayMs(retries++, this.policy, retryAfterMs), options.signal);
        continue;
      }
      if (status < 200 || status >= 300) throw httpError(what, status, scrub(text, [token.value]), retryAfterMs);
      return { status, text };
    }
  }
}

function requestedPendingFields(document: unknown): string[] | undefined {
  const attributes = (document as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  return typeof attributes === 'object' && attributes !== null ? pendingGalleryFields(attributes as Record<string, unknown>) : undefined;
}

function requireGalleryId(galleryId: number): void {
  if (!Number.isSafeInteger(galleryId) || galleryId <= 0) {
    throw new ServiceError('configuration', `"${galleryId}" is not a gallery id: use a positive whole number.`);
  }
}

function refusedAgain(what: string): AuthenticationError {
  return new AuthenticationError(`${what} was refused (HTTP 401) even with a fresh access token. Check the client's credentials and permissions.`, { status: 401 });
}
