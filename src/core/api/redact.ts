// The one redactor: what a person or a log may see never holds a secret or a token. Registered
// values (the client secret, the id:secret of a Basic header, every token) are masked in every
// encoding they travel in, even mixed within one value: raw, percent-encoded in either hex case,
// form-encoded, JSON- or HTML-escaped. Patterns catch the shapes a credential takes in HTTP
// traffic even when its value was never registered (Bearer …, client_secret=…, ?token=…).
// No dependencies: the extension bundles this file for its log and its notifications, the core
// uses it for every error message it builds.

export const MASK = '***';

/**
 * Values shorter than this are not registered: masking "a" everywhere would wreck every message.
 * They are still masked where a pattern recognises them (client_secret=abc, Bearer abc).
 */
const MIN_SECRET_LENGTH = 4;
/** Longer values are not credentials this client handles; a bound keeps the patterns small. */
const MAX_SECRET_LENGTH = 16 * 1024;

/** Shapes that carry a credential; group 1 is kept, the rest of the match is masked. */
const PATTERNS: RegExp[] = [
  // "Bearer x", and as it looks in a URL or a form (Bearer%20x, Bearer+x).
  /(\bBearer(?:\s+|%20|\+))[A-Za-z0-9._~+/=%-]+/gi,
  /(\bAuthorization["']?\s*[:=]\s*["']?)[^"'\r\n,}]+/gi,
  // key=value, key: value, "key":"value", key%3Dvalue; `token` covers ?token=… in a URL.
  /(\b(?:client_secret|access_token|refresh_token|id_token|token|password)(?:["']?\s*[:=]\s*["']?|%3D))[^"'&\s,}]+/gi,
  /(\b(?:clientSecret|accessToken|refreshToken)(?:["']?\s*[:=]\s*["']?|%3D))[^"'&\s,}]+/g,
];

/** A bare Basic credential: masked when it decodes to id:secret, so "Basic authentication" stays. */
const BASIC = /(\bBasic(?:\s+|%20|\+))([A-Za-z0-9+/]{4,}(?:={1,2}|(?:%3D){1,2})?)/gi;

export class Redactor {
  /**
   * Registered values, longest first, so a value that contains another is masked whole. Each one's
   * pattern is built on its first redact(), not when it is added: the token source adds three values
   * before its first request, and building their patterns there cost that request up to 5 ms (the
   * extension's log redacts a line soon after; a command-line run with nothing to report never does).
   */
  private secrets: Array<{ value: string; pattern?: RegExp }> = [];

  add(value: string | undefined): void {
    if (!value || value.length < MIN_SECRET_LENGTH || value.length > MAX_SECRET_LENGTH) return;
    if (this.secrets.some((secret) => secret.value === value)) return;
    this.secrets = [...this.secrets, { value }].sort((a, b) => b.value.length - a.value.length);
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.replace((secret.pattern ??= encodedForms(secret.value)), MASK);
    for (const pattern of PATTERNS) result = result.replace(pattern, (_match, keep: string) => keep + MASK);
    return result.replace(BASIC, (match, keep: string, credential: string) => (isBasicCredential(credential) ? keep + MASK : match));
  }
}

/**
 * The login part of an address's text (user:password@, up to the last @ before the path), after
 * its scheme as a hand typed it (https:, https::, https without its colon, or none) and however
 * many slashes (URL parsers take https:/ and https:\\ too), blanks before it kept; with no slash
 * at all, everything before the @ (alice:pw@host is read as the scheme alice by a URL parser).
 */
const USERINFO = /^(\s*(?:[a-z][a-z0-9+.-]*:*)?[/\\]+|\s*)[^/\\?#\s]*@/i;

/**
 * An address's text as a message may show it, whether or not it parses as a URL (a text that does
 * not is shown as written, to say what is wrong with it): its login masked, and every credential
 * the patterns know (?token=…) masked as any other text is.
 */
export function redactUrlText(text: string): string {
  return new Redactor().redact(text.replace(USERINFO, `$1${MASK}@`));
}

/** An address as messages show it: without its query (where tokens travel) or its login. */
export function shownAddress(address: string): string {
  try {
    const url = new URL(address);
    return `${url.origin}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    return redactUrlText(address.replace(/[?#].*$/, '')).slice(0, 80);
  }
}

function isBasicCredential(credential: string): boolean {
  const decoded = Buffer.from(credential.replace(/%3D/gi, '='), 'base64').toString('utf8');
  return /^[^:\s]+:\S/.test(decoded) && !decoded.includes('\uFFFD');
}

/** One regular expression for the value, each character in any of its encodings. */
function encodedForms(value: string): RegExp {
  return new RegExp([...value].map(characterForms).join(''), 'g');
}

/** A backslash as JSON escapes it, possibly percent-encoded; a few levels of escaping at most. */
const BACKSLASH = String.raw`(?:\\|%5[Cc])`;
const HTML_ENTITIES: Record<string, string[]> = {
  '"': ['&quot;', '&#34;', '&#x22;'],
  '&': ['&amp;', '&#38;', '&#x26;'],
  "'": ['&#39;', '&#x27;', '&apos;'],
  '<': ['&lt;', '&#60;', '&#x3[Cc];'],
  '>': ['&gt;', '&#62;', '&#x3[Ee];'],
};

function characterForms(character: string): string {
  const forms = [escapeRegExp(character), percentEncoded(character), jsonUnicode(character), ...(HTML_ENTITIES[character] ?? [])];
  if (character === ' ') forms.push(String.raw`\+`);
  // JSON escapes \ " and (some encoders) /, possibly more than once (a JSON string inside JSON).
  if (character === '\\') forms.push(`${BACKSLASH}{2,4}`);
  if (character === '"' || character === '/') forms.push(`${BACKSLASH}{1,3}(?:${escapeRegExp(character)}|${percentEncoded(character)})`);
  if (character === '\n') forms.push(String.raw`\\n`);
  if (character === '\t') forms.push(String.raw`\\t`);
  if (character === '\r') forms.push(String.raw`\\r`);
  return `(?:${forms.join('|')})`;
}

/** %XX for each UTF-8 byte, either hex case. */
function percentEncoded(character: string): string {
  return [...Buffer.from(character, 'utf8')].map((byte) => `%${hexDigits(byte, 2)}`).join('');
}

/** \uXXXX for each UTF-16 unit (a JSON encoder may escape any character so), either hex case. */
function jsonUnicode(character: string): string {
  return Array.from({ length: character.length }, (_, index) => String.raw`\\u` + hexDigits(character.charCodeAt(index), 4)).join('');
}

function hexDigits(value: number, width: number): string {
  return value
    .toString(16)
    .padStart(width, '0')
    .split('')
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit.toUpperCase()}${digit}]` : digit))
    .join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
