// A file opened once for one upload. Its size is read from the open descriptor and its bytes are
// read from that same descriptor, so the size the request announces (Content-Length) and the bytes
// it sends are those of one file, even when the path is renamed or replaced meanwhile. It is a
// FileLike for form-data-encoder (name, type, size, stream()), so the library frames the part
// without Node's Blob/File (openAsBlob stats the file again, synchronously).
import { constants, promises as fs } from 'node:fs';
import { FileChangedError, ServiceError } from '../api/errors';
import type { UploadSource } from './uploadSource';

/** Bytes per read: larger reads than a stream's 64 KiB, and one read for most media. */
const READ_BYTES = 1024 * 1024;

const EMPTY = new Uint8Array(0);

/**
 * Read-only, and non-blocking so that opening a named pipe cannot hang: it is refused as "not a
 * file" right after (O_NONBLOCK does nothing to reads of a regular file; Windows has no pipes by
 * path and no such flag).
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export class OpenedFile implements UploadSource {
  readonly [Symbol.toStringTag] = 'File';

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
      throw new ServiceError('configuration', `Cannot read ${path}: the file does not exist or is not readable.`);
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
   * The file's bytes, exactly `size` of them, with `head` in front of the first read and `tail`
   * after the last, in the buffers the reads fill: a file of up to 1 MiB is one chunk, with no
   * copy of its bytes. `onFileBytes` sees the file's bytes alone, as they are read.
   *
   * A file that changed size since it was opened fails before its last bytes are handed over, so
   * a request's body never matches its announced length and cannot be stored: the last read asks
   * for one byte more than is left, so the end of the file shows without a read of its own.
   */
  async *framed(head: Uint8Array, tail: Uint8Array, onFileBytes?: (bytes: Uint8Array) => void): AsyncGenerator<Buffer> {
    let position = 0;
    let front = head;
    for (;;) {
      const left = this.size - position;
      const last = left <= READ_BYTES;
      const wanted = last ? left + 1 : READ_BYTES;
      // The last read's spare byte and the tail share their room: the tail goes in only after it.
      const buffer = Buffer.allocUnsafe(front.length + (last ? left + Math.max(1, tail.length) : wanted));
      buffer.set(front, 0);
      const { bytesRead } = await this.handle.read(buffer, front.length, wanted, position);
      if (bytesRead > left) throw this.changed('grew');
      if (bytesRead === 0 && left > 0) throw this.changed('shrank');
      position += bytesRead;
      if (bytesRead > 0) onFileBytes?.(buffer.subarray(front.length, front.length + bytesRead));
      // A short read that asked past the end is the end (a regular file reads short only there).
      const done = position === this.size && bytesRead < wanted;
      let length = front.length + bytesRead;
      if (done) {
        buffer.set(tail, length);
        length += tail.length;
      }
      if (length > 0) yield length === buffer.length ? buffer : buffer.subarray(0, length);
      if (done) return;
      front = EMPTY;
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

  /** Safe to call more than once. */
  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  private changed(how: 'grew' | 'shrank'): FileChangedError {
    return new FileChangedError(
      this.path,
      `${this.path} changed while it was being sent (it ${how} from ${this.size} bytes), so the upload was stopped and it cannot have been stored. Send it again once it is complete.`,
    );
  }
}

function notAFile(path: string): ServiceError {
  return new ServiceError('configuration', `${path} is not a file.`);
}
