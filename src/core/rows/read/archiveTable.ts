// A table inside a ZIP archive, as form tools hand out their data with its photos: ODK Central's
// "All data and attachments" (form.csv beside media/), KoBoToolbox's table beside a folder per
// submission, a zipped shapefile layer. The table is the entry `source.entry` names, or the only
// table in the archive; it is read in place (never unpacked), and the table keeps the archive so
// the photos its cells name are read from it too (rowToSpot, archiveMedia.ts).
import { isCancellation } from '../../api/errors';
import { l10n } from '../../text/l10n';
import { openTextTable } from './textTable';
import { TableReadError } from './tableReadError';
import type { RowReadProblem, SourceFormat, SourceRow, SourceTable } from './types';
import { ArchiveError, ZipArchive } from './archive/zipArchive';
import { noTableReason } from './archive/withoutTable';
import { withMembers } from '../../objects/withMembers';
import { ARCHIVE_TABLE_EXTENSIONS, hasExtension } from './tableNames';

/** The entries of an archive that are tables, in the archive's order (not a Finder's __MACOSX/ copy, not a hidden file). */
function tableEntries(names: readonly string[]): string[] {
  return names.filter((name) => hasExtension(name, ARCHIVE_TABLE_EXTENSIONS) && !name.startsWith('__MACOSX/') && !/(^|\/)\./.test(name));
}

/**
 * The archive's main table for a proposed mapping: the one nearest the archive's top, then the
 * shortest name (ODK Central names a repeat group's table after the form's: form-group.csv).
 * @public (the mapping's proposal loads this module with require())
 */
export async function archiveTables(path: string): Promise<{ main?: string; others: string[] }> {
  const archive = await ZipArchive.forTable(path);
  const tables = tableEntries(archive.names());
  const depth = (name: string) => name.split('/').length;
  const main = [...tables].sort((a, b) => depth(a) - depth(b) || a.length - b.length || (a < b ? -1 : 1))[0];
  return { main, others: tables.filter((name) => name !== main) };
}

/**
 * Why the archive gives no table, or undefined when it has one (an archive that cannot be read
 * says so when it is opened).
 * @public (openTable.ts loads this module with require())
 */
export async function whyNoTable(path: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = (await ZipArchive.forTable(path)).names();
  } catch {
    return undefined;
  }
  return tableEntries(names).length === 0 ? noTableReason(names) : undefined;
}

/** @public (openTable.ts loads this module with require() when an archive is opened) */
export async function openArchiveTable(path: string, given: Partial<SourceFormat>): Promise<SourceTable> {
  const archive = await ZipArchive.forTable(path);
  const tables = tableEntries(archive.names());
  const layers = tables.filter((name) => /\.shp$/i.test(name));
  // A layer's archive keeps its layer's reader and words (zippedLayer.ts): it is what most zips hold.
  if (given.format === 'shapefile' || (given.entry === undefined ? layers.length > 0 && layers.length === tables.length : /\.shp$/i.test(given.entry))) {
    const zipped = require('./shapefile/zippedLayer') as typeof import('./shapefile/zippedLayer');
    return zipped.openZippedShapefile(path, given);
  }
  const entry = given.entry ?? (tables.length === 1 ? tables[0] : undefined);
  if (entry === undefined) {
    throw new TableReadError(
      path,
      tables.length === 0
        ? noTableReason(archive.names())
        : l10n.t('the archive holds {0} tables ({1}): name one as source.entry in the mapping', tables.length, tables.join(', ')),
    );
  }
  if (!archive.has(entry)) {
    throw new TableReadError(path, l10n.t('the archive holds no entry {0}: its tables are {1}', entry, tables.join(', ') || l10n.t('none')));
  }
  if (/\.xls[xm]$/i.test(entry)) {
    throw new TableReadError(
      path,
      l10n.t('{0} is a workbook inside the archive, which is not read in place: unpack it beside the archive and map it, or download the table as CSV', entry),
    );
  }
  let table: SourceTable;
  try {
    table = await openTextTable(path, withMembers(given, { entry }), archive.packed(entry), entry);
  } catch (error) {
    // Whatever is wrong is the entry's: the message names the archive, then the place in the entry
    // (a line of the archive itself would point an editor at the wrong file).
    if (error instanceof TableReadError) {
      const at = error.position ? `${entry}:${error.position.line}:${error.position.column}` : entry;
      throw new TableReadError(path, `${at}: ${error.reason}`);
    }
    if (error instanceof ArchiveError) throw new TableReadError(path, error.message);
    // Reading the entry to detect its encoding met bytes other than the archive declares.
    if (isDamage(error)) throw new TableReadError(path, l10n.t('{0} in the archive is damaged ({1}): download the archive again', entry, error.message));
    throw error;
  }
  const rows = table.rows;
  return withMembers(table, { format: withMembers(table.format, { entry }), archive, rows: (signal?: AbortSignal) => rowsOfEntry(entry, rows(signal)) });
}

/**
 * The entry's rows, and when its bytes turn out damaged on the way (deflated data that does not
 * inflate, more bytes than the archive declares), a problem after the rows read before it rather
 * than the ZIP reader's error thrown out of the rows.
 */
async function* rowsOfEntry(entry: string, rows: AsyncIterable<SourceRow | RowReadProblem>): AsyncGenerator<SourceRow | RowReadProblem> {
  let line = 0;
  try {
    for await (const item of rows) {
      line = item.line;
      yield item;
    }
  } catch (error) {
    if (!isDamage(error)) throw error;
    yield {
      line: line + 1,
      column: 1,
      problem: l10n.t('{0} in the archive is damaged ({1}): the rows after line {2} are not read; download the archive again', entry, error.message, line),
    };
  }
}

/**
 * What an entry's bytes being other than the archive declares looks like: the ZIP reader's size
 * checks (yauzl: "too many bytes in the stream", "not enough bytes…") and inflate's data errors.
 * Anything else (the disk, a cancellation, a mistake of ours) is what it is, not the archive's.
 */
function isDamage(error: unknown): error is Error {
  if (!(error instanceof Error) || isCancellation(error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return error instanceof ArchiveError || (typeof code === 'string' && code.startsWith('Z_')) || /bytes in the stream/.test(error.message);
}
