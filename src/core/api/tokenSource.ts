// OAuth 2.0 client credentials: one token in memory, renewed before it runs out, and at most one
// token request in flight however many callers wait for it. That shared request has an overall
// deadline, and stops when every caller waiting for it has cancelled.
import { request, type Dispatcher } from 'undici';
import { AuthenticationError, CancelledError, ServiceError, isCancellation, throwIfAborted } from './errors';
import { httpError, parseReply, readText, serverWords } from './readReply';
import { tokenErrorSchema, tokenReplySchema } from './replySchemas';
import { joinUrl, requireSecureUrl } from './secureUrl';
import { defaultDispatcher } from './http';
import { toServiceError } from './networkError';
import { AttemptDeadline } from './deadline';
import { parseRetryAfter } from './retryPolicy';
import { DEFAULT_ASSUMED_TOKEN_LIFETIME_SECONDS, DEFAULT_TOKEN_DEADLINE_MS } from './requestDefaults';
import { Redactor, shownAddress } from './redact';
import type { IncomingHttpHeaders } from 'node:http';
import { l10n } from '../text/l10n';

export interface AccessToken {
  value: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  lifetimeSeconds: number;
  /** False when the server sent no expires_in and the assumed lifetime applies. */
  fromServer: boolean;
}

export interface TokenSourceOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Lifetime assumed when the reply has no expires_in (seconds, default DEFAULT_ASSUMED_TOKEN_LIFETIME_SECONDS). */
  assumedLifetimeSeconds?: number;
  dispatcher?: Dispatcher;
  now?: () => number;
  /** A failed token request is shared with callers for this long instead of being retried at once. */
  failureCooldownMs?: number;
  /**
   * Overall time for one token request, its reply included (default DEFAULT_TOKEN_DEADLINE_MS).
   * The dispatcher's idle timeouts do not end a reply that arrives a byte at a time; this does.
   */
  deadlineMs?: number;
  /**
   * Where the client secret (raw and as a Basic credential) and every token obtained are
   * registered, and what scrubs every message this source builds. Default: one of its own. The
   * extension passes the redactor of its log and notifications, so they mask the same values.
   */
  redactor?: Redactor;
}

/** The token path the service documents; the other form (/oauth2/access_token) is a setting away. */
export function defaultTokenUrl(baseUrl: string): string {
  return joinUrl(baseUrl, '/api/v2/access_token');
}

/** The token request everyone waits for, and how many callers could still cancel it. */
interface Flight {
  promise: Promise<AccessToken>;
  controller: AbortController;
  /** Waiting callers that have a signal; a caller without one keeps the request alive for good. */
  cancellable: number;
  keptAlive: boolean;
}

export class TokenSource {
  readonly redactor: Redactor;
  private current?: AccessToken;
  private inFlight?: Flight;
  private lastFailure?: { error: ServiceError; at: number };
  private readonly url: URL;
  private readonly now: () => number;

  constructor(private readonly options: TokenSourceOptions) {
    this.url = requireSecureUrl(options.tokenUrl, 'token URL');
    this.now = options.now ?? Date.now;
    this.redactor = options.redactor ?? new Redactor();
    this.redactor.add(options.clientSecret);
    // As a Basic header carries them (RFC 6749 2.3.1 form-encodes both before joining them).
    this.redactor.add(Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64'));
    this.redactor.add(Buffer.from(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`).toString('base64'));
  }

  async getToken(signal?: AbortSignal): Promise<AccessToken> {
    throwIfAborted(signal);
    const current = this.current;
    if (current && !this.needsRenewal(current)) return current;
    const failure = this.lastFailure;
    if (failure && this.now() - failure.at < (this.options.failureCooldownMs ?? 2_000)) throw failure.error;
    this.inFlight ??= this.startRequest();
    try {
      return await this.waitFor(this.inFlight, signal);
    } catch (error) {
      // A renewal that fails while the old token is still valid should not stop the caller.
      if (current && current.expiresAt > this.now() && !(error instanceof AuthenticationError) && !signal?.aborted) return current;
      throw error;
    }
  }

  /** Forgets a token the server refused, so the next getToken asks for a new one. */
  invalidate(value?: string): void {
    if (!value || this.current?.value === value) this.current = undefined;
  }

  /** Forgets everything: the token and a remembered failure (after the credentials change). */
  clear(): void {
    this.current = undefined;
    this.lastFailure = undefined;
  }

  private needsRenewal(token: AccessToken): boolean {
    const margin = Math.min(300, token.lifetimeSeconds / 2) * 1000;
    return token.expiresAt - this.now() <= margin;
  }

  private startRequest(): Flight {
    const controller = new AbortController();
    const flight: Flight = { controller, cancellable: 0, keptAlive: false, promise: Promise.resolve(undefined as never) };
    flight.promise = this.requestToken(controller.signal).finally(() => {
      if (this.inFlight === flight) this.inFlight = undefined;
    });
    return flight;
  }

  /**
   * Waits for the shared request. A caller that cancels stops waiting at once; the request itself
   * is stopped only when no caller is left waiting for it.
   */
  private waitFor(flight: Flight, signal: AbortSignal | undefined): Promise<AccessToken> {
    if (!signal) {
      flight.keptAlive = true;
      return flight.promise;
    }
    flight.cancellable++;
    return new Promise<AccessToken>((resolve, reject) => {
      const onAbort = () => {
        flight.cancellable--;
        if (flight.cancellable === 0 && !flight.keptAlive) {
          // Nobody waits any more: a new caller must not join a request that is being stopped.
          if (this.inFlight === flight) this.inFlight = undefined;
          flight.controller.abort();
        }
        reject(new CancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (token) => {
          signal.removeEventListener('abort', onAbort);
          resolve(token);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  private async requestToken(stop: AbortSignal): Promise<AccessToken> {
    const deadline = new AttemptDeadline(stop, this.options.deadlineMs ?? DEFAULT_TOKEN_DEADLINE_MS);
    try {
      const token = await this.postTokenRequest(deadline.signal);
      this.redactor.add(token.value);
      this.current = token;
      this.lastFailure = undefined;
      return token;
    } catch (error) {
      const failure = toServiceError(error, { what: l10n.t('The token request'), host: this.url.host, signal: stop, deadline, redactor: this.redactor });
      // Nobody waiting is not a failure of the server: the next caller asks again at once.
      if (!isCancellation(failure)) this.lastFailure = { error: failure, at: this.now() };
      throw failure;
    } finally {
      deadline.dispose();
    }
  }

  private async postTokenRequest(signal: AbortSignal): Promise<AccessToken> {
    const what = () => l10n.t('The token request');
    const response = await request(this.url, {
      method: 'POST',
      dispatcher: this.options.dispatcher ?? defaultDispatcher(),
      signal,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
      }).toString(),
    });
    const text = await readText(response.body, what, response.headers);
    if (response.statusCode !== 200) throw this.refusal(response.statusCode, text, response.headers);
    const reply = parseReply(
      tokenReplySchema,
      text,
      () => l10n.t({ message: 'the token request', args: [], comment: ['As in "The server sent an unexpected reply to the token request".'] }),
      response.statusCode,
      this.redactor,
    );
    const lifetimeSeconds = reply.expires_in ?? this.options.assumedLifetimeSeconds ?? DEFAULT_ASSUMED_TOKEN_LIFETIME_SECONDS;
    return {
      value: reply.access_token,
      lifetimeSeconds,
      expiresAt: this.now() + lifetimeSeconds * 1000,
      fromServer: reply.expires_in !== undefined,
    };
  }

  private refusal(status: number, text: string, headers: IncomingHttpHeaders): ServiceError {
    const words = serverWords(text, this.redactor);
    // A client-credentials request is not sent on to another address (its secret would go along):
    // the token URL is what to change, to where the service says its tokens are.
    const location = headers.location;
    if (status >= 300 && status < 400 && typeof location === 'string') {
      let target = location;
      try {
        target = new URL(location, this.url).toString();
      } catch {
        // Shown as sent.
      }
      return new ServiceError(
        'configuration',
        l10n.t(
          'The token request was redirected (HTTP {0}) to {1}, where it is not sent on: set the token URL to the address the service gives for its tokens.',
          status,
          shownAddress(target),
        ),
        { status },
      );
    }
    if (status === 404 || status === 405) {
      const failed = httpError(l10n.t('The token request'), status, text, { redactor: this.redactor });
      return new ServiceError(
        'configuration',
        `${failed.message} ${l10n.t(
          '{0} has no token endpoint: set the token URL to the one the service names (such as …/api/v2/access_token or …/oauth2/access_token).',
          shownAddress(this.url.toString()),
        )}`,
        { status },
      );
    }
    if (status === 401 || isInvalidClient(text)) {
      return new AuthenticationError(
        words
          ? l10n.t('The client id or secret was rejected by {0}: {1}. Update the credentials.', this.url.host, words.replace(/\.$/, ''))
          : l10n.t('The client id or secret was rejected by {0}. Update the credentials.', this.url.host),
        { status, serverMessage: words },
      );
    }
    return httpError(l10n.t('The token request'), status, text, { redactor: this.redactor, retryAfterMs: parseRetryAfter(headers['retry-after']) });
  }
}

/** The OAuth error code that means the credentials themselves were refused. */
function isInvalidClient(text: string): boolean {
  try {
    const parsed = tokenErrorSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.error === 'invalid_client';
  } catch {
    return false;
  }
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
