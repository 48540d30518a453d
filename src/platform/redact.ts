// Redaction for everything that reaches the log. Known secrets (registered values) are replaced
// wherever they occur; patterns catch the shapes a secret takes in HTTP traffic even when its
// value was never registered (a bearer token in an error, a form body, a header dump).
// No vscode import: the same rules apply in tests and could apply to a CLI.

const MASK = '***';

/** Shapes that carry a credential; group 1 is kept, the rest of the match is masked. */
const PATTERNS: RegExp[] = [
  /(\bBearer\s+)[A-Za-z0-9._~+/=-]+/gi,
  /(\bAuthorization["']?\s*[:=]\s*["']?)[^"'\r\n,}]+/gi,
  /(\b(?:client_secret|access_token|refresh_token|password)["']?\s*[:=]\s*["']?)[^"'&\s,}]+/gi,
  /(\b(?:clientSecret|accessToken)["']?\s*[:=]\s*["']?)[^"'&\s,}]+/g,
];

/**
 * Values shorter than this are not registered: masking "a" everywhere would wreck the log. They
 * are still masked where a pattern recognises them (client_secret=abc, Bearer abc).
 */
const MIN_SECRET_LENGTH = 4;

export class Redactor {
  private readonly secrets = new Set<string>();

  add(value: string | undefined): void {
    if (value && value.length >= MIN_SECRET_LENGTH) this.secrets.add(value);
  }

  redact(text: string): string {
    let result = text;
    // Longest first, so a secret that contains another is masked whole; each also as it looks
    // inside a URL, a form body and a JSON string (where " and \ are escaped).
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      for (const form of new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1)])) {
        result = result.split(form).join(MASK);
      }
    }
    for (const pattern of PATTERNS) result = result.replace(pattern, (_match, keep: string) => keep + MASK);
    return result;
  }
}

/** Turns log details into text: errors with their kind, status and cause; objects as JSON. */
export function formatDetail(detail: unknown): string {
  if (detail instanceof Error) {
    const extra = detail as Error & { kind?: string; status?: number; serverMessage?: string; cause?: unknown };
    const parts = [`${detail.name}: ${detail.message}`];
    if (extra.kind) parts.push(`kind=${extra.kind}`);
    if (extra.status !== undefined) parts.push(`status=${extra.status}`);
    if (extra.serverMessage) parts.push(`server="${extra.serverMessage}"`);
    if (detail.stack) parts.push('\n' + detail.stack.split('\n').slice(1, 6).join('\n'));
    if (extra.cause instanceof Error) parts.push(`\ncaused by ${formatDetail(extra.cause)}`);
    return parts.join(' ');
  }
  if (typeof detail === 'string') return detail;
  try {
    return JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}
