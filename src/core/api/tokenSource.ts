// OAuth 2.0 client credentials: one token in memory, renewed before it runs out, and at most one
// token request in flight however many callers wait for it.
import { request, type Dispatcher } from 'undici';
import { AuthenticationError, ServiceError, throwIfAborted } from './errors';
import { parseReply, readText, scrub, serverWords, httpError } from './readReply';
import { tokenErrorSchema, tokenReplySchema } from './replySchemas';
import { joinUrl, requireSecureUrl } from './secureUrl';
import { defaultDispatcher } from './http';
import { raceAbort, toServiceError } from './networkError';

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
  /** Lifetime assumed when the reply has no expires_in (seconds, default 3600). */
  assumedLifetimeSeconds?: number;
  dispatcher?: Dispatcher;
  now?: () => number;
  /** A failed token request is shared with callers for this long instead of being retried at once. */
  failureCooldownMs?: number;
}

/** The token path the service documents; the other form (/oauth2/access_token) is a setting away. */
export function defaultTokenUrl(baseUrl: string): string {
  return joinUrl(baseUrl, '/api/v2/access_token');
}

export class TokenSource {
  private current?: AccessToken;
  private inFlight?: Promise<AccessToken>;
  private lastFailure?: { error: ServiceError; at: number };
  private readonly url: URL;
  private readonly now: () => number;

  constructor(private readonly options: TokenSourceOptions) {
    this.url = requireSecureUrl(options.tokenUrl, 'token URL');
    this.now = options.now ?? Date.now;
  }

  async getToken(signal?: AbortSignal): Promise<AccessToken> {
    throwIfAborted(signal);
    const current = this.current;
    if (current && !this.needsRenewal(current)) return current;
    const failure = this.lastFailure;
    if (failure && this.now() - failure.at < (this.options.failureCooldownMs ?? 2_000)) throw failure.error;
    this.inFlight ??= this.requestToken().finally(() => (this.inFlight = undefined));
    try {
      return await raceAbort(this.inFlight, signal);
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

  private async requestToken(): Promise<AccessToken> {
    try {
      const token = await this.postTokenRequest();
      this.current = token;
      this.lastFailure = undefined;
      return token;
    } catch (error) {
      const failure = toServiceError(error, 'The token request', this.url.host);
      this.lastFailure = { error: failure, at: this.now() };
      throw failure;
    }
  }

  private async postTokenRequest(): Promise<AccessToken> {
    const what = 'The token request';
    const response = await request(this.url, {
      method: 'POST',
      dispatcher: this.options.dispatcher ?? defaultDispatcher(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
      }).toString(),
    });
    const text = await readText(response.body, what, response.headers);
    if (response.statusCode !== 200) throw this.refusal(response.statusCode, scrub(text, [this.options.clientSecret]));
    const reply = parseReply(tokenReplySchema, text, 'the token request', response.statusCode);
    const lifetimeSeconds = reply.expires_in ?? this.options.assumedLifetimeSeconds ?? 3600;
    return {
      value: reply.access_token,
      lifetimeSeconds,
      expiresAt: this.now() + lifetimeSeconds * 1000,
      fromServer: reply.expires_in !== undefined,
    };
  }

  private refusal(status: number, text: string): ServiceError {
    let parsed: ReturnType<typeof tokenErrorSchema.safeParse> | undefined;
    try {
      parsed = tokenErrorSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    const words = parsed?.success ? (parsed.data.error_description ?? parsed.data.message ?? parsed.data.error) : serverWords(text);
    if ((parsed?.success && parsed.data.error === 'invalid_client') || status === 401) {
      return new AuthenticationError(
        `The client id or secret was rejected by ${this.url.host}${words ? `: ${words}` : '.'} Update the credentials.`,
        { status, serverMessage: words },
      );
    }
    return httpError('The token request', status, text);
  }
}
