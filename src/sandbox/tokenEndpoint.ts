// The OAuth 2.0 client-credentials token endpoint (RFC 6749 section 4.4), answering errors the
// way the interface shows them: {error, error_description, message} with message = description.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context';
import { userOf, type SandboxClient } from './types';
import { decodeUtf8, HttpError, mediaTypeOf, PLAIN_JSON, readBody, sendJson } from './http';

const MAX_TOKEN_BODY = 16 * 1024;
// RFC 6749 5.1: token replies must not be cached.
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export async function handleTokenRequest(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  ctx.counters.tokenRequests++;
  try {
    const client = await authenticate(ctx, req);
    const { token } = ctx.tokens.issue(userOf(client));
    ctx.counters.tokensIssued++;
    const reply: Record<string, unknown> = { access_token: token, token_type: 'Bearer' };
    if (!ctx.omitExpiresIn) reply.expires_in = ctx.tokenTtlSeconds;
    sendJson(req, res, 200, reply, PLAIN_JSON, NO_STORE);
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    sendTokenError(req, res, error.status, error.code, error.description, error.headers);
  }
}

/** A failed token request, in the endpoint's own shape (injected faults on the token route too). */
export function sendTokenError(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  code: string,
  description: string,
  headers: Record<string, string> = {},
): void {
  sendJson(req, res, status, { error: code, error_description: description, message: description }, PLAIN_JSON, { ...NO_STORE, ...headers });
}

/** Checks the request and the client's credentials; returns the client or throws a TokenError. */
async function authenticate(ctx: SandboxContext, req: IncomingMessage): Promise<SandboxClient> {
  if (mediaTypeOf(req) !== 'application/x-www-form-urlencoded') {
    throw new TokenError(400, 'invalid_request', 'The token request must be sent form-encoded (Content-Type: application/x-www-form-urlencoded).');
  }
  let body: Buffer;
  try {
    body = await readBody(req, MAX_TOKEN_BODY);
  } catch (error) {
    if (error instanceof HttpError) throw new TokenError(error.status, 'invalid_request', error.message);
    throw error;
  }
  const text = decodeUtf8(body);
  if (text === undefined) throw new TokenError(400, 'invalid_request', 'The token request body is not valid UTF-8.');
  const params = new URLSearchParams(text);
  for (const name of ['grant_type', 'client_id', 'client_secret']) {
    if (params.getAll(name).length > 1) throw new TokenError(400, 'invalid_request', `The parameter ${name} is repeated.`);
  }
  const grantType = params.get('grant_type');
  if (!grantType) throw new TokenError(400, 'invalid_request', 'The parameter grant_type is missing.');
  if (grantType !== 'client_credentials') {
    throw new TokenError(400, 'unsupported_grant_type', `The grant type "${grantType}" is not supported; use client_credentials.`);
  }

  const basic = basicCredentials(req);
  const formId = params.get('client_id');
  const formSecret = params.get('client_secret');
  if (basic && (formId !== null || formSecret !== null)) {
    throw new TokenError(400, 'invalid_request', 'Send the client credentials either in the form or in an Authorization header, not both.');
  }
  const id = basic ? basic.id : formId;
  const secret = basic ? basic.secret : formSecret;
  // RFC 6749 5.2: a client that tried HTTP Basic gets a challenge back with its 401.
  const challenge: Record<string, string> = basic ? { 'WWW-Authenticate': 'Basic realm="spot-sandbox"' } : {};
  if (!id || secret === null) {
    throw new TokenError(401, 'invalid_client', 'Client authentication failed: client_id and client_secret are required.', challenge);
  }
  const client = ctx.clients.find((candidate) => candidate.clientId === id);
  // The same words for an unknown id and a wrong secret: the reply must not reveal which ids exist.
  if (!client || !sameText(client.clientSecret, secret)) {
    throw new TokenError(401, 'invalid_client', 'Client authentication failed: unknown client or wrong secret.', challenge);
  }
  return client;
}

function basicCredentials(req: IncomingMessage): { id: string; secret: string } | undefined {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(req.headers.authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  // RFC 6749 2.3.1: both halves are form-urlencoded before base64.
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

/** Compares secrets in constant time, so response timing does not leak how much matched. */
function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
