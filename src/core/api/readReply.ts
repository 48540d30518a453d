// Reading what the server said: bounded bodies, checked JSON, and errors in the server's words.
// Whatever a server sends may echo what it was sent, so every text is scrubbed by the redactor
// before a message is built from it: once raw (every encoding of a secret is still there), and
// once more after its JSON is decoded (escapes undone), before it is cut to a preview.
import type { Dispatcher } from 'undici';
import type * as z from './zod';
import { jsonApiErrorsSchema } from './replySchemas';
import { MalformedReplyError, ServiceError, type RequestSent } from './errors';
import { describeWait } from './retryPolicy';
import type { Redactor } from './redact';
import { l10n } from '../text/l10n';
import { printable } from '../text/printable';

/** Replies larger than this are not JSON the interface describes; stop reading them. */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

export type Scrubber = Pick<Redactor, 'redact'>;

/**
 * How a message names a request: its words, or a function that gives them, called only when a
 * message is made (the words are localised: a reply read without a problem costs no lookup).
 */
export type RequestWords = string | (() => string);

/** The words of a request, for a message being made now. */
export function wordsOf(what: RequestWords): string {
  return typeof what === 'function' ? what() : what;
}

/**
 * A reply past MAX_REPLY_BYTES. `what` names the request as a sentence begins ("The import"), so
 * the message begins with it rather than putting it after "an unexpected reply to".
 */
export function replyTooLarge(what: RequestWords, status?: number): MalformedReplyError {
  return new MalformedReplyError({ message: l10n.t('{0} failed: the reply is larger than {1} MiB.', wordsOf(what), MAX_REPLY_BYTES / 1048576), status });
}

export async function readText(body: Dispatcher.ResponseData['body'], what: RequestWords, headers?: Dispatcher.ResponseData['headers']): Promise<string> {
  // A reply that announces a small enough length is read in one go (the common case, and much
  // cheaper than iterating the stream); anything else is read chunk by chunk against the limit.
  const announced = Number(headers?.['content-length']);
  if (Number.isInteger(announced) && announced <= MAX_REPLY_BYTES) return body.text();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_REPLY_BYTES) {
      body.destroy();
      throw replyTooLarge(what);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Lets a connection be reused without reading a body we do not need. */
export async function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
  try {
    await body.dump({ limit: 64 * 1024 });
  } catch {
    // The connection is dropped instead; nothing else depends on it.
  }
}

export function parseReply<S extends z.ZodMiniType>(schema: S, text: string, what: RequestWords, status: number, redactor: Scrubber): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MalformedReplyError(wordsOf(what), l10n.t('it is not JSON ({0})', preview(redactor.redact(text))), status);
  }
  const result = schema.safeParse(json);
  if (!result.success) throw new MalformedReplyError(wordsOf(what), describeIssue(result.error.issues[0], json, redactor), status);
  return result.data;
}

/**
 * The schema's first problem in words. The member's name and the problem are scrubbed each on
 * its own: scrubbed together, "access_token: Invalid input" reads to the redactor as a token
 * written out, and the message lost its first word ("access_token: *** input").
 */
function describeIssue(issue: z.core.$ZodIssue, json: unknown, redactor: Scrubber): string {
  const where = redactor.redact(issue.path.map(String).join('.'));
  if (issue.code === 'invalid_type' && isMissing(json, issue.path)) return l10n.t('it has no {0}.', where);
  const problem = redactor.redact(issue.message);
  return where ? `${where}: ${problem}` : l10n.t('the reply: {0}', problem);
}

/** True when the member at `path` is absent from an object that is there (not one of the wrong type). */
function isMissing(json: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let parent = json;
  for (const key of path.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return false;
    parent = (parent as Record<PropertyKey, unknown>)[key];
  }
  return typeof parent === 'object' && parent !== null && !Object.hasOwn(parent, path[path.length - 1]);
}

/** Members that carry a server's words, most specific first (OAuth's error_description first). */
const WORD_MEMBERS = ['error_description', 'message', 'error', 'detail', 'title'];

/** The server's own words from an error body (JSON:API errors, a words member, or text), scrubbed. */
export function serverWords(text: string, redactor: Scrubber): string | undefined {
  const clean = redactor.redact(text).trim();
  if (!clean) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(clean);
  } catch {
    return preview(clean);
  }
  const words = jsonWords(json);
  return words === undefined ? preview(clean) : oneLine(redactor.redact(words));
}

function jsonWords(json: unknown): string | undefined {
  const jsonApi = jsonApiErrorsSchema.safeParse(json);
  if (jsonApi.success && jsonApi.data.errors.length > 0) {
    return jsonApi.data.errors
      .map((error) => {
        const words =
          error.detail ??
          error.title ??
          error.code ??
          l10n.t({ message: 'error', args: [], comment: ['What a JSON:API error object that gives no words of its own is called.'] });
        return error.source?.pointer
          ? l10n.t({
              message: '{0} (at {1})',
              args: [words, error.source.pointer],
              comment: ["{0}: the server's words; {1}: the JSON pointer of the member they are about."],
            })
          : words;
      })
      .join('; ');
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const record = json as Record<string, unknown>;
  const key = WORD_MEMBERS.find((member) => typeof record[member] === 'string' && record[member] !== '');
  return key === undefined ? undefined : (record[key] as string);
}

export interface HttpErrorOptions {
  redactor: Scrubber;
  /** The wait the server asked for (Retry-After): the message says when to try again. */
  retryAfterMs?: number;
  requestSent?: RequestSent;
  now?: number;
}

export function httpError(what: RequestWords, status: number, text: string, options: HttpErrorOptions): ServiceError {
  const words = serverWords(text, options.redactor);
  const { retryAfterMs } = options;
  const retryAt = retryAfterMs === undefined ? undefined : (options.now ?? Date.now()) + retryAfterMs;
  const failed = words
    ? l10n.t('{0} failed with HTTP {1}: {2}.', wordsOf(what), status, words.replace(/\.$/, ''))
    : l10n.t('{0} failed with HTTP {1}.', wordsOf(what), status);
  const message = retryAfterMs !== undefined && retryAfterMs > 0 ? `${failed} ${describeWait(retryAfterMs, retryAt!)}` : failed;
  return new ServiceError('http', message, {
    status,
    serverMessage: words,
    ...(retryAfterMs !== undefined ? { retryAfterMs, retryAt } : {}),
    ...(options.requestSent ? { requestSent: options.requestSent } : {}),
  });
}

/** Markup stripped (an HTML error page reads as its words), one short line. */
function preview(text: string): string {
  return oneLine(withoutTags(text), 200) || l10n.t({ message: '(empty)', args: [], comment: ['Stands for a reply from the server that has no text.'] });
}

/**
 * Each tag (from "<" to the next ">") as one space, in one pass: the regular expression /<[^>]*>/g
 * it replaces scanned to the end from every "<" with no ">" after it, minutes for a body of many.
 */
function withoutTags(text: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let open = text.indexOf('<'); open !== -1; open = text.indexOf('<', from)) {
    const close = text.indexOf('>', open + 1);
    // No ">" after this "<": none after any later one either, so the rest is text.
    if (close === -1) break;
    parts.push(text.slice(from, open), ' ');
    from = close + 1;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/** The server's words as one line: whitespace runs as one space, other control characters made visible. */
function oneLine(text: string, limit = 500): string {
  const plain = printable(text.replace(/\s+/g, ' ').trim());
  return plain.length > limit ? `${plain.slice(0, limit)}…` : plain;
}
