// A table of text (CSV, TSV, GeoJSON, NDJSON): its format given or detected from its first
// SAMPLE_BYTES (the whole of it checked when the encoding needs it), its columns, its rows as they
// are asked for. Its bytes are a file, or an entry of an archive (archiveTable.ts).
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
import { firstBytes, type TableBytes } from './tableBytes';
import { TableReadError } from './tableReadError';
import type { SourceEncoding, SourceFormat, SourceTable } from './types';
import { withMembers } from '../../objects/withMembers';

/**
 * A table of text (CSV, TSV, GeoJSON, NDJSON) whose bytes are `bytes`: the file at `path`, or an
 * entry of the archive at `path` (`name` is then the entry's, for its format by its extension).
 */
export async function openTextTable(path: string, given: Partial<SourceFormat>, bytes: TableBytes, name = path): Promise<SourceTable> {
  const { sample, complete } = typeof bytes === 'string' ? await readSample(bytes) : await firstBytes(bytes, SAMPLE_BYTES);
  if (sample.length === 0) throw new TableReadError(path, l10n.t('the file is empty'));
  const { format, detected } = await detectWholeFile(name, bytes, sample, given, complete);
  switch (format.format) {
    case 'geojson':
      return openGeoJson(path, format, detected, bytes);
    case 'ndjson': {
      // Columns, geometry and crs are judged on whole lines: at least the first, however long.
      const text = sampleText(sample, format.encoding, complete);
      return openNdjson(path, format, detected, text.trim() === '' && !complete ? await firstLines(bytes, format.encoding) : text, bytes);
    }
    case 'xlsx':
    case 'shapefile':
    case 'photos':
      // openTable reads these itself; here only an archive's entry given such a format comes.
      throw new TableReadError(path, l10n.t('source.format {0} is not read from a table inside an archive: leave it out, or name a .shp entry', format.format));
    case 'csv':
    case 'tsv': {
      const header = csvHeader(path, sampleText(sample, format.encoding, complete), format.delimiter!, format.header!, complete);
      const { columns, notes } = columnNames(header);
      const source = { path, bytes, encoding: format.encoding, delimiter: format.delimiter!, header: format.header!, columns };
      return { path, format, detected: [...detected, ...notes], columns, rows: (signal) => csvRows(source, signal) };
    }
  }
}

/**
 * detectFormat on the sample; when it found UTF-8 in a sample that is not the whole file, the rest
 * of the file is checked too (detectFileEncoding), and detection is done again in windows-1252 when
 * the rest is not UTF-8. Cheap first: a binary file is refused before the whole of it is read.
 */
async function detectWholeFile(path: string, bytes: TableBytes, sample: Uint8Array, given: Partial<SourceFormat>, complete: boolean): Promise<FormatDetection> {
  const detection = detectFormat(path, sample, given, complete);
  if (given.encoding === 'utf-8' && !complete) {
    // Given, so not detected: still, a file saved again in another encoding is said at once, where its first such byte is.
    const stop: TextStop = {};
    for await (const text of decodedText(bytes, 'utf-8', stop)) void text;
    if (stop.notUtf8) throw notInDeclaredEncoding(path, 'utf-8', 'windows-1252', stop.notUtf8);
  }
  if (given.encoding || detection.format.encoding !== 'utf-8' || complete) return detection;
  const encoding = await detectFileEncoding(bytes, sample, complete);
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
async function firstLines(bytes: TableBytes, encoding: SourceEncoding): Promise<string> {
  for await (const text of decodedText(bytes, encoding, {})) return text;
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
