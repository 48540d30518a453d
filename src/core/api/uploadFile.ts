// One streamed multipart upload: the file is read from disk as it is sent, so memory stays flat
// whatever its size (undici's fetch + FormData would keep a second copy for redirects), unless the
// caller already holds its bytes (UploadOptions.content). The body is an async generator that
// undici pulls chunk by chunk, so the upload knows how far it got: a chunk is asked for only after
// the previous one was handed to the connection. The file is opened once (OpenedFile): its size,
// its bytes and the check that its size did not change come from one descriptor; an edit that
// keeps the size is noticed only when the caller names the content's hash (UploadOptions.sha256),
// or has the file hashed as it is sent (UploadOptions.hashWhileSending: read once, and stopped
// before its end when it changed while it was read).
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { request, type Dispatcher } from 'undici';
import { FormDataEncoder, type FormDataEntryValue, type FormDataLike } from 'form-data-encoder';
import { FileChangedError, throwIfAborted, type RequestSent } from './errors';
import { discard, httpError, readText, wordsOf, type RequestWords, type Scrubber } from './readReply';
import { parseRetryAfter } from './retryPolicy';
import { toServiceError } from './networkError';
import { AttemptDeadline } from './deadline';
import { GENERIC_MIME_TYPE, mimeTypeOf } from '../files/mimeType';
import { HeldFile } from './heldFile';
import { OpenedFile } from './openedFile';
import { PackedUpload } from './packedUpload';
import type { PackedFile } from '../files/packedFile';
import type { UploadSource } from './uploadSource';
import { l10n } from '../text/l10n';
import { withMembers } from '../objects/withMembers';

export interface UploadOptions {
  signal?: AbortSignal;
  /** Bytes of the file sent so far, and the file's size. */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
  /** Name the server records (default: the file's own name). */
  fileName?: string;
  /** Default: from the file name (mimeTypeOf), GENERIC_MIME_TYPE when unknown. */
  mimeType?: string;
  /**
   * The body's final piece (the file's last byte and the framing after it) waits for this
   * promise, so whatever it stands for (the media workflow's journal entry announcing this upload,
   * being made durable) overlaps with sending the rest. Without that piece no server can have
   * seen the file's part end, so it cannot have stored it; when the promise rejects, the request
   * is abandoned before it and the upload fails with that very error. The caller
   * handles its rejection too: a request that fails earlier never waits for it.
   */
  holdEnd?: Promise<unknown>;
  /**
   * The file's bytes, already read by the caller (the media workflow's check hashed them): sent
   * as they are, and the file is not read again.
   */
  content?: Uint8Array;
  /** A file inside an archive: read from it as it is sent (`filePath` then only names it). */
  packed?: PackedFile;
  /**
   * The SHA-256 (hex) the file's content must have. Read from disk, the bytes are hashed as they
   * go out, and a file that differs (edited since it was hashed, even to the same size) stops the
   * request before its final piece: it is never stored as the content the caller recorded.
   */
  sha256?: string;
  /**
   * The file is hashed (SHA-256) as it is read from disk and sent, so that it is read once: once
   * its last byte is read, `hashed` gets the hash with the file's size and modification time, and
   * the body's final piece waits for the promise it returns (as for holdEnd: the media workflow
   * records the upload under the file's content before it can be stored; a rejection abandons the
   * request before its final piece, and the upload fails with that error). A file whose size is
   * not `size` (the size the caller checked), or that changed while it was read (its change time
   * moved), is stopped before its final piece as changed: it cannot have been stored.
   */
  hashWhileSending?: { size: number; hashed(content: SentContent): Promise<unknown> };
}

/** What was read and sent of a file hashed while it was sent. */
export interface SentContent {
  sha256: string;
  size: number;
  /** The modification time the file had while it was read. */
  mtimeMs: number;
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
  /** How messages name the upload ("Uploading to gallery 3"), made only when there is a message. */
  what: RequestWords;
  host: string;
  redactor: Scrubber;
  /**
   * Time for the reply (its head and its body) once the whole body went out; none when absent.
   * Not for sending the body: a large file on a slow line may rightly take long, and while it
   * flows the dispatcher's idle timeout watches it. A reply that drips never trips that one.
   */
  replyDeadlineMs?: number;
}

/**
 * Sends the file once. Resolves with the status for a 2xx or a 401 (the caller renews the token);
 * any other answer, and every failure, is a ServiceError whose details.requestSent says how far
 * the request got.
 */
export async function uploadFile(url: string, filePath: string, upload: UploadRequest): Promise<{ status: number; result: UploadResult }> {
  throwIfAborted(upload.signal);
  const fileName = upload.fileName ?? basename(filePath);
  const mimeType = upload.mimeType ?? mimeTypeOf(fileName, GENERIC_MIME_TYPE);
  const file = upload.content
    ? new HeldFile(fileName, mimeType, upload.content)
    : upload.packed
      ? new PackedUpload(upload.packed, fileName, mimeType)
      : await OpenedFile.open(filePath, fileName, mimeType);
  const size = file.size;
  // An archive's entry does not change while it is read: what it unpacks to is what is hashed.
  const hashing = file instanceof HeldFile ? undefined : upload.hashWhileSending;
  if (hashing && size !== hashing.size) {
    await file.close();
    throw changedSinceChecked(filePath, hashing.size, size);
  }
  // Hashed as it is read, its content is what the caller records: a change while it is read must show.
  if (hashing && file instanceof OpenedFile) await file.settled();
  const verify = (upload.sha256 && !upload.content) || hashing ? createHash('sha256') : undefined;
  let sent = 0;
  let requestSent: RequestSent = 'none';
  /** The body's final piece was handed over: requestSent went 'whole' before any answer. */
  let bodyWhole = false;
  let status: number | undefined;
  let body: AsyncGenerator<Uint8Array> | undefined;
  let holdFailed: { error: unknown } | undefined;
  /** The reply was read in full: the connection is done with the body (see UploadSource.close). */
  let replied = false;
  const deadline = new AttemptDeadline(upload.signal, upload.replyDeadlineMs, { startsLater: true });
  try {
    const encoder = new FormDataEncoder(oneFileForm(upload.fieldName, file));
    const { head, tail } = framing(encoder);
    const parts = file.framed(head, tail, (fileBytes) => {
      verify?.update(fileBytes);
      sent += fileBytes.length;
      upload.onProgress?.(Math.min(size, sent), size);
    });
    // undici asks for the first chunk once connected, and for the next one after it handed the
    // previous one to the connection. The final piece is the body's last chunk (the source hands
    // it out apart: the file's last byte with the framing after it): before it, no multipart
    // parser has seen the file's part end, so it waits for holdEnd; and from the moment it is
    // handed over the body may be whole at the server, so the request counts as sent whole (a
    // failure then is checked, not replayed).
    const length = head.length + size + tail.length;
    body = (async function* tracked() {
      requestSent = 'partly';
      let offset = 0;
      for await (const chunk of parts) {
        if (chunk.length === 0) continue;
        offset += chunk.length;
        if (offset < length) {
          yield chunk;
          continue;
        }
        // A source that hands out more than the final piece in its last chunk has it split off.
        const final = Math.min(chunk.length, tail.length + 1);
        if (chunk.length > final) yield chunk.subarray(0, chunk.length - final);
        try {
          // Every byte of the file has been read by now (the final piece is the last chunk's end).
          if (hashing) {
            const sha256 = verify!.digest('hex');
            if (file instanceof OpenedFile && !(await file.unchangedSinceOpened())) throw changedWhileRead(filePath);
            await hashing.hashed({ sha256, size, mtimeMs: file.lastModified });
          } else if (verify && verify.digest('hex') !== upload.sha256) throw changedSinceHashed(filePath);
          await upload.holdEnd;
        } catch (error) {
          holdFailed = { error };
          throw error;
        }
        requestSent = 'whole';
        bodyWhole = true;
        // The clock runs from here, not from the last byte's arrival at the server: the final
        // piece is a few bytes, and what the connection still buffers drains in moments on a
        // line whose buffers are sized to it.
        deadline.start();
        yield chunk.subarray(chunk.length - final);
      }
    })();
    const response = await request(url, {
      method: 'POST',
      dispatcher: upload.dispatcher,
      signal: deadline.signal,
      headers: {
        // The encoder's own headers object is a Proxy: spreading it costs more than naming these.
        'content-type': encoder.contentType,
        'content-length': encoder.contentLength,
        authorization: `Bearer ${upload.token}`,
        accept: 'application/vnd.api+json',
      },
      // undici sends async iterables as they are pulled (its documented body types include them;
      // its typings lag behind).
      body: body as unknown as Dispatcher.DispatchOptions['body'],
    });
    // A server may answer before the body is whole (a refusal that reads no more of it): then the
    // body may never end, so the clock starts with the reply's head too.
    deadline.start();
    requestSent = 'answered';
    status = response.statusCode;
    const result = { galleryId: upload.galleryId, fileName, mimeType, bytes: size, reply: undefined as unknown };
    if (status === 401) {
      await discard(response.body);
      replied = true;
      return { status, result };
    }
    const text = await readText(response.body, upload.what, response.headers);
    replied = true;
    if (status < 200 || status >= 300) {
      throw httpError(upload.what, status, text, { redactor: upload.redactor, retryAfterMs: parseRetryAfter(response.headers['retry-after']), requestSent });
    }
    upload.onProgress?.(size, size);
    return { status, result: withMembers(result, { reply: parseLoosely(text) }) };
  } catch (error) {
    if (holdFailed) throw holdFailed.error;
    throw toServiceError(error, {
      what: `${wordsOf(upload.what)} (${fileName})`,
      host: upload.host,
      signal: upload.signal,
      deadline,
      // Answered before the body was whole, and then no complete reply: the body went out only in
      // part, so the file cannot have been stored, and no message may say it was sent whole.
      requestSent: requestSent === 'answered' && !bodyWhole ? 'partly' : requestSent,
      status,
      redactor: upload.redactor,
    });
  } finally {
    deadline.dispose();
    // Ends the body if the request stopped pulling it half-way (after a read in flight, if any),
    // then closes the file: once the upload settled, nothing holds it open.
    await body?.return(undefined).catch(() => undefined);
    await file.close(replied);
  }
}

/** The one field, as form-data-encoder reads a form (Node's FormData would turn a FileLike into a string). */
function oneFileForm(fieldName: string, file: UploadSource): FormDataLike {
  const entries = (): IterableIterator<[string, FormDataEntryValue]> => new Map<string, FormDataEntryValue>([[fieldName, file]]).entries();
  return {
    [Symbol.toStringTag]: 'FormData',
    append: () => {
      throw new TypeError('This form holds one file and takes no more fields.');
    },
    getAll: (name) => (name === fieldName ? [file] : []),
    entries,
    [Symbol.iterator]: entries,
  };
}

/**
 * The library frames the parts (headers, boundary, escaping); the file's bytes come straight from
 * the opened file in reads of up to 1 MiB rather than through its 64 KiB re-chunking, which halves
 * the throughput. The framing before the file goes out as a chunk of its own (undici writes it
 * with the request's head), the framing after it in the final piece with the file's last byte
 * (see UploadSource.framed and tracked).
 */
function framing(encoder: FormDataEncoder): { head: Buffer; tail: Buffer } {
  const before: Uint8Array[] = [];
  const after: Uint8Array[] = [];
  let parts = before;
  for (const part of encoder.values()) {
    if (part instanceof Uint8Array) parts.push(part);
    else parts = after; // the one file
  }
  return { head: Buffer.concat(before), tail: Buffer.concat(after) };
}

function changedSinceHashed(path: string): FileChangedError {
  return new FileChangedError(
    path,
    l10n.t(
      '{0} changed after it was checked (its content is no longer what was hashed), so its upload was stopped before its end and it cannot have been stored. Run again: the file is checked anew.',
      path,
    ),
  );
}

function changedSinceChecked(path: string, checked: number, now: number): FileChangedError {
  return new FileChangedError(
    path,
    l10n.t('{0} changed after it was checked (it has {1} bytes, not {2}), so it was not sent. Run again: the file is checked anew.', path, now, checked),
  );
}

function changedWhileRead(path: string): FileChangedError {
  return new FileChangedError(
    path,
    l10n.t(
      '{0} changed while it was being sent, so its upload was stopped before its end and it cannot have been stored. Run again once it is complete.',
      path,
    ),
  );
}

function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
