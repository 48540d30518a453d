// Issued bearer tokens and the bearer check every API call passes through. Tokens live in memory
// only: after a restart clients get a 401 and renew, exactly as they must after expiry.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http';

export type TokenCheck = 'valid' | 'expired' | 'unknown';

// Sweep expired tokens now and then so a long bench run does not grow the map without end.
const SWEEP_EVERY = 1000;

interface IssuedToken {
  /** Expiry in ms on the options.now clock. */
  expiresAt: number;
  /** The user account of the client the token was issued to: what its requests may see. */
  user: string;
}

export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();
  private issuedSinceSweep = 0;

  constructor(
    private readonly now: () => number,
    private readonly ttlSeconds: number,
  ) {}

  issue(user: string): { token: string; expiresAt: number } {
    // 32 random bytes: unguessable, and URL-safe so it fits a header unchanged.
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + this.ttlSeconds * 1000;
    this.tokens.set(token, { expiresAt, user });
    if (++this.issuedSinceSweep >= SWEEP_EVERY) this.sweep();
    return { token, expiresAt };
  }

  check(token: string): TokenCheck {
    const issued = this.tokens.get(token);
    if (issued === undefined) return 'unknown';
    return this.now() < issued.expiresAt ? 'valid' : 'expired';
  }

  /** The user a valid token acts for (undefined for unknown tokens). */
  userOf(token: string): string | undefined {
    return this.tokens.get(token)?.user;
  }

  /** Every token issued so far reads as expired from now on. */
  expireAll(): void {
    const now = this.now();
    for (const issued of this.tokens.values()) issued.expiresAt = now;
  }

  private sweep(): void {
    this.issuedSinceSweep = 0;
    const now = this.now();
    // Keep recently expired tokens for a day so they still answer "expired" rather than "unknown".
    for (const [token, issued] of this.tokens) if (issued.expiresAt + 86_400_000 < now) this.tokens.delete(token);
  }
}

const DESCRIPTIONS: Record<Exclude<TokenCheck, 'valid'> | 'missing', string> = {
  missing: 'No access token was sent; send the header "Authorization: Bearer <token>".',
  unknown: 'The access token is not known to this server.',
  expired: 'The access token has expired; request a new one.',
};

/**
 * Throws the RFC 6750 401 (with WWW-Authenticate) unless the request carries a valid token;
 * answers the user account the token acts for.
 */
export function requireBearer(req: IncomingMessage, tokens: TokenStore): string {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  const outcome = match ? tokens.check(match[1]) : 'missing';
  if (outcome === 'valid') return tokens.userOf(match![1])!;
  const detail = DESCRIPTIONS[outcome];
  throw HttpError.of(401, 'invalid_token', detail, undefined, {
    'WWW-Authenticate': `Bearer realm="spot-sandbox", error="invalid_token", error_description="${detail.replace(/"/g, "'")}"`,
  });
}
