// Receives the one file of a multipart/form-data upload, streaming it straight to a temporary
// file: busboy hands the part over chunk by chunk and pipe backpressure holds the socket while
// the disk catches up, so memory stays flat however large the file. On any failure, including
// the client going away mid-upload, the partial file is deleted before the promise settles.
import busboy from 'busboy';
import { randomUUID } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ClientGoneError, HttpError } from './http';

export interface ReceivedFile {
  tempPath: string;
  /** The part's file name without any directory ('' when the part had none). */
  fileName: string;
  /** The part's declared content type. */
  partType: string;
  size: number;
}

export const TEMP_PREFIX = '.upload-';
// Larger buffers than the stream defaults: fewer, bigger disk writes for big uploads.
const FILE_HWM = 256 * 1024;

/** durable: the file is fsynced before the promise resolves (the sandbox has a data directory). */
export function receiveFile(req: IncomingMessage, dir: string, fieldName: string, durable = false): Promise<ReceivedFile> {
  let parser: busboy.Busboy;
  try {
    // defParamCharset utf8: clients send non-ASCII file names as raw UTF-8 in filename="...".
    parser = busboy({ headers: req.headers, defParamCharset: 'utf8', fileHwm: FILE_HWM, limits: { fieldSize: 64 * 1024, fields: 100, parts: 200 } });
  } catch (error) {
    return Promise.reject(HttpError.of(400, 'invalid_multipart', `The multipart body cannot be read: ${(error as Error).message}.`));
  }

  return new Promise((resolve, reject) => {
    let saving: Promise<ReceivedFile> | undefined;
    let textInFileField = false;
    let secondFile = false;
    let settled = false;

    const fail = async (error: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      parser.destroy(error); // also ends the file stream, which makes saveFile delete its temp file
      const saved = await saving?.catch(() => undefined);
      if (saved) await fs.rm(saved.tempPath, { force: true });
      reject(error);
    };

    parser.on('file', (_name: string, stream: Readable, info: busboy.FileInfo) => {
      // The first file part is the upload, normally in fieldName: the built-in sandboxes of the
      // editor and the command line start with the default name, while the client may be set to
      // the name a real service wants. A second file is refused when the body ends (read to its
      // end meanwhile), not silently dropped.
      if (saving) {
        secondFile = true;
        stream.resume();
        return;
      }
      saving = saveFile(stream, info, dir, durable);
      saving.catch(() => undefined); // awaited below; this only silences the early rejection
    });
    parser.on('field', (name: string) => {
      if (name === fieldName) textInFileField = true;
    });
    parser.on('error', (error: Error) => {
      void fail(HttpError.of(400, 'invalid_multipart', `The multipart body cannot be read: ${error.message}.`));
    });
    parser.on('finish', () => {
      if (settled) return;
      if (secondFile) {
        void fail(
          HttpError.of(422, 'too_many_files', 'An upload takes one file, and this body has more than one; send each file in a request of its own.', {
            pointer: `/data/attributes/file`,
          }),
        );
        return;
      }
      if (!saving) {
        const detail = textInFileField
          ? `The part "${fieldName}" was sent as a text field; send it as a file (with a filename).`
          : `No file was sent; send it in the multipart part "${fieldName}".`;
        void fail(HttpError.of(422, 'missing_file', detail, { pointer: `/data/attributes/file` }));
        return;
      }
      saving.then(
        (file) => {
          settled = true;
          resolve(file);
        },
        (error: Error) => void fail(error),
      );
    });
    req.on('error', () => undefined); // an abort surfaces as 'close' below; this keeps it from being unhandled
    req.on('close', () => {
      if (!req.complete) void fail(new ClientGoneError());
    });
    req.pipe(parser);
  });
}

async function saveFile(stream: Readable, info: busboy.FileInfo, dir: string, durable: boolean): Promise<ReceivedFile> {
  const tempPath = join(dir, `${TEMP_PREFIX}${randomUUID()}`);
  // flush: fsync before close, so an acknowledged upload's bytes survive a crash.
  const out = createWriteStream(tempPath, { flags: 'wx', highWaterMark: FILE_HWM, flush: durable });
  try {
    await pipeline(stream, out);
  } catch (error) {
    await fs.rm(tempPath, { force: true });
    throw error;
  }
  return { tempPath, fileName: info.filename ?? '', partType: info.mimeType, size: out.bytesWritten };
}
