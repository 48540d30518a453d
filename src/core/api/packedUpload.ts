// A file inside an archive, sent as it is unpacked (the photos of a form tool's export.zip): the
// same shape as OpenedFile, so the upload frames and sends either. Its size is the one the archive
// declares; an entry that unpacks to another size fails before the body's final piece, so a
// request's body never matches its announced length and cannot be stored.
import type { Readable } from 'node:stream';
import type { PackedFile } from '../files/packedFile';
import { FileChangedError } from './errors';
import { asBuffer, type UploadSource } from './uploadSource';
import { l10n } from '../text/l10n';

export class PackedUpload implements UploadSource {
  readonly [Symbol.toStringTag] = 'File';
  readonly size: number;
  readonly lastModified: number;
  private reading?: Readable;

  constructor(
    private readonly packed: PackedFile,
    readonly name: string,
    readonly type: string,
  ) {
    this.size = packed.size;
    this.lastModified = packed.mtimeMs;
  }

  /** The entry's bytes alone. */
  stream(): AsyncGenerator<Buffer> {
    return this.framed(new Uint8Array(0), new Uint8Array(0));
  }

  /** `head`, the entry's bytes as they unpack, then its last byte with `tail` after it, a chunk of its own. */
  async *framed(head: Uint8Array, tail: Uint8Array, onFileBytes?: (bytes: Uint8Array) => void): AsyncGenerator<Buffer> {
    if (head.length > 0) yield asBuffer(head);
    this.reading = await this.packed.open();
    let read = 0;
    // The chunk before the last byte is held back until the next one shows the entry goes on.
    let last: Buffer | undefined;
    for await (const chunk of this.reading) {
      const bytes = chunk as Buffer;
      if (bytes.length === 0) continue;
      read += bytes.length;
      if (read > this.size) throw this.changed();
      onFileBytes?.(bytes);
      if (last) yield last;
      last = bytes;
    }
    if (read !== this.size) throw this.changed();
    if (last && last.length > 1) yield last.subarray(0, last.length - 1);
    const final = Buffer.allocUnsafe((last ? 1 : 0) + tail.length);
    if (last) final[0] = last[last.length - 1];
    final.set(tail, last ? 1 : 0);
    yield final;
  }

  async close(): Promise<void> {
    this.reading?.destroy();
  }

  private changed(): FileChangedError {
    return new FileChangedError(
      this.packed.label,
      l10n.t(
        '{0} did not unpack to the {1} bytes its archive declares, so the upload was stopped and it cannot have been stored.',
        this.packed.label,
        this.size,
      ),
    );
  }
}
