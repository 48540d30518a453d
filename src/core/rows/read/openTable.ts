// The reader's entry points: openTable (a file as a table: its format given or detected, its
// columns, its rows as they are asked for) and previewTable (the header and the first rows, for
// guessing a mapping). They read the file's first SAMPLE_BYTES to detect what is not given; a
// file that cannot be read as a table at all is a TableReadError, for the caller to show.
import { open } from 'node:fs/promises';
import { l10n } from '../../text/l10n';
import { columnNames } from './columnNames';
import { scanRecord } from './csvCells';
import { csvRows } from './csvRows';
import { detectFileEncoding } from './detectEncoding';
import { detectFormat, linesFrom, notInDeclaredEncoding, sampleText, type FormatDetection } from './detectFormat';
import { decodedText, type TextStop } from './decodedText';
import { openGeoJson } from './geojsonTable';
import { SAMPLE_BYTES } from './limits';
import { openNdjson } from './ndjsonRows';
import { lineStarts, positionAt } from './positions';
import { TableReadError } from './tableReadError';
import { isRowReadProblem, type RowReadProblem, type SourceEncoding, type SourceFormat, type SourceRow, type SourceTable } from './types';
import { withMembers } from '../../objects/withMembers';

/** A workbook by its name (.xlsx, .xlsm); its format given as xlsx makes any name one. */
export function isWorkbookPath(path: string): boolean {
  return /\.xls[xm]$/i.test(path);
}

export async function openTable(path: string, given: Partial<SourceFormat> = {}): Promise<SourceTable> {
  // A workbook is not text: it is known by its name (or its mapping), before any of it is read as text.
  if (given.format === 'xlsx' || (given.format === undefined && isWorkbookPath(path))) return openWorkbook(path, given);
  if (/\.zip$/i.test(path) && (given.format === undefined || given.format === 'shapefile')) return openZippedShapefile(path, given);
  if (given.format === 'shapefile' || (given.format === undefined && /\.shp$/i.test(path))) return openShapefile(path, given);
  const { sample, complete } = await readSample(path);
  if (sample.length === 0) throw new TableReadError(path, l10n.t('the file is empty'));
  const { format, detected } = await detectWholeFile(path, sample, given, complete);
  switch (format.format) {
    case 'geojson':
      return openGeoJson(path, format, detected);
    case 'ndjson': {
      // Columns, geometry and crs are judged on whole lines: at least the first, however long.
      const text = sampleText(sample, format.encoding, complete);
      return openNdjson(path, format, detected, text.trim() === '' && !complete ? await firstLines(path, format.encoding) : text);
    }
    case 'xlsx':
      return openWorkbook(path, given);
    case 'shapefile':
      return openShapefile(path, given);
    case 'csv':
    case 'tsv': {
      const header = csvHeader(path, sampleText(sample, format.encoding, complete), format.delimiter!, format.header!, complete);
      const { columns, notes } = columnNames(header);
      const source = { path, encoding: format.encoding, delimiter: format.delimiter!, header: format.header!, columns };
      return { path, format, detected: [...detected, ...notes], columns, rows: (signal) => csvRows(source, signal) };
    }
  }
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

/**
 * detectFormat on the sample; when it found UTF-8 in a sample that is not the whole file, the rest
 * of the file is checked too (detectFileEncoding), and detection is done again in windows-1252 when
 * the rest is not UTF-8. Cheap first: a binary file is refused before the whole of it is read.
 */
async function detectWholeFile(path: string, sample: Uint8Array, given: Partial<SourceFormat>, complete: boolean): Promise<FormatDetection> {
  const detection = detectFormat(path, sample, given, complete);
  if (given.encoding === 'utf-8' && !complete) {
    // Given, so not detected: still, a file saved again in another encoding is said at once, where its first such byte is.
    const stop: TextStop = {};
    for await (const text of decodedText(path, 'utf-8', stop)) void text;
    if (stop.notUtf8) throw notInDeclaredEncoding(path, 'utf-8', 'windows-1252', stop.notUtf8);
  }
  if (given.encoding || detection.format.encoding !== 'utf-8' || complete) return detection;
  const encoding = await detectFileEncoding(path, sample, complete);
  if (encoding.encoding === 'utf-8') return detection;
  const again = detectFormat(path, sample, withMembers(given, { encoding: encoding.encoding }), complete);
  return { format: again.format, detected: [encoding.note, ...again.detected] };
}

/** The header row's cells, read from the sample: it has to end within it. */
function csvHeader(path: string, text: string, delimiter: string, header: number, complete: boolean): string[] {
  const body = linesFrom(text, header) ?? '';
  const record = scanRecord(body, 0, delimiter, complete);
  if (!record.complete) {
    const quote = record.openQuote === undefined ? undefined : positionAt(lineStarts(body), record.openQuote, header);
    if (quote) {
      throw new TableReadError(
        path,
        complete
          ? l10n.t("the header row's quote is never closed")
          : l10n.t("the header row's quote is never closed within the first {0} KiB", SAMPLE_BYTES / 1024),
        quote,
      );
    }
    throw new TableReadError(path, l10n.t('the header row (line {0}) does not end within the first {1} KiB', header, SAMPLE_BYTES / 1024), {
      line: header,
      column: 1,
    });
  }
  const cells = record.cells.map((cell) => cell.value);
  if (cells.every((cell) => cell === ''))
    throw new TableReadError(path, l10n.t('the header row (line {0}) is blank: give the line the column names are on', header), { line: header, column: 1 });
  return cells;
}

/** The text of a file's first line (and any more in the same read), up to MAX_ROW_CHARS: a sample with no whole line in it. */
async function firstLines(path: string, encoding: SourceEncoding): Promise<string> {
  for await (const text of decodedText(path, encoding, {})) return text;
  return '';
}

/** The file's first SAMPLE_BYTES, and whether that is all of it. */
async function readSample(path: string): Promise<{ sample: Uint8Array; complete: boolean }> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw notReadable(path, error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new TableReadError(path, l10n.t('it is not a file'));
    const size = stats.size;
    const sample = Buffer.alloc(Math.min(size, SAMPLE_BYTES));
    const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
    return { sample: sample.subarray(0, bytesRead), complete: bytesRead >= size };
  } catch (error) {
    throw error instanceof TableReadError ? error : notReadable(path, error);
  } finally {
    await handle.close();
  }
}

function notReadable(path: string, error: unknown): TableReadError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new TableReadError(path, l10n.t('there is no such file'));
  if (code === 'EISDIR') return new TableReadError(path, l10n.t('it is a folder, not a file'));
  if (code === 'EACCES' || code === 'EPERM') return new TableReadError(path, l10n.t('it may not be read (permission denied)'));
  return new TableReadError(path, l10n.t('it cannot be read: {0}', error instanceof Error ? error.message : String(error)));
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

/** A layer in an archive: the ZIP reader and the shapefile reader load when it is opened. */
function openZippedShapefile(path: string, given: Partial<SourceFormat>): Promise<SourceTable> {
  const layers = require('./shapefile/zippedLayer') as typeof import('./shapefile/zippedLayer');
  return layers.openZippedShapefile(path, given);
}
