// A file whose bytes the caller already holds (the media workflow read and hashed them in its
// check): it is sent from memory, so what goes out is exactly what was checked, and the file is
// not opened again. The same shape as OpenedFile, so the upload frames and sends either.
import type { UploadSource } from './uploadSource';

export class HeldFile implements UploadSource {
  readonly [Symbol.toStringTag] = 'File';
  readonly size: number;
  readonly lastModified = 0;

  constructor(
    readonly name: string,
    readonly type: string,
    private readonly content: Uint8Array,
  ) {
    this.size = content.length;
  }

  stream(): AsyncGenerator<Buffer> {
    return this.framed(new Uint8Array(0), new Uint8Array(0));
  }

  /** One chunk, like a file of up to 1 MiB read from disk: the framing and the bytes in one write. */
  async *framed(head: Uint8Array, tail: Uint8Array, onFileBytes?: (bytes: Uint8Array) => void): AsyncGenerator<Buffer> {
    onFileBytes?.(this.content);
    yield Buffer.concat([head, this.content, tail]);
  }

  async close(): Promise<void> {}
}
