// Reply and body helpers shared by every handler, so that all answers have one shape: JSON:API
// error objects for the API, plain JSON for the token endpoint and the /__sandbox endpoints.
import type { IncomingMessage, ServerResponse } from 'node:http';

const JSON_API = 'application/vnd.api+json';
export const PLAIN_JSON = 'application/json; charset=utf-8';

export interface JsonApiError {
  status: string;
  code: string;
  title: string;
  detail: string;
  /** pointer: a member of the request body (RFC 6901); parameter: a path or query parameter. */
  source?: { pointer?: string; parameter?: string };
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A refusal the handlers throw; the dispatcher turns it into a JSON:API error reply. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errors: JsonApiError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors[0]?.detail ?? `HTTP ${status}`);
  }

  static of(status: number, code: string, detail: string, source?: JsonApiError['source'], headers?: Record<string, string>): HttpError {
    return new HttpError(status, [apiError(status, code, detail, source)], headers);
  }
}

/** The client went away mid-request: there is nobody left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before the request was complete.');
  }
}

export function apiError(status: number, code: string, detail: string, source?: JsonApiError['source']): JsonApiError {
  const error: JsonApiError = { status: String(status), code, title: TITLES[status] ?? `HTTP ${status}`, detail };
  if (source) error.source = source;
  return error;
}

// An early reply (sent before the body was read: 401, 404, 413, 415) only helps if the client
// gets to read it. Closing a socket that still has unread bytes makes the kernel answer with a
// reset, which destroys the reply on its way and leaves the client with EPIPE or ECONNRESET. So
// the rest of the body is read and thrown away, up to this many bytes; a body declared larger
// is not worth reading and gets Connection: close instead (that client may well see the reset).
const DRAIN_LIMIT = 64 * 1024 * 1024;

export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType = JSON_API,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(text)),
    ...drainUnread(req),
  });
  res.end(text);
}

export function sendEmpty(req: IncomingMessage, res: ServerResponse, status: number): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, drainUnread(req));
  res.end();
}

export function sendErrors(req: IncomingMessage, res: ServerResponse, error: HttpError): void {
  sendJson(req, res, error.status, { errors: error.errors }, JSON_API, error.headers);
}

/**
 * Before a reply: when part of the body is still unread, reads and discards it (so the socket
 * is not closed under the client's feet) unless it is declared larger than DRAIN_LIMIT, which
 * is answered with Connection: close. A body that turns out larger than the limit while being
 * drained has its connection cut; a stalled one is left to the server's idle timeout.
 */
function drainUnread(req: IncomingMessage): Record<string, string> {
  if (req.complete || req.destroyed) return {};
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT) return { Connection: 'close' };
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT) req.socket.destroy();
  });
  req.resume();
  return {};
}

/** The media type of the request body without parameters, lower case ('' when absent). */
export function mediaTypeOf(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** Reads the whole body, refusing (413) anything larger than limit before buffering it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () => HttpError.of(413, 'body_too_large', `The request body is larger than ${limit} bytes.`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        settle(tooLarge());
      } else chunks.push(chunk);
    };
    const onEnd = () => settle(undefined);
    const onClose = () => {
      if (!req.complete) settle(new ClientGoneError());
    };
    req.on('data', onData).on('end', onEnd).on('close', onClose);
  });
}

/** Decodes UTF-8 strictly: a body with broken bytes is a client mistake, not text to guess at. */
export function decodeUtf8(body: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}
