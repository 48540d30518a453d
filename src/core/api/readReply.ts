// Reading what the server said: bounded bodies, checked JSON, and errors in the server's words.
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { jsonApiErrorsSchema } from './replySchemas';
import { MalformedReplyError, ServiceError } from './errors';

/** Replies larger than this are not JSON the interface describes; stop reading them. */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

export async function readText(body: Dispatcher.ResponseData['body'], what: string, headers?: Dispatcher.ResponseData['headers']): Promise<string> {
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
      throw new MalformedReplyError(what, `the reply is larger than ${MAX_REPLY_BYTES / 1048576} MiB`);
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

export function parseReply<S extends z.ZodType>(schema: S, text: string, what: string, status: number): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MalformedReplyError(what, `it is not JSON (${preview(text)})`, status);
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the reply';
    throw new MalformedReplyError(what, `${where}: ${issue.message}`, status);
  }
  return result.data;
}

/** The server's own words from an error body: JSON:API errors, message, error_description, or text. */
export function serverWords(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  try {
    const json = JSON.parse(trimmed) as Record<string, unknown>;
    const jsonApi = jsonApiErrorsSchema.safeParse(json);
    if (jsonApi.success && jsonApi.data.errors.length > 0) {
      return jsonApi.data.errors
        .map((error) => {
          const words = error.detail ?? error.title ?? error.code ?? 'error';
          return error.source?.pointer ? `${words} (at ${error.source.pointer})` : words;
        })
        .join('; ');
    }
    for (const key of ['message', 'error_description', 'error', 'detail', 'title']) {
      if (typeof json[key] === 'string' && json[key]) return json[key] as string;
    }
    return preview(trimmed);
  } catch {
    return preview(trimmed);
  }
}

export function httpError(what: string, status: number, text: string, retryAfterMs?: number): ServiceError {
  const words = serverWords(text);
  const message = `${what} failed with HTTP ${status}${words ? `: ${words}` : '.'}`;
  return new ServiceError('http', message, { status, serverMessage: words, retryAfterMs });
}

/**
 * Removes values that must never be shown (the secret, a token) from a server's words, in case
 * the server echoes what it was sent.
 */
export function scrub(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) clean = clean.split(secret).join('[redacted]');
  }
  return clean;
}

function preview(text: string): string {
  // Strip markup so an HTML error page reads as its words, and keep messages to one short line.
  const plain = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain || '(empty)';
}
