// One streamed multipart upload: the file is read from disk as it is sent, so memory stays flat
// whatever its size (undici's fetch + FormData would keep a second copy for redirects).
import { openAsBlob, promises as fs } from 'node:fs';
import { basename } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { FormDataEncoder, type FormDataLike } from 'form-data-encoder';
import { lookup } from 'mime-types';
import { ServiceError, throwIfAborted } from '../api/errors';
import { httpError, readText } from '../api/readReply';
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
}

export async function uploadFile(url: string, filePath: string, upload: UploadRequest): Promise<{ status: number; result: UploadResult }> {
  throwIfAborted(upload.signal);
  const size = await fileSize(filePath);
  const fileName = upload.fileName ?? basename(filePath);
  const mimeType = upload.mimeType ?? (lookup(fileName) || 'application/octet-stream');
  const form = new FormData();
  form.append(upload.fieldName, new File([await openAsBlob(filePath)], fileName, { type: mimeType }));
  // Node's FormData is spec-compliant; only the DOM typings differ from FormDataLike.
  const encoder = new FormDataEncoder(form as unknown as FormDataLike);
  // Progress counts file bytes: skip the part headers sent before the file (all but the closing
  // boundary, which follows it). Clamped, so a miscount can only blur the display.
  const trailer = encoder.boundary.length + 10;
  const preamble = Math.max(0, Number(encoder.contentLength ?? size) - size - trailer);

  let sent = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      upload.onProgress?.(Math.max(0, Math.min(size, sent - preamble)), size);
      done(null, chunk);
    },
  });
  const body = Readable.from(encoder.encode()).pipe(counter);
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
      body,
    });
    const text = await readText(response.body, upload.what);
    const status = response.statusCode;
    const result = { galleryId: upload.galleryId, fileName, mimeType, bytes: size, reply: parseLoosely(text) };
    if (status === 401) return { status, result };
    if (status < 200 || status >= 300) throw httpError(upload.what, status, text);
    upload.onProgress?.(size, size);
    return { status, result };
  } catch (error) {
    body.destroy();
    throw toServiceError(error, `${upload.what} (${fileName})`, upload.host, upload.signal);
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
