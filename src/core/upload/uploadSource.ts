// What an upload reads a file's bytes from, framed for the multipart body: a FileLike for
// form-data-encoder (name, type, size) that also hands out its bytes with the framing around them.
import type { FileLike } from 'form-data-encoder';

/** What an upload reads a file's bytes from: the file itself (OpenedFile) or bytes already held. */
export interface UploadSource extends FileLike {
  /** The file's bytes with `head` in front and `tail` after; `onFileBytes` sees the file's bytes alone. */
  framed(head: Uint8Array, tail: Uint8Array, onFileBytes?: (bytes: Uint8Array) => void): AsyncGenerator<Buffer>;
  close(): Promise<void>;
}
