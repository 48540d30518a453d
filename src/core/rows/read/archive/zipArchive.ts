// A ZIP archive read in place (yauzl: the central directory, then each entry streamed and inflated
// as it is read), never unpacked to disk. What the archive says is checked before anything is
// inflated: names that climb out (`..`, absolute paths: yauzl refuses them), encrypted entries,
// and entries whose inflated size is beyond a limit or far beyond their stored size (a zip bomb);
// while inflating, an entry that grows past its declared size is stopped (validateEntrySizes).
import type { Readable } from 'node:stream';
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
    let zip: Yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false });
    } catch (error) {
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
      zip.close();
      throw new ArchiveError(l10n.t('its list of entries cannot be read ({0})', (error as Error).message));
    }
    return new ZipArchive(zip, entries);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's bytes as a stream, inflated as they are read; refused before reading when the entry is unsafe. */
  async stream(name: string): Promise<Readable> {
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
    try {
      return await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw new ArchiveError(l10n.t('{0} in the archive cannot be read ({1})', name, (error as Error).message));
    }
  }

  /** A small entry whole, as text (the workbook's parts other than its sheets). */
  async text(name: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(name)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  close(): void {
    this.zip.close();
  }
}
