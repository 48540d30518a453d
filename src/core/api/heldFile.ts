// A file whose bytes the caller already holds (the media workflow read and hashed them in its
// check): it is sent from memory, so what goes out is exactly what was checked, and the file is
// not opened again. The same shape as OpenedFile, so the upload frames and sends either.
import { asBuffer, type UploadSource } from './uploadSource';

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

  /**
   * The held bytes themselves, never a copy of them (a copy per file doubled the garbage the
   * workflow made): the framing in front, the bytes up to the last one, then the last byte with
   * the framing after it, which is the upload's final piece (see uploadFile) and the only bytes
   * copied.
   */
  async *framed(head: Uint8Array, tail: Uint8Array, onFileBytes?: (bytes: Uint8Array) => void): AsyncGenerator<Buffer> {
    const content = this.content;
    onFileBytes?.(content);
    const last = content.length - 1;
    if (head.length > 0) yield asBuffer(head);
    if (last > 0) yield asBuffer(content.subarray(0, last));
    const lastBytes = last >= 0 ? 1 : 0;
    const end = Buffer.allocUnsafe(lastBytes + tail.length);
    if (lastBytes) end[0] = content[last];
    end.set(tail, lastBytes);
    if (end.length > 0) yield end;
  }

  async close(): Promise<void> {}
}
