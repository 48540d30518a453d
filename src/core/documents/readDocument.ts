// Reading a spot document from disk: the one place that says which files are read at all (not one
// larger than MAX_DOCUMENT_BYTES) and how their bytes become text (strict UTF-8). The media
// workflow, the bulk import's file items and the command line all read documents through here,
// and the command line its topic definitions.
import { closeSync, fstatSync, openSync, promises as fs, readSync } from 'node:fs';
import { sameFileState, type FileState } from '../files/fileState';
import { MAX_DOCUMENT_BYTES } from './parseSpotText';
import { l10n } from '../text/l10n';

/**
 * Strict: a byte that is not UTF-8 throws instead of becoming U+FFFD, which would send text the
 * user never wrote. ignoreBOM keeps a leading byte-order mark in the text, as readFile('utf8')
 * did: parseSpotText drops it before sending, and the write-back keeps it in the file.
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of a document's bytes; throws, saying what to do, when they are not UTF-8. */
export function decodeDocumentText(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new Error(l10n.t('it is not UTF-8 text: save it as UTF-8 and run again (the first byte that is not UTF-8 is on line {0})', firstLineNotUtf8(bytes)));
  }
}

/**
 * A topic definition may list far more than a spot document holds (a species list of tens of
 * thousands of categories); its cap only keeps a file that is none (a dump of hundreds of MiB)
 * from being read whole, which would stop the run instead of being said about that file.
 */
export const MAX_DEFINITION_BYTES = 16 * MAX_DOCUMENT_BYTES;

/** Reads a spot document: refused unread when too large, refused when not UTF-8. */
export async function readSpotDocument(path: string): Promise<string> {
  const handle = await fs.open(path, 'r');
  try {
    refuseTooLarge((await handle.stat()).size);
    return decodeDocumentText(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** Reads a topic definition as a spot document is read (strict UTF-8, a byte-order mark kept), refused unread above MAX_DEFINITION_BYTES. */
export async function readDefinitionText(path: string): Promise<string> {
  const handle = await fs.open(path, 'r');
  try {
    refuseDefinitionSize((await handle.stat()).size);
    return decodeDefinitionText(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** Throws what is wrong with a topic definition of `size` bytes before it is read. */
export function refuseDefinitionSize(size: number): void {
  if (size > MAX_DEFINITION_BYTES)
    throw new Error(l10n.t('it is {0} MiB, larger than a topic definition can be ({1} MiB)', Math.round(size / 1048576), MAX_DEFINITION_BYTES / 1048576));
}

/**
 * A topic definition's or a mapping's text, as the command line and the editor read it (the editor
 * hands in the bytes it read through VS Code's file system): strict UTF-8; throws what is wrong otherwise.
 */
export function decodeDefinitionText(bytes: Uint8Array): string {
  const text = decodeDocumentText(bytes);
  // A zero byte is UTF-8 but never JSON: it is UTF-16 without a byte-order mark, which would
  // otherwise be reported as dozens of "invalid symbol"s instead of what to do about it.
  const zero = bytes.indexOf(0);
  if (zero !== -1)
    throw new Error(l10n.t('it holds zero bytes, as UTF-16 text does: save it as UTF-8 and run again (the first is on line {0})', lineOf(bytes, zero)));
  return text;
}

/** Where the synchronous read puts a document of the usual size (decoded before the next read). */
const SCRATCH_BYTES = 64 * 1024;
let scratch: Buffer | undefined;

/**
 * What a document's file was when it was read (from the descriptor it was read through): a
 * writer that finds the file the same (see sameAsRead) need not read it again to know it still
 * holds the text read.
 */
export interface DocumentStamp {
  dev: number;
  ino: number;
  size: number;
  mode: number;
  mtimeMs: number;
  ctimeMs: number;
  /** This process's clock just before the file was looked at (Date.now()). */
  at: number;
}

/** readSpotDocument, with the file's stamp. */
export async function readSpotDocumentStamped(path: string): Promise<{ text: string; stamp: DocumentStamp }> {
  const handle = await fs.open(path, 'r');
  try {
    const at = Date.now();
    const stats = await handle.stat();
    refuseTooLarge(stats.size);
    const text = decodeDocumentText(await handle.readFile());
    return { text, stamp: { dev: stats.dev, ino: stats.ino, size: stats.size, mode: stats.mode, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, at } };
  } finally {
    await handle.close();
  }
}

/**
 * Whether `now` (the file's stats now) is the file as it was read. Any write since changes the
 * size or the change time (ctime, which no program sets back, unlike the modification time), and
 * a file replaced by another (an editor's save by rename) has another inode. Unless the write came
 * so soon after the one before it that both got the same timestamp: a file whose times were that
 * close to the moment it was read is never taken as unchanged ("racily clean", as git calls it),
 * its text is compared instead. A file system with whole-second times gets two seconds of margin.
 */
export function sameAsRead(stamp: DocumentStamp, now: FileState): boolean {
  if (!sameFileState(stamp, now)) return false;
  const wholeSeconds = stamp.mtimeMs % 1000 === 0 && stamp.ctimeMs % 1000 === 0;
  return stamp.at - Math.max(stamp.mtimeMs, stamp.ctimeMs) > (wholeSeconds ? 2000 : RACY_MS);
}

/** Far more than the clock tick file times are taken from (1 to 10 ms on Linux). */
const RACY_MS = 100;

/**
 * The same read, synchronous: for a file of a few hundred bytes, a stat and a read straight from
 * this thread cost a fraction of the trips through libuv's thread pool (the command line reads
 * 10,000 documents this way). Four system calls (open, fstat, read, close), the size refused
 * before a byte is read, and the bytes of a usual document read into one buffer kept for the
 * next: the text is all that is new per document.
 */
export function readSpotDocumentSync(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    refuseTooLarge(size);
    // A size of 0 may be a file whose size the system does not know (as readFileSync, read to its end).
    if (size === 0) return decodeDocumentText(readToEnd(fd));
    const buffer = size <= SCRATCH_BYTES ? (scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES)) : Buffer.allocUnsafe(size);
    let got = 0;
    // As readFileSync: up to the size the file had when opened (or its end, if it shrank).
    while (got < size) {
      const read = readSync(fd, buffer, got, size - got, null);
      if (read === 0) break;
      got += read;
    }
    return decodeDocumentText(buffer.subarray(0, got));
  } finally {
    closeSync(fd);
  }
}

/** Everything left in the file, refused once it is larger than a document can be. */
function readToEnd(fd: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(SCRATCH_BYTES);
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, read));
    total += read;
    refuseTooLarge(total);
  }
}

function refuseTooLarge(size: number): void {
  if (size > MAX_DOCUMENT_BYTES) throw new Error(l10n.t('it is {0} MiB, larger than a spot document can be', Math.round(size / 1048576)));
}

/**
 * The line of the first byte that is not UTF-8, so the user knows where to look. Only on the
 * failure path: the longest prefix that decodes (a sequence cut off at its end is allowed while
 * streaming) ends where the bad byte starts, found in about twenty decodes of at most 2 MiB.
 */
function firstLineNotUtf8(bytes: Uint8Array): number {
  let valid = 0;
  let invalid = bytes.length;
  while (invalid - valid > 1) {
    const middle = Math.floor((valid + invalid) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
      valid = middle;
    } catch {
      invalid = middle;
    }
  }
  return lineOf(bytes, valid);
}

/** The line (from 1) of the byte at `offset`. */
function lineOf(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
