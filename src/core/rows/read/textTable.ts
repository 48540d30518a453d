// A table of text (CSV, TSV, GeoJSON, NDJSON): its format given or detected from its first
// SAMPLE_BYTES (the whole of it checked when the encoding needs it), its columns, its rows as they
// are asked for. Its bytes are a file, or an entry of an archive (archiveTable.ts).
import { open } from 'node:fs/promises';
import { l10n } from '../../text/l10n';
import { columnNames } from './columnNames';
import { scanRecord, type QuoteChar } from './csvCells';
import { csvRows } from './csvRows';
import { endsRowsWithDelimiter, sampleRecords } from './csvDetection';
import { detectFileEncoding, evidenceOf } from './detectEncoding';
import { detectFormat, notInDeclaredEncoding, sampleText, type FormatDetection } from './detectFormat';
import { decodedText, type TextStop } from './decodedText';
import { openGeoJson } from './geojsonTable';
import { MAX_SAMPLE_BYTES, SAMPLE_BYTES } from './limits';
import { openNdjson } from './ndjsonRows';
import { linesFrom, lineStarts, positionAt } from './positions';
import { firstBytes, type TableBytes } from './tableBytes';
import { singleByteEncoding } from './singleByteEncoding';
import { TableReadError } from './tableReadError';
import { whyUnreadable } from './unreadableFile';
import type { SourceEncoding, SourceFormat, SourceTable } from './types';
import { withMembers } from '../../objects/withMembers';

/**
 * A table of text (CSV, TSV, GeoJSON, NDJSON) whose bytes are `bytes`: the file at `path`, or an
 * entry of the archive at `path` (`name` is then the entry's, for its format by its extension).
 */
export async function openTextTable(path: string, given: Partial<SourceFormat>, bytes: TableBytes, name = path): Promise<SourceTable> {
  const { sample, complete } = await sampleOf(bytes);
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
      const quote = format.quote ?? '"';
      const text = sampleText(sample, format.encoding, complete);
      const header = csvHeader(path, text, format.delimiter!, quote, format.header!, complete, Math.round(sample.length / 1024));
      const { columns, notes } = columnNames(header);
      const [, ...sampled] = sampleRecords(linesFrom(text, format.header!) ?? '', format.delimiter!, complete, quote);
      const trailingDelimiter = endsRowsWithDelimiter(sampled, columns.length);
      const source = { path, bytes, encoding: format.encoding, delimiter: format.delimiter!, quote, header: format.header!, columns, trailingDelimiter };
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
    if (stop.notUtf8) throw notInDeclaredEncoding(path, 'utf-8', singleByteEncoding(evidenceOf(sample, stop)).encoding, stop.notUtf8);
  }
  if (given.encoding || detection.format.encoding !== 'utf-8' || complete) return detection;
  const encoding = await detectFileEncoding(bytes, sample, complete);
  if (encoding.encoding === 'utf-8') return detection;
  const again = detectFormat(path, sample, withMembers(given, { encoding: encoding.encoding }), complete);
  return { format: again.format, detected: [encoding.note, ...again.detected] };
}

/** The header row's cells, read from the sample: it has to end within it. */
function csvHeader(path: string, text: string, delimiter: string, quote: QuoteChar, header: number, complete: boolean, sampleKiB: number): string[] {
  const body = linesFrom(text, header) ?? '';
  const record = scanRecord(body, 0, delimiter, complete, quote);
  if (!record.complete) {
    const openQuote = record.openQuote === undefined ? undefined : positionAt(lineStarts(body), record.openQuote, header);
    if (openQuote) {
      throw new TableReadError(
        path,
        complete ? l10n.t("the header row's quote is never closed") : l10n.t("the header row's quote is never closed within the first {0} KiB", sampleKiB),
        openQuote,
      );
    }
    throw new TableReadError(path, l10n.t('the header row (line {0}) does not end within the first {1} KiB', header, sampleKiB), {
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

/**
 * The table's first bytes, and whether that is all of it: SAMPLE_BYTES, or for delimited text
 * more when they do not hold two whole lines (the header and a row), up to MAX_SAMPLE_BYTES. JSON
 * is detected on its first SAMPLE_BYTES however long its first line (a minified GeoJSON is one).
 */
async function sampleOf(bytes: TableBytes): Promise<{ sample: Uint8Array; complete: boolean }> {
  for (let limit = SAMPLE_BYTES; ; limit *= 2) {
    const read = typeof bytes === 'string' ? await readSample(bytes, limit) : await firstBytes(bytes, limit);
    if (read.complete || limit >= MAX_SAMPLE_BYTES || startsAsJson(read.sample) || lineBreaks(read.sample) >= 2) return read;
  }
}

/** Whether the first byte that is not a byte-order mark's, a blank or a zero (UTF-16) opens JSON: `{`, `[`, or NDJSON's record separator. */
function startsAsJson(sample: Uint8Array): boolean {
  const skipped = new Set([0xef, 0xbb, 0xbf, 0xff, 0xfe, 0x00, 0x20, 0x09, 0x0a, 0x0d]);
  const first = sample.find((byte) => !skipped.has(byte));
  return first === 0x7b || first === 0x5b || first === 0x1e;
}

/** Line breaks in bytes (LF, or CR alone), up to 2: the same bytes in UTF-8, windows-1252 and UTF-16. */
function lineBreaks(sample: Uint8Array): number {
  let count = 0;
  for (let at = sample.indexOf(0x0a); at >= 0 && count < 2; at = sample.indexOf(0x0a, at + 1)) count++;
  if (count === 0) for (let at = sample.indexOf(0x0d); at >= 0 && count < 2; at = sample.indexOf(0x0d, at + 1)) count++;
  return count;
}

/** The file's first `limit` bytes, and whether that is all of it. */
async function readSample(path: string, limit: number): Promise<{ sample: Uint8Array; complete: boolean }> {
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
    const sample = Buffer.alloc(Math.min(size, limit));
    const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
    return { sample: sample.subarray(0, bytesRead), complete: bytesRead >= size };
  } catch (error) {
    throw error instanceof TableReadError ? error : notReadable(path, error);
  } finally {
    await handle.close();
  }
}

function notReadable(path: string, error: unknown): TableReadError {
  return new TableReadError(path, whyUnreadable(error));
}
