// One streamed multipart upload: the file is read from disk as it is sent, so memory stays flat
// whatever its size (undici's fetch + FormData would keep a second copy for redirects). The body
// is an async generator that undici pulls chunk by chunk, so the upload knows how far it got: a
// chunk is asked for only after the previous one was handed to the connection.
import { createReadStream, openAsBlob, promises as fs } from 'node:fs';
import { basename } from 'node:path';
import { request, type Dispatcher } from 'undici';
import { FormDataEncoder, type FormDataLike } from 'form-data-encoder';
import { lookup } from 'mime-types';
import { ServiceError, throwIfAborted, type RequestSent } from '../api/errors';
import { discard, httpError, readText, type Scrubber } from '../api/readReply';
import { parseRetryAfter } from '../api/retryPolicy';
import { toServiceError } from '../api/networkError';

export interface UploadOptions {
  signal?: AbortSignal;
  /** Bytes of the file sent so far, and the file's size. */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
  /** Name the server records (default: the file's own name). */
  fileName?: string;
  /** Default: from the file name, application/octet-stream when unknown. */
  mimeType?: string;
}

export interface UploadResult {
  galleryId: number;
  fileName: string;
  mimeType: string;
  bytes: number;
  /** The server's reply, parsed as JSON when it is JSON. */
  reply: unknown;
}

interface UploadRequest extends UploadOptions {
  galleryId: number;
  token: string;
  dispatcher?: Dispatcher;
  fieldName: string;
  what: string;
  host: string;
  redactor: Scrubber;
}

/**
 * Sends the file once. Resolves with the status for a 2xx or a 401 (the caller renews the token);
 * any other answer, and every failure, is a ServiceError whose details.requestSent says how far
 * the request got.
 */
export async function uploadFile(url: string, filePath: string, upload: UploadRequest): Promise<{ status: number; result: UploadResult }> {
  throwIfAborted(upload.signal);
  const size = await fileSize(filePath);
  const fileName = upload.fileName ?? basename(filePath);
  const mimeType = upload.mimeType ?? (lookup(fileName) || 'application/octet-stream');
  const form = new FormData();
  form.append(upload.fieldName, new File([await openAsBlob(filePath)], fileName, { type: mimeType }));
  // Node's FormData is spec-compliant; only the DOM typings differ from FormDataLike.
  const encoder = new FormDataEncoder(form as unknown as FormDataLike);
  let sent = 0;
  let requestSent: RequestSent = 'none';
  let status: number | undefined;
  const parts = multipartBody(encoder, filePath, (fileBytes) => {
    sent += fileBytes;
    upload.onProgress?.(Math.min(size, sent), size);
  });
  // undici asks for the first chunk once connected, and for the next one after it handed the
  // previous one to the connection: asked past the last chunk, it has sent the whole body.
  const body = (async function* tracked() {
    requestSent = 'partly';
    yield* parts;
    requestSent = 'whole';
  })();
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher: upload.dispatcher,
      signal: upload.signal,
      headers: {
        ...encoder.headers,
        authorization: `Bearer ${upload.token}`,
        accept: 'application/vnd.api+json',
      },
      // undici sends async iterables as they are pulled (its documented body types include them;
      // its typings lag behind).
      body: body as unknown as Dispatcher.DispatchOptions['body'],
    });
    requestSent = 'answered';
    status = response.statusCode;
    const result = { galleryId: upload.galleryId, fileName, mimeType, bytes: size, reply: undefined as unknown };
    if (status === 401) {
      await discard(response.body);
      return { status, result };
    }
    const text = await readText(response.body, upload.what, response.headers);
    if (status < 200 || status >= 300) {
      throw httpError(upload.what, status, text, { redactor: upload.redactor, retryAfterMs: parseRetryAfter(response.headers['retry-after']), requestSent });
    }
    upload.onProgress?.(size, size);
    return { status, result: { ...result, reply: parseLoosely(text) } };
  } catch (error) {
    throw toServiceError(error, { what: `${upload.what} (${fileName})`, host: upload.host, signal: upload.signal, requestSent, status, redactor: upload.redactor });
  } finally {
    // Closes the file if the request stopped reading it half-way (a no-op once it was read whole).
    void body.return(undefined).catch(() => undefined);
  }
}

/**
 * The library frames the parts (headers, boundary, escaping); the file's bytes come straight from
 * disk in 1 MiB reads rather than through its 64 KiB re-chunking, which halves the throughput.
 */
async function* multipartBody(encoder: FormDataEncoder, filePath: string, onFileBytes: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  for (const part of encoder.values()) {
    if (part instanceof Uint8Array) {
      yield part;
      continue;
    }
    for await (const chunk of createReadStream(filePath, { highWaterMark: 1024 * 1024 })) {
      onFileBytes((chunk as Buffer).length);
      yield chunk as Buffer;
    }
  }
}

async function fileSize(filePath: string): Promise<number> {
  let stats;
  try {
    stats = await fs.stat(filePath);
  } catch {
    throw new ServiceError('configuration', `Cannot read ${filePath}: the file does not exist or is not readable.`);
  }
  if (!stats.isFile()) throw new ServiceError('configuration', `${filePath} is not a file.`);
  return stats.size;
}

function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
