// A media file's identity for the journal: its SHA-256 and size, never its name or its place in
// a folder listing (files get renamed and re-sorted; their content is what was uploaded).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';

/** `<sha256 hex>:<size>`, the key of a file's journal entries. */
export type ContentKey = string;

export function contentKey(sha256: string, size: number): ContentKey {
  return `${sha256}:${size}`;
}

/**
 * Reads the file through SHA-256 in pieces of at most 1 MiB (never whole in memory), into one
 * buffer sized to the file: a read stream would allocate a fresh 1 MiB for every small photo.
 */
export async function hashFile(path: string, expectedSize?: number): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  const handle = await fs.open(path, 'r');
  try {
    const sizeHint = expectedSize ?? (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(sizeHint + 1, 1024 * 1024)));
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      size += bytesRead;
    }
    return { sha256: hash.digest('hex'), size };
  } finally {
    await handle.close();
  }
}

export function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
