// The reader's entry points: openTable (a file as a table: its format given or detected, its
// columns, its rows as they are asked for) and previewTable (the header and the first rows, for
// guessing a mapping). Text is read by textTable.ts; workbooks, shapefiles, archives and folders of
// photos by readers loaded when one is opened. A file that cannot be read as a table at all is a
// TableReadError, for the caller to show.
import { stat } from 'node:fs/promises';
import { openTextTable } from './textTable';
import { unsupportedFile, unsupportedReason } from './fileFormats';
import { TableReadError } from './tableReadError';
import { isRowReadProblem, type RowReadProblem, type SourceFormat, type SourceRow, type SourceTable } from './types';

/** A workbook by its name (.xlsx, .xlsm); its format given as xlsx makes any name one. */
export function isWorkbookPath(path: string): boolean {
  return /\.xls[xm]$/i.test(path);
}

export async function openTable(path: string, given: Partial<SourceFormat> = {}): Promise<SourceTable> {
  // A format known and not read (a KML, a GeoPackage, KoBoToolbox's API JSON): said as what it is, unless the mapping names a format to read it as.
  const unsupported = given.format === undefined ? unsupportedFile(path) : undefined;
  if (unsupported) throw new TableReadError(path, unsupportedReason(unsupported));
  // A workbook is not text: it is known by its name (or its mapping), before any of it is read as text.
  if (given.format === 'xlsx' || (given.format === undefined && isWorkbookPath(path))) return openWorkbook(path, given);
  if (isArchivePath(path)) return openArchiveTable(path, given);
  if (given.format === 'shapefile' || (given.format === undefined && /\.shp$/i.test(path))) return openShapefile(path, given);
  // A folder is a folder of photos (its mapping's source.group: one spot per photo, or per subfolder).
  if (given.format === 'photos' || (given.format === undefined && (await isFolder(path)))) return openPhotoFolder(path, given);
  return openTextTable(path, given, path);
}

function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

/** An archive by its name (a form tool's export.zip, a zipped shapefile layer). */
export function isArchivePath(path: string): boolean {
  return /\.zip$/i.test(path);
}

/**
 * Why the archive at `path` gives no table (what it holds instead, and what to do), or undefined
 * when it holds one: what `spot-import mapping` would say of it, for a command that would otherwise
 * send the user there.
 */
export async function archiveWithoutTable(path: string): Promise<string | undefined> {
  const archives = require('./archiveTable') as typeof import('./archiveTable');
  return archives.whyNoTable(path);
}

/** The table and its first `rows` rows (fewer when the file has fewer), with the problems met among them. */
export async function previewTable(
  path: string,
  given: Partial<SourceFormat> = {},
  rows = 20,
): Promise<{ table: SourceTable; sample: SourceRow[]; problems: RowReadProblem[] }> {
  const table = await openTable(path, given);
  const sample: SourceRow[] = [];
  const problems: RowReadProblem[] = [];
  if (rows > 0) {
    for await (const item of table.rows()) {
      if (isRowReadProblem(item)) problems.push(item);
      else sample.push(item);
      // Leaving the loop closes the file.
      if (sample.length + problems.length >= rows) break;
    }
  }
  return { table, sample, problems };
}

/** Its reader (a ZIP and an XML parser) is loaded only when a workbook is opened. */
function openWorkbook(path: string, given: Partial<SourceFormat>): Promise<SourceTable> {
  const workbooks = require('./xlsx/workbookTable') as typeof import('./xlsx/workbookTable');
  return workbooks.openWorkbook(path, given);
}

/** Its reader (the shapefile library) is loaded only when a shapefile is opened. */
function openShapefile(path: string, given: Partial<SourceFormat>): Promise<SourceTable> {
  const shapefiles = require('./shapefile/shapefileTable') as typeof import('./shapefile/shapefileTable');
  return shapefiles.openShapefile(path, given);
}

/** Its reader (and the EXIF library) is loaded only when a folder of photos is opened. */
function openPhotoFolder(path: string, given: Partial<SourceFormat> & { group?: 'photo' | 'folder' }): Promise<SourceTable> {
  const photos = require('./photos/photoFolder') as typeof import('./photos/photoFolder');
  return photos.openPhotoFolder(path, given);
}

/** A table in an archive: the ZIP reader (and the shapefile reader, for a layer) load when it is opened. */
function openArchiveTable(path: string, given: Partial<SourceFormat>): Promise<SourceTable> {
  const archives = require('./archiveTable') as typeof import('./archiveTable');
  return archives.openArchiveTable(path, given);
}
