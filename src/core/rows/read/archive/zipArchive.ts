// A ZIP archive read in place (yauzl: the central directory, then each entry streamed and inflated
// as it is read), never unpacked to disk. What the archive says is checked before anything is
// inflated: names that climb out (`..`, absolute paths: yauzl refuses them), encrypted entries,
// and entries whose inflated size is beyond a limit or far beyond their stored size (a zip bomb);
// while inflating, an entry that grows past its declared size is stopped (validateEntrySizes).
// The archive holds no open file between reads: its directory is read through one descriptor,
// closed once it is read, and each entry is read through a stream of its own. So an archive whose
// photos a run uploads long after its rows were read needs nobody to close it.
import { createReadStream, promises as fs } from 'node:fs';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import type { PackedFile } from '../../../files/packedFile';
import { l10n } from '../../../text/l10n';
import { TableReadError } from '../tableReadError';
import type * as Yauzl from 'yauzl';

/** An entry may inflate to this much at most. */
const MAX_ENTRY_BYTES = 512 * 1024 * 1024;
/** Inflating more than this many times the stored size is refused beyond 1 MiB (real XLSX sheets compress 10 to 30 times). */
const MAX_INFLATE_RATIO = 200;

export class ArchiveError extends Error {}

export class ZipArchive {
  private constructor(
    private readonly path: string,
    private readonly zip: Yauzl.ZipFile,
    private readonly entries: Map<string, Yauzl.Entry>,
  ) {}

  /** Opens a table's archive (a workbook, a zipped layer): what is wrong with it is the table's TableReadError. */
  static async forTable(path: string): Promise<ZipArchive> {
    try {
      return await ZipArchive.open(path);
    } catch (error) {
      throw new TableReadError(path, (error as Error).message);
    }
  }

  /** Opens the archive and reads its directory; an ArchiveError says what is wrong with it. */
  static async open(path: string): Promise<ZipArchive> {
    const yauzl = require('yauzl') as typeof Yauzl;
    let reader: PathReader;
    let zip: Yauzl.ZipFile;
    try {
      reader = await PathReader.open(yauzl, path);
    } catch (error) {
      throw new ArchiveError(l10n.t('it cannot be read ({0})', (error as NodeJS.ErrnoException).code ?? (error as Error).message));
    }
    try {
      zip = await yauzl.fromRandomAccessReaderPromise(reader, reader.size, {
        lazyEntries: true,
        autoClose: false,
        validateEntrySizes: true,
        strictFileNames: false,
      });
    } catch (error) {
      await reader.closeDirectory();
      throw new ArchiveError(l10n.t('it is not a ZIP archive that can be read ({0})', (error as Error).message));
    }
    const entries = new Map<string, Yauzl.Entry>();
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('entry', (entry: Yauzl.Entry) => {
          if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
          zip.readEntry();
        });
        zip.on('end', resolve);
        zip.on('error', reject);
        zip.readEntry();
      });
    } catch (error) {
      throw new ArchiveError(l10n.t('its list of entries cannot be read ({0})', (error as Error).message));
    } finally {
      await reader.closeDirectory();
    }
    return new ZipArchive(path, zip, entries);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's bytes as a stream, inflated as they are read; refused before reading when the entry is unsafe. */
  async stream(name: string): Promise<Readable> {
    const entry = this.safeEntry(name);
    try {
      return await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw new ArchiveError(l10n.t('{0} in the archive cannot be read ({1})', name, (error as Error).message));
    }
  }

  /** The entry as a file of its own, read from the archive when it is opened (a photo a row names); refused at once when it is unsafe. */
  packed(name: string): PackedFile {
    const entry = this.safeEntry(name);
    return { label: `${basename(this.path)}/${name}`, size: entry.uncompressedSize, mtimeMs: entry.getLastModDate().getTime(), open: () => this.stream(name) };
  }

  /** The entry, when it may be inflated: not encrypted, not beyond the limits (a zip bomb). */
  private safeEntry(name: string): Yauzl.Entry {
    const entry = this.entries.get(name);
    if (!entry) throw new ArchiveError(l10n.t('the archive has no entry {0}', name));
    if (entry.isEncrypted()) throw new ArchiveError(l10n.t('{0} in the archive is encrypted, which is not supported', name));
    if (entry.uncompressedSize > MAX_ENTRY_BYTES) {
      throw new ArchiveError(
        l10n.t('{0} in the archive would inflate to {1} MiB, more than {2} MiB', name, Math.ceil(entry.uncompressedSize / 1048576), MAX_ENTRY_BYTES / 1048576),
      );
    }
    if (entry.uncompressedSize > 1048576 && entry.uncompressedSize > entry.compressedSize * MAX_INFLATE_RATIO) {
      throw new ArchiveError(
        l10n.t(
          '{0} in the archive would inflate {1} times its stored size: it is refused as a zip bomb',
          name,
          Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize)),
        ),
      );
    }
    return entry;
  }

  /** A small entry whole, as text (the workbook's parts other than its sheets). */
  async text(name: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(name)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Nothing to let go of (no file is held open between reads); kept so a reader says when it is done. */
  close(): void {}
}

/**
 * yauzl's reader of the archive file: the directory is read through one descriptor (closed by
 * closeDirectory), each entry through a stream that opens and closes the file itself.
 */
interface PathReader extends Yauzl.RandomAccessReader {
  readonly size: number;
  closeDirectory(): Promise<void>;
}

const PathReader = {
  async open(yauzl: typeof Yauzl, path: string): Promise<PathReader> {
    const handle = await fs.open(path, 'r');
    let size: number;
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
      size = stats.size;
    } catch (error) {
      await handle.close();
      throw error;
    }
    class ArchiveFileReader extends yauzl.RandomAccessReader {
      readonly size = size;
      private directory: fs.FileHandle | undefined = handle;

      override _readStreamForRange(start: number, end: number): Readable {
        return createReadStream(path, { start, end: end - 1 });
      }

      override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
        if (this.directory === undefined) return super.read(buffer, offset, length, position, callback);
        this.directory.read(buffer, offset, length, position).then(
          ({ bytesRead }) => callback(bytesRead < length ? new Error('unexpected end of the file') : null),
          (error: Error) => callback(error),
        );
      }

      async closeDirectory(): Promise<void> {
        const directory = this.directory;
        this.directory = undefined;
        await directory?.close().catch(() => undefined);
      }
    }
    return new ArchiveFileReader();
  },
};
