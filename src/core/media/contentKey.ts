// A media file's identity for the journal: its SHA-256 and size, never its name or its place in
// a folder listing (files get renamed and re-sorted; their content is what was uploaded).
import { createHash, hash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { PackedFile } from '../files/packedFile';
import { giveBackHoldBuffer, giveBackReadBuffer, takeHoldBuffer, takeReadBuffer } from '../files/readBuffers';

/** `<sha256 hex>:<size>`, the key of a file's journal entries. */
export type ContentKey = string;

export function contentKey(sha256: string, size: number): ContentKey {
  return `${sha256}:${size}`;
}

/**
 * Reads the file through SHA-256 in pieces of at most 1 MiB (never whole in memory). With the
 * size known (from a stat just before), it stops there instead of reading once more for the end.
 */
export async function hashFile(path: string, expectedSize?: number, packed?: PackedFile): Promise<{ sha256: string; size: number }> {
  if (packed) return readPacked(packed, false);
  const hash = createHash('sha256');
  const handle = await fs.open(path, 'r');
  const buffer = takeReadBuffer();
  try {
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      size += bytesRead;
      if (expectedSize !== undefined && size >= expectedSize && bytesRead < buffer.length) break;
    }
    return { sha256: hash.digest('hex'), size };
  } finally {
    giveBackReadBuffer(buffer);
    await handle.close();
  }
}

/**
 * Reads a file of `expectedSize` bytes whole, into one buffer (see HeldContent), and hashes it: the
 * content is what an upload then sends. A file that is now shorter or longer says so in `size`
 * (the read asks for one byte more than expected), and holds no content.
 */
export async function readAndHashFile(path: string, expectedSize: number, packed?: PackedFile): Promise<{ sha256: string; size: number; content?: Buffer }> {
  if (packed) return readPacked(packed, true);
  const handle = await fs.open(path, 'r');
  // Memory kept for held content (files/readBuffers.ts): given back by HeldContent.release once
  // the upload is over, or here at once when the content is not held.
  const buffer = takeHoldBuffer(expectedSize + 1);
  let held = false;
  try {
    // One read for a local file; a network or FUSE file system may hand it out in pieces. A read
    // that reaches the expected size while asking for a byte more is the end (a regular file
    // reads short only there, see OpenedFile.framed): no read of its own to find it.
    let bytesRead = 0;
    for (;;) {
      const read = await handle.read(buffer, bytesRead, buffer.length - bytesRead, bytesRead);
      bytesRead += read.bytesRead;
      if (read.bytesRead === 0 || bytesRead >= expectedSize) break;
    }
    const content = buffer.subarray(0, bytesRead);
    const sha256 = createHash('sha256').update(content).digest('hex');
    held = bytesRead === expectedSize;
    return held ? { sha256, size: bytesRead, content } : { sha256, size: bytesRead };
  } finally {
    if (!held) giveBackHoldBuffer(buffer);
    await handle.close();
  }
}

/**
 * A file inside an archive, hashed as it is unpacked; `hold`: its bytes kept too (the archive's
 * reader stops an entry that unpacks to another size than it declares, so the size is the one checked).
 */
async function readPacked(packed: PackedFile, hold: boolean): Promise<{ sha256: string; size: number; content?: Buffer }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of await packed.open()) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (hold) chunks.push(chunk as Buffer);
  }
  const sha256 = hash.digest('hex');
  return hold && size === packed.size ? { sha256, size, content: Buffer.concat(chunks, size) } : { sha256, size };
}

/** The bytes a sample takes from each end of a file. */
export const SAMPLE_BYTES = 64 * 1024;

/**
 * The hash of a file's first and last SAMPLE_BYTES (with its size): two files whose samples
 * differ cannot have the same content, so a file of a size another file of its gallery has is
 * read whole only when their samples match (duplicate finders do the same). Undefined for a file
 * too small to sample (reading it whole costs no more).
 */
export async function sampleHash(path: string, size: number): Promise<string | undefined> {
  if (size <= 2 * SAMPLE_BYTES) return undefined;
  const handle = await fs.open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(2 * SAMPLE_BYTES);
    const head = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    const tail = await handle.read(buffer, SAMPLE_BYTES, SAMPLE_BYTES, size - SAMPLE_BYTES);
    return createHash('sha256')
      .update(buffer.subarray(0, head.bytesRead))
      .update(buffer.subarray(SAMPLE_BYTES, SAMPLE_BYTES + tail.bytesRead))
      .update(String(size))
      .digest('hex');
  } finally {
    await handle.close();
  }
}

/** Node's one-shot hash (20.12 and later; an older Electron's Node lacks it): a third of a Hash object's time for a spot's text. */
const oneShotHash = typeof hash === 'function' ? hash : undefined;

export function hashText(text: string): string {
  return oneShotHash ? oneShotHash('sha256', text, 'hex') : createHash('sha256').update(text, 'utf8').digest('hex');
}
