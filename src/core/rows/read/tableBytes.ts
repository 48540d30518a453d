// Where a table's bytes are: a file by its path, or an entry of an archive (a form tool's export.zip
// holding form.csv beside its photos), read in place. The text readers take either.
import { open } from 'node:fs/promises';
import type { PackedFile } from '../../files/packedFile';
import { READ_CHUNK_BYTES } from './limits';

export type TableBytes = string | PackedFile;

/**
 * The bytes in order, a chunk at a time. A file's chunks share one buffer: a chunk is valid until
 * the next is asked for (the decoders copy what they keep).
 */
export async function* byteChunks(bytes: TableBytes): AsyncGenerator<Buffer> {
  if (typeof bytes !== 'string') {
    for await (const chunk of await bytes.open()) yield chunk as Buffer;
    return;
  }
  const handle = await open(bytes, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** The first `limit` bytes (fewer when there are fewer), and whether that is all of them. */
export async function firstBytes(bytes: PackedFile, limit: number): Promise<{ sample: Uint8Array; complete: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  const stream = await bytes.open();
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length > limit) break;
    }
  } finally {
    stream.destroy();
  }
  const all = Buffer.concat(chunks);
  return { sample: all.subarray(0, limit), complete: all.length <= limit };
}
