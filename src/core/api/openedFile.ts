// A file opened once for one upload. Its size is read from the open descriptor and its bytes are
// read from that same descriptor, so the size the request announces (Content-Length) and the bytes
// it sends are those of one file, even when the path is renamed or replaced meanwhile. It is a
// FileLike for form-data-encoder (name, type, size, stream()), so the library frames the part
// without Node's Blob/File (openAsBlob stats the file again, synchronously).
import { constants, promises as fs } from 'node:fs';
import { FileChangedError, ServiceError } from './errors';
import { READ_BUFFER_BYTES, giveBackReadBuffer, takeReadBuffer } from '../files/readBuffers';
import { asBuffer, type UploadSource } from './uploadSource';
import { l10n } from '../text/l10n';

const EMPTY = new Uint8Array(0);

/**
 * Read-only, and non-blocking so that opening a named pipe cannot hang: it is refused as "not a
 * file" right after (O_NONBLOCK does nothing to reads of a regular file; Windows has no pipes by
 * path and no such flag).
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export class OpenedFile implements UploadSource {
  readonly [Symbol.toStringTag] = 'File';
  /** The two read buffers taken in turn (see framed). */
  private readonly buffers: Buffer[] = [];

  private constructor(
    private readonly handle: fs.FileHandle,
    readonly path: string,
    readonly name: string,
    readonly type: string,
    readonly size: number,
    readonly lastModified: number,
    /** The file's change time (ctime) when it was opened: any write moves it, and nothing sets it back. */
    private readonly changedMs: number,
  ) {}

  /** Opens the file and reads its size; a missing, unreadable or non-file path is a clear error. */
  static async open(path: string, name: string, type: string): Promise<OpenedFile> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path, OPEN_FLAGS);
    } catch (error) {
      // Windows refuses to open a folder at all.
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw notAFile(path);
      throw new ServiceError('configuration', l10n.t('Cannot read {0}: the file does not exist or is not readable.', path));
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw notAFile(path);
      return new OpenedFile(handle, path, name, type, stats.size, stats.mtimeMs, stats.ctimeMs);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /** The file's bytes, exactly `size` of them (see `framed`). */
  stream(): AsyncGenerator<Buffer> {
    return this.framed(EMPTY, EMPTY);
  }

  /**
   * `head`, the file's bytes (exactly `size` of them), then the final piece: the file's last byte
   * with `tail` after it, a chunk of its own. `onFileBytes` sees the file's bytes alone, as they
   * are read.
   *
   * The file's bytes are read into two buffers taken in turn (files/readBuffers.ts), reads of up
   * to 1 MiB, and handed out as they are: a chunk stays valid until the one after the next is
   * asked for. That suits a consumer that asks for a chunk only once it has written the one
   * before, as undici does with a request body: it writes each chunk and waits for the
   * connection's 'drain' (a write of more than 16 KiB always waits) before it asks for the next.
   * close(true) gives the buffers back.
   *
   * A file that changed size since it was opened fails before its final piece is handed over, so
   * a request's body never matches its announced length and cannot be stored: the last read asks
   * for one byte more than is left, so the end of the file shows without a read of its own.
   */
  async *framed(head: Uint8Array, tail: Uint8Array, onFileBytes?: (bytes: Uint8Array) => void): AsyncGenerator<Buffer> {
    if (head.length > 0) yield asBuffer(head);
    let position = 0;
    for (let turn = 0; ; turn++) {
      const left = this.size - position;
      // The last read has room for a byte more than is left; every read before it leaves at least
      // one byte for it, the one the final piece carries.
      const last = left < READ_BUFFER_BYTES;
      const wanted = last ? left + 1 : Math.min(READ_BUFFER_BYTES, left - 1);
      const buffer = (this.buffers[turn % 2] ??= takeReadBuffer());
      const { bytesRead } = await this.handle.read(buffer, 0, wanted, position);
      if (bytesRead > left) throw this.changed('grew');
      if (bytesRead === 0 && left > 0) throw this.changed('shrank');
      position += bytesRead;
      if (bytesRead > 0) onFileBytes?.(buffer.subarray(0, bytesRead));
      // A short read that asked past the end is the end (a regular file reads short only there).
      if (last && bytesRead === left) {
        if (left > 1) yield buffer.subarray(0, left - 1);
        const final = Buffer.allocUnsafe(Math.min(left, 1) + tail.length);
        if (left > 0) final[0] = buffer[left - 1];
        final.set(tail, Math.min(left, 1));
        yield final;
        return;
      }
      if (bytesRead > 0) yield buffer.subarray(0, bytesRead);
    }
  }

  /**
   * Whether the file is still as it was opened: its size, modification and change times. A
   * write while it was read (even one that keeps the size) moves the change time.
   */
  async unchangedSinceOpened(): Promise<boolean> {
    const now = await this.handle.stat();
    return now.size === this.size && now.mtimeMs === this.lastModified && now.ctimeMs === this.changedMs;
  }

  /**
   * Resolves once the file's last change is far enough in the past that any further change is
   * seen (unchangedSinceOpened): file times come from a clock that ticks every few milliseconds,
   * so a write within the tick of the one before it could leave its times as they were. A file
   * that changed within the last 100 ms (2 s on a file system with whole-second times) is waited
   * for until then, which only a file still being written meets.
   */
  async settled(): Promise<void> {
    const margin = this.changedMs % 1000 === 0 ? 2000 : 100;
    const wait = Math.min(margin, margin - (Date.now() - this.changedMs));
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /**
   * Safe to call more than once. `replied`: the request that carried the file has been answered
   * and its reply read, so the connection is done with every byte it was handed (a server answers
   * once it has read the body; one that answers earlier has the connection closed by undici), and
   * the read buffers go back for other reads. Otherwise they are left to the garbage collector: a
   * connection cut off may still hold them.
   */
  async close(replied = false): Promise<void> {
    const buffers = this.buffers.splice(0);
    if (replied) buffers.forEach(giveBackReadBuffer);
    await this.handle.close().catch(() => undefined);
  }

  private changed(how: 'grew' | 'shrank'): FileChangedError {
    return new FileChangedError(
      this.path,
      how === 'grew'
        ? l10n.t(
            '{0} changed while it was being sent (it grew from {1} bytes), so the upload was stopped and it cannot have been stored. Send it again once it is complete.',
            this.path,
            this.size,
          )
        : l10n.t(
            '{0} changed while it was being sent (it shrank from {1} bytes), so the upload was stopped and it cannot have been stored. Send it again once it is complete.',
            this.path,
            this.size,
          ),
    );
  }
}

function notAFile(path: string): ServiceError {
  return new ServiceError('configuration', l10n.t('{0} is not a file.', path));
}
