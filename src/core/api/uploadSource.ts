// What an upload reads a file's bytes from, framed for the multipart body: a FileLike for
// form-data-encoder (name, type, size) that also hands out its bytes with the framing around them.
import type { FileLike } from 'form-data-encoder';

/** What an upload reads a file's bytes from: the file itself (OpenedFile) or bytes already held. */
export interface UploadSource extends FileLike {
  /**
   * `head`, the file's bytes, then the final piece as a chunk of its own: the file's last byte
   * with `tail` after it (`tail` alone for an empty file). `onFileBytes` sees the file's bytes alone.
   */
  framed(head: Uint8Array, tail: Uint8Array, onFileBytes?: (bytes: Uint8Array) => void): AsyncGenerator<Buffer>;
  /** `replied`: the request that carried the bytes was answered and its reply read (see OpenedFile.close). */
  close(replied?: boolean): Promise<void>;
}

/** The same bytes as a Buffer (a view, not a copy). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}
