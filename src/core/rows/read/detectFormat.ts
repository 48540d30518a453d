// What kind of table a file is, from its name and its first bytes, for whatever the caller did not
// give: the format (by extension; by content for .json and unknown extensions), the encoding, and
// for CSV/TSV the delimiter and the decimal separator. No I/O: openTable reads the sample (and
// checks the rest of the file's encoding); the "create mapping" feature and the tests call this
// directly. Refusals (not a table, nothing in it) are TableReadErrors.
import { extname } from 'node:path';
import { l10n } from '../../text/l10n';
import { CANDIDATE_DELIMITERS, describeDelimiter, detectDecimalSeparator, detectDelimiter, detectTabQuote, sampleRecords } from './csvDetection';
import { headerBelowTitle } from './csvHeaderLine';
import { columnNames } from './columnNames';
import { detectEncoding } from './detectEncoding';
import { unsupportedByName, unsupportedJson, unsupportedReason } from './fileFormats';
import { sniffJsonText } from './jsonSniff';
import { memberNodes } from './jsonRow';
import { parseJson } from './jsonText';
import { SAMPLE_BYTES } from './limits';
import { LineCounter, breakLength, linesFrom } from './positions';
import { TableReadError } from './tableReadError';
import { NotUtf8Error, byteOrderMarkLength, textDecoding } from './textDecoding';
import type { CellPosition, SourceEncoding, SourceFormat, SourceFormatName, TableFormat } from './types';
import { withMembers } from '../../objects/withMembers';

export interface FormatDetection {
  format: TableFormat;
  /** What was detected rather than given, in words (SourceTable.detected). */
  detected: string[];
}

const BY_EXTENSION: Record<string, SourceFormatName> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.tab': 'tsv',
  '.geojson': 'geojson',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  // One GeoJSON feature per line (GeoJSONSeq): read as NDJSON, each line a feature.
  '.geojsonl': 'ndjson',
  '.geojsons': 'ndjson',
};

/**
 * `sample`: the file's first bytes (SAMPLE_BYTES, or fewer when the file is shorter); `complete`:
 * they are the whole file (by default, when there are fewer than SAMPLE_BYTES). Only the sample's
 * encoding is judged here: openTable also checks the rest of the file. GeoJSON and NDJSON have a
 * format and an encoding only; a delimiter or header given for them is not part of the result.
 */
export function detectFormat(path: string, sample: Uint8Array, given: Partial<SourceFormat> = {}, complete = sample.length < SAMPLE_BYTES): FormatDetection {
  refuseBinary(path, sample, given.encoding);
  const detected: string[] = [];
  let encoding = given.encoding;
  if (!encoding) {
    const detection = detectEncoding(sample, complete);
    encoding = detection.encoding;
    detected.push(detection.note);
  }
  if (given.encoding) refuseOtherEncoding(path, sample, given.encoding, complete);
  // Whole lines for delimited text; the sample as it is for JSON, which may be one line longer than the sample.
  const text = sampleText(sample, encoding, complete);
  const start = text.trim() === '' ? decodedStart(sample, encoding, complete) : text;
  const sampleKiB = Math.round(sample.length / 1024);
  if (start.trim() === '') throw new TableReadError(path, complete ? l10n.t('the file is empty') : l10n.t("the file's first {0} KiB are blank", sampleKiB));
  const format = given.format ?? formatOf(path, start, complete, detected);
  if (format === 'geojson' || format === 'ndjson') return { format: { format, encoding }, detected };
  if (text.trim() === '')
    throw new TableReadError(path, l10n.t('its first line is longer than {0} KiB: it is not a table of rows', sampleKiB), { line: 1, column: 1 });
  return { format: delimitedFormat(path, text, complete, sampleKiB, withMembers(given, { format, encoding }), detected), detected };
}

/** The sample's text as far as it decodes, its last line kept even when cut off. */
function decodedStart(sample: Uint8Array, encoding: SourceEncoding, complete: boolean): string {
  const bytes = sample.subarray(byteOrderMarkLength(sample, encoding));
  try {
    return textDecoding(encoding).decode(bytes, complete);
  } catch (error) {
    if (error instanceof NotUtf8Error) return error.text;
    throw error;
  }
}

/**
 * An encoding that was given (by the mapping, or by the caller) and that the sample's bytes are
 * not in: said with what the bytes look like and where the first one that does not fit is, rather
 * than read as text that stops short.
 */
function refuseOtherEncoding(path: string, sample: Uint8Array, encoding: SourceEncoding, complete: boolean): void {
  // EF BB BF are letters in the single-byte encodings ("ï»¿", glued to the first column's name); no export starts so but UTF-8's.
  if (
    (encoding === 'windows-1252' || encoding === 'windows-1250' || encoding === 'latin1' || encoding === 'macintosh') &&
    byteOrderMarkLength(sample, 'utf-8') > 0
  )
    throw new TableReadError(
      path,
      l10n.t(
        'it starts with UTF-8\'s byte-order mark, but its encoding is given as {0}: set "encoding": "utf-8" in the mapping\'s source, or leave it out to have it detected',
        encoding,
      ),
      { line: 1, column: 1 },
    );
  if (encoding !== 'utf-8') return;
  try {
    textDecoding('utf-8').decode(sample.subarray(byteOrderMarkLength(sample, 'utf-8')), complete);
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    const at = new LineCounter();
    at.advance(error.text);
    throw notInDeclaredEncoding(path, encoding, detectEncoding(sample, complete).encoding, at.position);
  }
}

/** The table's bytes are not in the encoding given for it: where, and what they look like. */
export function notInDeclaredEncoding(path: string, declared: SourceEncoding, looksLike: SourceEncoding, at: CellPosition): TableReadError {
  return new TableReadError(
    path,
    l10n.t(
      'its encoding is given as {0}, but the bytes at line {1}, column {2} are not {0}: they look like {3} (a file saved again by a spreadsheet). Set "encoding": "{3}" in the mapping\'s source, or leave it out to have it detected',
      declared,
      at.line,
      at.column,
      looksLike,
    ),
    at,
  );
}

/**
 * The text of a sample: decoded, its byte-order mark left out, cut after its last line break
 * unless it is the whole file (the last line may be cut off), and cut before bytes that are not
 * valid in the encoding given.
 */
export function sampleText(sample: Uint8Array, encoding: SourceEncoding, complete: boolean): string {
  const bytes = sample.subarray(byteOrderMarkLength(sample, encoding));
  let text: string;
  try {
    text = textDecoding(encoding).decode(bytes, complete);
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    return wholeLines(error.text);
  }
  return complete ? text : wholeLines(text);
}

function wholeLines(text: string): string {
  const end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return text.slice(0, end + 1);
}

function refuseBinary(path: string, sample: Uint8Array, encoding: SourceEncoding | undefined): void {
  const startsWith = (...bytes: number[]) => bytes.every((byte, i) => sample[i] === byte);
  if (startsWith(0x50, 0x4b, 0x03, 0x04)) throw notTextButZip(path, sample);
  if (startsWith(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) throw new TableReadError(path, unsupportedReason('xls'));
  const utf16 =
    encoding === 'utf-16le' || encoding === 'utf-16be' || byteOrderMarkLength(sample, 'utf-16le') > 0 || byteOrderMarkLength(sample, 'utf-16be') > 0;
  if (!utf16 && sample.includes(0)) throw new TableReadError(path, l10n.t('it is not a text file (it holds NUL bytes)'));
}

/**
 * A ZIP under a text's name (workbooks and archives are read by their names, .xlsx and .zip): what
 * it is, by its first entry as its local header names it, and how to have it read.
 */
function notTextButZip(path: string, sample: Uint8Array): TableReadError {
  const bytes = Buffer.from(sample.buffer, sample.byteOffset, sample.byteLength);
  const nameLength = bytes.length >= 30 ? bytes.readUInt16LE(26) : 0;
  const first = bytes.subarray(30, 30 + nameLength).toString('latin1');
  if (/^(\[Content_Types\]\.xml|_rels\/|docProps\/|xl\/)/.test(first))
    return new TableReadError(path, l10n.t('it is an Excel workbook (.xlsx), not text: name it .xlsx, or set "format": "xlsx" in the mapping\'s source'));
  if (first === 'mimetype' && bytes.includes('application/vnd.oasis.opendocument.spreadsheet')) return new TableReadError(path, unsupportedReason('ods'));
  return new TableReadError(path, l10n.t('it is a ZIP archive, not text: name it .zip to read the table inside it'));
}

/** The format by the file's extension, or by its content when the extension does not say. */
function formatOf(path: string, text: string, complete: boolean, detected: string[]): SourceFormatName {
  const extension = extname(path).toLowerCase();
  const byExtension = BY_EXTENSION[extension];
  // One GeoJSON feature per line (GeoJSONSeq), which tools also name .geojson.
  if (byExtension === 'geojson' && firstLineObjectType(text) === 'Feature') {
    detected.push(l10n.t('format {0} (detected: one GeoJSON feature per line)', 'ndjson'));
    return 'ndjson';
  }
  if (byExtension) return byExtension;
  // A format known and not read (an archive's entry; openTable refuses a file so named before it is read).
  const unsupported = unsupportedByName(path);
  if (unsupported) throw new TableReadError(path, unsupportedReason(unsupported));
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    const { format, note } = jsonFormatOf(path, start);
    detected.push(note);
    return format;
  }
  if (extension === '.json')
    throw new TableReadError(path, l10n.t('it is not JSON: a .json file is read as a GeoJSON FeatureCollection or as one JSON object per line'));
  // Delimited text: a tab-delimited one is TSV unless its name says CSV (handled above).
  const delimiter = detectDelimiter(text, complete);
  const format = delimiter === '\t' ? 'tsv' : 'csv';
  detected.push(l10n.t('format {0} (detected: delimited text)', format));
  return format;
}

/**
 * The first line as a whole JSON object (after RFC 8142's record separator, if any): its `type`
 * member's value (undefined when it has none), or false when the line is no whole object.
 */
function firstLineObjectType(text: string): unknown {
  const start = text.trimStart().replace(/^\u001e/, '');
  let end = 0;
  while (end < start.length && breakLength(start, end) === 0) end++;
  const first = parseJson(start.slice(0, end));
  return first && 'node' in first && first.node.type === 'object' ? memberNodes(first.node).get('type')?.value : false;
}

/**
 * JSON text: a GeoJSON FeatureCollection, one JSON object per line, or a GeoJSON Feature (a layer
 * of one row), with the note that says which. A first line that is a whole object (not a
 * collection) is the first of many; a collection written over many lines (or on one line longer
 * than the sample) shows its type, or at least its `features` array, in the sample. JSON of a kind
 * known and not read (KoBoToolbox's API reply, an array of records) is refused as what it is.
 */
function jsonFormatOf(path: string, text: string): { format: SourceFormatName; note: string } {
  const content = sniffJsonText(text);
  const unsupported = content && unsupportedJson(content);
  if (unsupported) throw new TableReadError(path, unsupportedReason(unsupported));
  const collection = { format: 'geojson' as const, note: l10n.t('format {0} (detected: a FeatureCollection)', 'geojson') };
  const type = firstLineObjectType(text);
  if (type !== false)
    return type === 'FeatureCollection' ? collection : { format: 'ndjson', note: l10n.t('format {0} (detected: one JSON object per line)', 'ndjson') };
  if (/"type"\s*:\s*"FeatureCollection"/.test(text) || /"features"\s*:\s*\[/.test(text)) return collection;
  if (content === 'geojson') return { format: 'geojson', note: l10n.t('format {0} (detected: a GeoJSON Feature)', 'geojson') };
  throw new TableReadError(path, l10n.t('it is JSON, but neither a GeoJSON FeatureCollection nor one JSON object per line'));
}

/** CSV/TSV: the delimiter, the decimal separator and the header line, given or detected. */
function delimitedFormat(
  path: string,
  text: string,
  complete: boolean,
  sampleKiB: number,
  given: Partial<SourceFormat> & Pick<TableFormat, 'format' | 'encoding'>,
  detected: string[],
): TableFormat {
  // Excel's first line "sep=;" names the delimiter; the header is the line after it, or below the
  // title lines after it (a sheet with a title block, saved with that line first).
  const sepLine = given.header === undefined ? /^sep=([^"\r\n])(?:\r\n|\n|\r)/.exec(text) : null;
  const skipped = sepLine ? 1 : 0;
  const titled = sepLine ? (linesFrom(text, 2) ?? '') : text;
  const titleDelimiter = given.delimiter ?? sepLine?.[1] ?? (given.format === 'tsv' ? '\t' : undefined);
  const belowTitle = given.header === undefined ? headerBelowTitle(titled, complete, titleDelimiter) : undefined;
  if (belowTitle) detected.push(l10n.t('header on line {0} (detected: the lines above it are a title, not columns)', belowTitle + skipped));
  const header = given.header ?? skipped + (belowTitle ?? 1);
  if (!Number.isInteger(header) || header < 1)
    throw new TableReadError(path, l10n.t('the header row must be a line number from 1 on, not {0}', String(header)));
  const body = linesFrom(text, header);
  if (body === undefined) {
    throw new TableReadError(
      path,
      complete
        ? l10n.t('it has no line {0} to be the header row', header)
        : l10n.t('line {0}, given as the header row, is not in the first {1} KiB', header, sampleKiB),
    );
  }
  let delimiter = given.delimiter;
  if (delimiter !== undefined) {
    if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\r' || delimiter === '\n') {
      throw new TableReadError(path, l10n.t('the delimiter must be one character other than a quote or a line break, not {0}', JSON.stringify(delimiter)));
    }
  } else if (sepLine) {
    delimiter = sepLine[1];
    detected.push(l10n.t('delimiter {0} (detected: the file\'s first line "{1}")', describeDelimiter(delimiter), `sep=${delimiter}`));
  } else if (given.format === 'tsv') {
    delimiter = '\t';
  } else {
    const found = detectDelimiter(body, complete);
    delimiter = found ?? CANDIDATE_DELIMITERS[0];
    detected.push(
      found
        ? l10n.t('delimiter {0} (detected)', describeDelimiter(delimiter))
        : l10n.t('delimiter {0} (assumed: no delimiter splits the header, one column only)', describeDelimiter(delimiter)),
    );
  }
  let quote = given.quote;
  if (quote !== undefined && quote !== '"' && quote !== '')
    throw new TableReadError(path, l10n.t('the quote must be the character " or nothing ("" when quotes are characters), not {0}', JSON.stringify(quote)));
  const detectedQuote = quote === undefined && delimiter === '\t' ? detectTabQuote(body, complete) : undefined;
  if (detectedQuote?.example) quote = detectedQuote.quote;
  const [headerRecord, ...rows] = sampleRecords(body, delimiter, complete, quote);
  const { columns } = columnNames(headerRecord?.cells.map((cell) => cell.value) ?? []);
  if (detectedQuote?.example) {
    const { text: cell, index } = detectedQuote.example;
    detected.push(
      l10n.t('quotes are characters (detected: {0} in column "{1}" is no quoted cell)', JSON.stringify(cell), columns[index] ?? `column ${index + 1}`),
    );
  }
  let decimalSeparator = given.decimalSeparator;
  if (!decimalSeparator) {
    const decimal = detectDecimalSeparator(rows, columns, delimiter);
    decimalSeparator = decimal.separator;
    detected.push(
      decimal.undecided
        ? l10n.t(
            'decimal separator \'{0}\' (assumed from the delimiter: the first rows\' numbers, e.g. "{1}" in column "{2}", may group thousands or hold decimals)',
            decimalSeparator,
            decimal.example!.text,
            decimal.example!.column,
          )
        : decimal.example
          ? l10n.t('decimal separator \'{0}\' (detected: "{1}" in column "{2}")', decimalSeparator, decimal.example.text, decimal.example.column)
          : l10n.t("decimal separator '{0}' (assumed: no decimal numbers in the first rows)", decimalSeparator),
    );
  }
  const format: TableFormat = withMembers(given, { delimiter, decimalSeparator, header });
  if (quote === '') format.quote = quote;
  return format;
}
