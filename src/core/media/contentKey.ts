// A media file's identity for the journal: its SHA-256 and size, never its name or its place in
// a folder listing (files get renamed and re-sorted; their content is what was uploaded).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** `<sha256 hex>:<size>`, the key of a file's journal entries. */
export type ContentKey = string;

export function contentKey(sha256: string, size: number): ContentKey {
  return `${sha256}:${size}`;
}

/** Streams the file through SHA-256 (never whole in memory). */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

export function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
