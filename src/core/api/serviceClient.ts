// The operations of the service over undici: import a spot, read a gallery, order its media,
// upload media. Every call carries a bearer token, renews it once when it is refused, takes an
// AbortSignal, and fails with a ServiceError whose words were scrubbed of every secret.
import type { Dispatcher } from 'undici';
import { AuthenticationError, ServiceError, throwIfAborted, type ServiceErrorDetails } from './errors';
import { httpError, parseReply, wordsOf, type RequestWords } from './readReply';
import { shortRequest } from './shortRequest';
import { galleryReplySchema, importReplySchema, toGallery, toImportResult, type Gallery, type ImportResult } from './replySchemas';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelayFor, sleep, type RetryPolicy } from './retryPolicy';
import { joinUrl, requireSecureUrl } from './secureUrl';
import { defaultDispatcher } from './http';
import { pendingGalleryFields } from './spotSchema';
import { toServiceError } from './networkError';
import { RequestDeadline } from './deadline';
import { DEFAULT_API_VERSION } from './apiVersion';
import { DEFAULT_REQUEST_DEADLINE_MS } from './requestDefaults';
import { Redactor } from './redact';
import type { TokenSource } from './tokenSource';
import { DEFAULT_FILE_FIELD_NAME } from './fileField';
import { uploadFile, type UploadOptions, type UploadResult } from './uploadFile';
import { l10n } from '../text/l10n';
import { withMembers } from '../objects/withMembers';

export interface ServiceClientOptions {
  baseUrl: string;
  /** The version segment of API paths (default DEFAULT_API_VERSION). */
  apiVersion?: string;
  /** A TokenSource; its redactor (when it has one) scrubs this client's messages too. */
  tokens: Pick<TokenSource, 'getToken' | 'invalidate'> & { readonly redactor?: Redactor };
  dispatcher?: Dispatcher;
  retry?: Partial<RetryPolicy>;
  /** Multipart field that carries the file (default data[attributes][file]). */
  fileFieldName?: string;
  /**
   * Overall time for one attempt of an import, a gallery read or an ordering, its reply included
   * (default DEFAULT_REQUEST_DEADLINE_MS): the dispatcher's idle timeouts do not end a reply that
   * drips. For an upload it is the time for the reply once the whole file went out: sending the
   * file has no such deadline, since a large file on a slow line may rightly take long (it ends
   * only when nothing moves for the dispatcher's idle timeout).
   */
  deadlineMs?: number;
  /** Scrubs every message (default: the token source's redactor, else one of its own). */
  redactor?: Redactor;
  /**
   * Told of each failure of a request it sends (the token, the connection, the reply's status),
   * after its retries and just before it is thrown: lets the owner note whose request it was
   * (the extension: which profile's, for the buttons). Not told of a reply that fails its
   * schema, nor of an argument refused before anything is sent.
   */
  onFailure?: (error: unknown) => void;
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

/**
 * One attempt's outcome: done, or the token must be renewed and the request made once more
 * (`renew` is the error to fail with when that was done already).
 */
type Attempt<T> = { done: T } | { renew: ServiceError };

export interface ImportSpotOptions {
  signal?: AbortSignal;
  /** The document's JSON as read from a file, sent as written rather than serialised again. */
  text?: string;
  /**
   * The gallery fields the document sends as null, judged with the topic's definition when there
   * is one (parseSpotText's pendingGalleries); the reply's ids are read for these. Default: the
   * fld_ members set to null.
   */
  pendingFields?: readonly string[];
}

export class ServiceClient {
  readonly apiRoot: string;
  private readonly host: string;
  private readonly policy: RetryPolicy;
  private readonly redactor: Redactor;

  constructor(private readonly options: ServiceClientOptions) {
    const base = requireSecureUrl(options.baseUrl, 'base URL');
    this.host = base.host;
    this.apiRoot = joinUrl(base.toString(), `/api/${options.apiVersion ?? DEFAULT_API_VERSION}`);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.redactor = options.redactor ?? options.tokens.redactor ?? new Redactor();
  }

  /** Creates or updates (by source_id) one spot. Imports are upserts, so retrying is safe. */
  async importSpot(document: unknown, options: ImportSpotOptions = {}): Promise<ImportResult> {
    const { status, text } = await this.send(() => l10n.t('The import'), 'POST', '/spots/import', {
      body: options.text ?? JSON.stringify(document),
      contentType: 'application/json',
      retryable: true,
      signal: options.signal,
    });
    return toImportResult(
      parseReply(
        importReplySchema,
        text,
        () => l10n.t({ message: 'the import', args: [], comment: ['As in "The server sent an unexpected reply to the import".'] }),
        status,
        this.redactor,
      ),
      options.pendingFields ?? requestedPendingFields(document),
    );
  }

  async getGallery(galleryId: number, options: { signal?: AbortSignal } = {}): Promise<Gallery> {
    requireGalleryId(galleryId);
    const { status, text } = await this.send(() => l10n.t('Reading gallery {0}', galleryId), 'GET', `/galleries/${galleryId}`, {
      retryable: true,
      signal: options.signal,
    });
    return toGallery(
      parseReply(
        galleryReplySchema,
        text,
        () => l10n.t({ message: 'reading gallery {0}', args: [galleryId], comment: ['As in "The server sent an unexpected reply to reading gallery 3".'] }),
        status,
        this.redactor,
      ),
    );
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
    await this.send(() => l10n.t('Ordering the media of gallery {0}', galleryId), 'POST', `/galleries/${galleryId}/media/order`, {
      body: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
      retryable: true,
      signal: options.signal,
    });
  }

  /**
   * Streams one file from disk into a gallery. Not retried after 429/503 or once the whole body
   * went out, since it may have arrived. A 401 (nothing stored) renews the token and sends it once
   * more; so does a connection lost while the body was still going out: that is how many servers
   * refuse an expired token (401 before reading, then close), and a body that did not go out
   * whole cannot have been stored. A failure says how far the file got (details.requestSent);
   * one without it happened before anything was sent (no token, an unreadable file).
   */
  async uploadMedia(galleryId: number, filePath: string, options: UploadOptions = {}): Promise<UploadResult> {
    requireGalleryId(galleryId);
    const url = joinUrl(this.apiRoot, `/galleries/${galleryId}/media`);
    const what = () => l10n.t('Uploading to gallery {0}', galleryId);
    return this.authorized({ signal: options.signal, retryable: false }, async (token): Promise<Attempt<UploadResult>> => {
      try {
        const outcome = await uploadFile(
          url,
          filePath,
          withMembers(options, {
            galleryId,
            token,
            dispatcher: this.options.dispatcher ?? defaultDispatcher(),
            fieldName: this.options.fileFieldName ?? DEFAULT_FILE_FIELD_NAME,
            what,
            host: this.host,
            redactor: this.redactor,
            replyDeadlineMs: this.options.deadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS,
          }),
        );
        return outcome.status === 401 ? { renew: refusedAgain(what, { requestSent: 'answered' }) } : { done: outcome.result };
      } catch (error) {
        if (error instanceof ServiceError && error.kind === 'network' && error.requestSent === 'partly') return { renew: error };
        throw error;
      }
    });
  }

  /** `what`: how messages name the request ("The import"), made only when there is a message. */
  private async send(what: RequestWords, method: 'GET' | 'POST', path: string, options: SendOptions): Promise<{ status: number; text: string }> {
    const url = joinUrl(this.apiRoot, path);
    return this.authorized(options, (token) => this.sendOnce(token, what, method, url, options));
  }

  /**
   * One attempt of send(). The work is in a method; the closure send() hands over only calls it:
   * V8 keeps a closure's optimized code only while an instance of it lives, and each request makes
   * a new one (see EngineRun in import/runImport.ts).
   */
  private async sendOnce(
    token: string,
    what: RequestWords,
    method: 'GET' | 'POST',
    url: string,
    options: SendOptions,
  ): Promise<Attempt<{ status: number; text: string }>> {
    const attempt = new RequestDeadline(options.signal, this.options.deadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS);
    try {
      const reply = await shortRequest(this.options.dispatcher ?? defaultDispatcher(), url, {
        method,
        deadline: attempt,
        what,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/vnd.api+json',
          ...(options.contentType ? { 'content-type': options.contentType } : {}),
        },
        body: options.body,
      });
      const { status, text } = reply;
      if (status === 401) return { renew: refusedAgain(what) };
      if (status < 200 || status >= 300) {
        throw httpError(what, status, text, { redactor: this.redactor, retryAfterMs: parseRetryAfter(reply.headers['retry-after']) });
      }
      return { done: { status, text } };
    } catch (error) {
      throw toServiceError(error, { what: wordsOf(what), host: this.host, signal: options.signal, deadline: attempt, redactor: this.redactor });
    } finally {
      attempt.dispose();
    }
  }

  /**
   * The one request loop of the client. Each attempt gets a current token. When the attempt asks
   * for it (the token was refused), the token is forgotten and the attempt made once more with a
   * new one. When `retryable`, failures that mean "not now" (429, 503, a dropped connection) are
   * tried again after the policy's wait, which honours Retry-After.
   */
  private async authorized<T>(options: { signal?: AbortSignal; retryable: boolean }, attempt: (token: string) => Promise<Attempt<T>>): Promise<T> {
    try {
      return await this.attemptWithRenewal(options, attempt);
    } catch (error) {
      this.options.onFailure?.(error);
      throw error;
    }
  }

  private async attemptWithRenewal<T>(options: { signal?: AbortSignal; retryable: boolean }, attempt: (token: string) => Promise<Attempt<T>>): Promise<T> {
    let renewed = false;
    for (let retries = 0; ;) {
      throwIfAborted(options.signal);
      const token = await this.options.tokens.getToken(options.signal);
      // The client sends it: whatever a server echoes of it is masked, whoever issued it.
      this.redactor.add(token.value);
      let outcome: Attempt<T>;
      try {
        outcome = await attempt(token.value);
      } catch (error) {
        const wait = options.retryable && !options.signal?.aborted ? retryDelayFor(error, retries, this.policy) : undefined;
        if (wait === undefined) throw error;
        await sleep(wait, options.signal);
        retries++;
        continue;
      }
      if ('done' in outcome) return outcome.done;
      this.options.tokens.invalidate(token.value);
      if (renewed) throw outcome.renew;
      renewed = true;
    }
  }
}

function requestedPendingFields(document: unknown): string[] | undefined {
  const attributes = (document as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  return typeof attributes === 'object' && attributes !== null ? pendingGalleryFields(attributes as Record<string, unknown>) : undefined;
}

function requireGalleryId(galleryId: number): void {
  if (!Number.isSafeInteger(galleryId) || galleryId <= 0) {
    throw new ServiceError('configuration', l10n.t('"{0}" is not a gallery id: use a positive whole number.', galleryId));
  }
}

function refusedAgain(what: RequestWords, details: ServiceErrorDetails = {}): AuthenticationError {
  return new AuthenticationError(
    l10n.t("{0} was refused (HTTP 401) even with a fresh access token. Check the client's credentials and permissions.", wordsOf(what)),
    { status: 401, ...details },
  );
}
