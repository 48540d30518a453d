// The rows of a CSV/TSV file, streamed: the file's text a chunk at a time (decodedText) through
// csv-parse's streaming parser, one row at a time to the caller, so memory holds a chunk and a row,
// never the file. csv-parse gives each record's cells and its raw text; where each cell starts is
// found in that raw text (csvCells.ts), and which line a record starts on is counted here from the
// raw texts of the records before it: csv-parse's own `info.lines` counts a CRLF inside a quoted
// cell as two lines, so it is not used.
import { Readable, pipeline } from 'node:stream';
import { CsvError, parse, type Options } from 'csv-parse';
import { throwIfAborted } from '../../api/errors';
import { l10n } from '../../text/l10n';
import { scanRecord } from './csvCells';
import { decodedText, notUtf8Problem, type TextStop } from './decodedText';
import { MAX_ROW_CHARS } from './limits';
import { setOwn } from './ownMembers';
import { countBreaks, lineStarts, positionAt } from './positions';
import type { CellPosition, RowReadProblem, SourceEncoding, SourceRow } from './types';

export interface CsvSource {
  path: string;
  encoding: SourceEncoding;
  delimiter: string;
  /** Line of the header row; the lines before it are not read. */
  header: number;
  columns: readonly string[];
}

/**
 * How csv-parse reads every CSV here; csvCells.ts follows the same rules to find cell starts. Wrong
 * cell counts are let through (relax_column_count) so that they become a problem of their row and
 * the rows after it are still read; any other parse error (an unclosed quote, a row longer than
 * MAX_ROW_CHARS) stops the reading, since after it csv-parse's idea of where rows start cannot be
 * trusted. The byte-order mark is gone before the text gets here.
 */
function csvOptions(delimiter: string): Options {
  return {
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    raw: true,
    max_record_size: MAX_ROW_CHARS,
    bom: false,
  };
}

interface ParsedRecord {
  record: string[];
  raw: string;
}

export async function* csvRows(source: CsvSource, signal?: AbortSignal): AsyncGenerator<SourceRow | RowReadProblem> {
  const stop: TextStop = {};
  const text = Readable.from(decodedText(source.path, source.encoding, stop, { skipLines: source.header - 1, signal }));
  const parser = parse(csvOptions(source.delimiter));
  // Its errors reach the loop below through the parser; this callback only keeps them from being unhandled.
  pipeline(text, parser, () => undefined);
  let nextLine = source.header;
  let row = 0;
  let header = true;
  const plainNames = !source.columns.includes('__proto__');
  try {
    for await (const { record, raw } of parser as AsyncIterable<ParsedRecord>) {
      throwIfAborted(signal);
      const line = nextLine;
      nextLine += countBreaks(raw);
      if (header) {
        header = false;
        continue;
      }
      if (record.every((cell) => cell === '')) continue;
      row++;
      yield toRow(source, record, raw, line, row, plainNames);
    }
  } catch (error) {
    throwIfAborted(signal);
    // Past bytes that are not UTF-8 the text was cut at a line's start: an open quote there is
    // the cut's doing, not the file's, and that cut is the one thing to say.
    if (!stop.notUtf8 && error instanceof CsvError) {
      yield parseProblem(error, source.delimiter, nextLine, row + 1);
      return;
    }
    if (!stop.notUtf8) throw error;
  }
  if (stop.notUtf8) yield notUtf8Problem(stop.notUtf8);
}

/**
 * `plainNames`: no column is named "__proto__" (asked once per table), so the row's objects can be
 * made by plain assignment; such a name would set the object's prototype instead (see setOwn).
 */
function toRow(source: CsvSource, record: string[], raw: string, line: number, row: number, plainNames: boolean): SourceRow | RowReadProblem {
  const starts = lineStarts(raw);
  const cellStarts = scanRecord(raw, 0, source.delimiter, true).cells.map((cell) => positionAt(starts, cell.start, line));
  const expected = source.columns.length;
  if (record.length > expected) {
    const at = cellStarts[expected] ?? { line, column: 1 };
    return { problem: l10n.t('row {0} has {1} cells, the header {2}: the cells from here on have no column', row, record.length, expected), ...at, row };
  }
  if (record.length < expected) {
    // Where the missing cells would start: the end of the row, before its line break.
    const at = positionAt(starts, raw.replace(/[\r\n]+$/, '').length, line);
    return { problem: missingCells(row, record.length, source.columns.slice(record.length), starts), ...at, row };
  }
  const values: Record<string, unknown> = {};
  const cells: Record<string, CellPosition> = {};
  const { columns } = source;
  if (plainNames) {
    // The usual header: plain assignment makes the same own members, about five times faster than
    // setOwn's defineProperty (two objects per row: a measurable share of a 100,000-row import).
    for (let i = 0; i < columns.length; i++) {
      values[columns[i]] = record[i];
      cells[columns[i]] = cellStarts[i];
    }
  } else {
    columns.forEach((column, i) => {
      setOwn(values, column, record[i]);
      setOwn(cells, column, cellStarts[i]);
    });
  }
  return { row, line, values, cells };
}

/**
 * A row short of cells: the first three missing columns by name. A row that spans lines and is short
 * of cells often has a quote closed too late, which is said too.
 */
function missingCells(row: number, cells: number, missing: readonly string[], starts: readonly number[]): string {
  const header = cells + missing.length;
  const names = missing.slice(0, 3).map((column) => `"${column}"`).join(', ');
  const more = missing.length - 3;
  // The raw text ends with its line break, which starts one more (empty) line.
  const lines = starts.length - 1;
  if (lines > 1) {
    if (missing.length === 1) return l10n.t('row {0} has {1} cells, the header {2}: column {3} is missing (it spans {4} lines: is a quote closed too late?)', row, cells, header, names, lines);
    if (more <= 0) return l10n.t('row {0} has {1} cells, the header {2}: columns {3} are missing (it spans {4} lines: is a quote closed too late?)', row, cells, header, names, lines);
    return l10n.t('row {0} has {1} cells, the header {2}: columns {3} and {4} more are missing (it spans {5} lines: is a quote closed too late?)', row, cells, header, names, more, lines);
  }
  if (missing.length === 1) return l10n.t('row {0} has {1} cells, the header {2}: column {3} is missing', row, cells, header, names);
  if (more <= 0) return l10n.t('row {0} has {1} cells, the header {2}: columns {3} are missing', row, cells, header, names);
  return l10n.t('row {0} has {1} cells, the header {2}: columns {3} and {4} more are missing', row, cells, header, names, more);
}

/** A parse error that stops the reading, placed on the open quote when a quote is to blame. */
function parseProblem(error: CsvError, delimiter: string, line: number, row: number): RowReadProblem {
  const raw = typeof error.raw === 'string' ? error.raw : '';
  const openQuote = scanRecord(raw, 0, delimiter, true).openQuote;
  const quoteAt = openQuote === undefined ? undefined : positionAt(lineStarts(raw), openQuote, line);
  const at = quoteAt ?? { line, column: 1 };
  const mebibytes = MAX_ROW_CHARS / 1048576;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED': {
      const problem = quoteAt
        ? l10n.t('the quote at line {0}, column {1} is never closed: the rest of the file is one cell, so no rows from here on are read', quoteAt.line, quoteAt.column)
        : l10n.t('a quote is never closed: the rest of the file is one cell, so no rows from here on are read');
      return { problem, ...at, row };
    }
    case 'CSV_MAX_RECORD_SIZE': {
      const problem = quoteAt
        ? l10n.t('row {0} is longer than {1} MiB: the quote at line {2}, column {3} is never closed; no rows from here on are read', row, mebibytes, quoteAt.line, quoteAt.column)
        : l10n.t('row {0} is longer than {1} MiB; no rows from here on are read', row, mebibytes);
      return { problem, ...at, row };
    }
    default:
      return { problem: l10n.t('row {0} cannot be read ({1}); no rows from here on are read', row, error.message), ...at, row };
  }
}
