// The rows of a CSV/TSV file, streamed: the file's text a chunk at a time (decodedText), cut into
// records by the one CSV scanner (csvCells.ts), one row at a time to the caller, so memory holds a
// chunk and a row, never the file. Records are read in file order and each problem comes in its
// place, after every complete row before it, whatever the caller does between rows. A row longer
// than MAX_ROW_CHARS is passed over without being held (oversizedRecord.ts) and reported at its
// line; the rows after it are read on.
import { throwIfAborted } from '../../api/errors';
import { l10n } from '../../text/l10n';
import { scanRecord, type QuoteChar, type ScannedCell, type ScannedRecord } from './csvCells';
import { decodedText, notUtf8Problem, type TextStop } from './decodedText';
import { MAX_ROW_CHARS } from './limits';
import { OversizedRecord } from './oversizedRecord';
import { setOwn } from './ownMembers';
import { countBreaks, lineStarts, positionAt } from './positions';
import type { TableBytes } from './tableBytes';
import type { CellPosition, RowReadProblem, SourceEncoding, SourceRow } from './types';

export interface CsvSource {
  path: string;
  /** Where its bytes are (default: the file at path). */
  bytes?: TableBytes;
  encoding: SourceEncoding;
  delimiter: string;
  /** '"', or '' when quotes are characters (SourceFormat.quote). */
  quote: QuoteChar;
  /** Line of the header row; the lines before it are not read. */
  header: number;
  columns: readonly string[];
  /** The writer ends its rows with a delimiter (endsRowsWithDelimiter): empty cells past the header's are that, not cells without a column. */
  trailingDelimiter?: boolean;
}

/** Where the reading is between two pieces of text. */
interface ReadState {
  /** Text of the record not yet complete (from its first character). */
  pending: string;
  /** The line the next record starts on. */
  line: number;
  /** Data rows met so far. */
  row: number;
  /** The header record is still to come (it is read by openTable, and passed over here). */
  header: boolean;
  /** A record past MAX_ROW_CHARS being passed over. */
  oversized?: OversizedRecord;
  /** Reading ended for good (a quote never closed). */
  done: boolean;
  /** The length of the shortest value of the last column in the rows read so far (a cut last cell is shorter). */
  shortestLast?: number;
}

export async function* csvRows(source: CsvSource, signal?: AbortSignal): AsyncGenerator<SourceRow | RowReadProblem> {
  const stop: TextStop = {};
  const state: ReadState = { pending: '', line: source.header, row: 0, header: true, done: false };
  // `no "__proto__" column` is asked once per table: such a name would set a row object's prototype.
  const plainNames = !source.columns.includes('__proto__');
  for await (const piece of decodedText(source.bytes ?? source.path, source.encoding, stop, { skipLines: source.header - 1, signal })) {
    throwIfAborted(signal);
    yield* records(source, state, piece, false, plainNames);
    if (state.done) return;
  }
  throwIfAborted(signal);
  // Past bytes that are not UTF-8 the text was cut at a line's start: a record open there is the
  // cut's doing, not the file's, and that cut is the one thing to say.
  if (stop.notUtf8) {
    yield notUtf8Problem(stop.notUtf8);
    return;
  }
  yield* records(source, state, '', true, plainNames);
}

/** The rows of the records that `piece` completes; `atEnd`: nothing follows it. */
function* records(source: CsvSource, state: ReadState, piece: string, atEnd: boolean, plainNames: boolean): Generator<SourceRow | RowReadProblem> {
  const text = state.pending.length > 0 ? state.pending + piece : piece;
  state.pending = '';
  let offset = 0;
  if (state.oversized) {
    offset = state.oversized.advance(text, 0, atEnd);
    if (offset < 0 && !atEnd) return;
    yield* passedOver(state);
    if (state.done || offset < 0) return;
  }
  while (offset < text.length) {
    const record = scanRecord(text, offset, source.delimiter, atEnd, source.quote);
    if (!record.complete) {
      if (text.length - offset > MAX_ROW_CHARS) {
        // Too long to hold: passed over from its start, without keeping its text.
        state.oversized = new OversizedRecord(source.delimiter, source.quote, state.line, state.row + 1);
        offset = state.oversized.advance(text, offset, atEnd);
        if (offset < 0 && !atEnd) return;
        yield* passedOver(state);
        if (state.done || offset < 0) return;
        continue;
      }
      if (atEnd && record.openQuote !== undefined) {
        const raw = text.slice(offset);
        const quote = positionAt(lineStarts(raw), record.openQuote - offset, state.line);
        const problem = l10n.t(
          'the quote at line {0}, column {1} is never closed: the rest of the file is one cell, so no rows from here on are read',
          quote.line,
          quote.column,
        );
        yield { problem, ...quote, row: state.row + 1 };
        state.done = true;
        return;
      }
      state.pending = text.slice(offset);
      return;
    }
    const raw = text.slice(offset, record.end);
    const line = state.line;
    state.line += countBreaks(raw);
    offset = record.end;
    if (state.header) {
      state.header = false;
      continue;
    }
    // A line of blanks, a tab or delimiters only (a row cleared in a spreadsheet) is no row, as an empty one is not.
    if (record.cells.every((cell) => cell.value.trim() === '')) continue;
    state.row++;
    if (raw.length > MAX_ROW_CHARS) {
      // Ended within the text at hand, but longer than any row may be: not read, as one passed over.
      yield { problem: l10n.t('row {0} is longer than {1} MiB: it is not read', state.row, MAX_ROW_CHARS / 1048576), line, column: 1, row: state.row };
      continue;
    }
    // A short record is said by toRow (it spans lines: a quote closed too late).
    const swallowed =
      record.looseQuote && record.cells.length >= source.columns.length && swallowedLines(record.looseQuote, raw, offset - raw.length, line, state.row);
    if (swallowed) {
      yield swallowed;
      continue;
    }
    yield toRow(source, record.cells, raw, offset - raw.length, { line, row: state.row, shortestLast: state.shortestLast }, plainNames);
    if (record.cells.length === source.columns.length && record.cells[record.cells.length - 1].value !== '')
      state.shortestLast = Math.min(state.shortestLast ?? Infinity, record.cells[record.cells.length - 1].value.length);
  }
}

/**
 * A quoted cell closed lines after it opened by a quote that does not end it: a quote that is a
 * character opened the cell, and the rows up to the next quote went into it. Read relaxed, those
 * rows would vanish into one row's cell and, with the cell count right, without a word; so the
 * record is not read, and the problem says how to read quotes as characters.
 */
function swallowedLines(loose: NonNullable<ScannedRecord['looseQuote']>, raw: string, rawStart: number, line: number, row: number): RowReadProblem | undefined {
  const starts = lineStarts(raw);
  const open = positionAt(starts, loose.open - rawStart, line);
  const close = positionAt(starts, loose.close - rawStart, line);
  if (close.line === open.line) return undefined;
  return {
    problem: l10n.t(
      'the quote at line {0}, column {1} is closed on line {2} by a quote that does not end the cell: row {3} and the lines up to {2} are not read. If quotes are characters in this file (as in GBIF downloads), set "quote": "" in the mapping\'s source',
      open.line,
      open.column,
      close.line,
      row,
    ),
    ...open,
    row,
  };
}

/** The problem of a record that was passed over, once its end is found (or the file's). */
function* passedOver(state: ReadState): Generator<RowReadProblem> {
  const oversized = state.oversized!;
  state.oversized = undefined;
  const mebibytes = MAX_ROW_CHARS / 1048576;
  if (!oversized.ended) {
    // The file ended inside the record: only a quoted cell keeps a record open to the end.
    const quote = oversized.openQuote ?? { line: oversized.line, column: 1 };
    yield {
      problem: l10n.t(
        'row {0} is longer than {1} MiB: the quote at line {2}, column {3} is never closed; no rows from here on are read',
        oversized.row,
        mebibytes,
        quote.line,
        quote.column,
      ),
      ...quote,
      row: oversized.row,
    };
    state.done = true;
    return;
  }
  state.row = oversized.row;
  state.line = oversized.nextLine;
  yield { problem: l10n.t('row {0} is longer than {1} MiB: it is not read', oversized.row, mebibytes), line: oversized.line, column: 1, row: oversized.row };
}

/**
 * A record as a row. A row short of cells (trailing empty cells left out, as ODK Central and
 * spreadsheets write them) has those cells empty, placed where they would start: the end of the
 * row; unless it spans lines (a quote closed too late swallows the rows after it) or the file ends
 * in it without a line break (cut short): then it is a problem at its end. A row with more cells
 * than the header is a problem at its first cell without a column, unless those cells are empty in
 * a file whose writer ends its rows with a delimiter.
 */
function toRow(
  source: CsvSource,
  scanned: readonly ScannedCell[],
  raw: string,
  rawStart: number,
  { line, row, shortestLast }: { line: number; row: number; shortestLast: number | undefined },
  plainNames: boolean,
): SourceRow | RowReadProblem {
  const starts = lineStarts(raw);
  const { columns } = source;
  const expected = columns.length;
  // Empty cells past the header's hold nothing to lose where the writer ends its rows with a delimiter;
  // elsewhere they are the end of a row whose values moved a column to the right.
  if (scanned.length > expected && !(source.trailingDelimiter && scanned.slice(expected).every((cell) => cell.value.trim() === ''))) {
    const at = positionAt(starts, scanned[expected].start - rawStart, line);
    return { problem: l10n.t('row {0} has {1} cells, the header {2}: the cells from here on have no column', row, scanned.length, expected), ...at, row };
  }
  const missingAt = scanned.length < expected ? positionAt(starts, raw.replace(/[\r\n]+$/, '').length, line) : undefined;
  if (missingAt) {
    const ended = /[\r\n]$/.test(raw);
    // The raw text ends with its line break, which starts one more (empty) line.
    const lines = ended ? starts.length - 1 : starts.length;
    if (lines > 1) return { problem: spansLines(row, scanned.length, columns.slice(scanned.length), lines), ...missingAt, row };
    if (!ended)
      return {
        problem: l10n.t(
          'row {0} has {1} cells, the header {2}, and the file ends in it without a line break: is the file cut short?',
          row,
          scanned.length,
          expected,
        ),
        ...missingAt,
        row,
      };
  }
  const values: Record<string, unknown> = {};
  const cells: Record<string, CellPosition> = {};
  for (let i = 0; i < expected; i++) {
    const cell = scanned[i];
    const value = cell ? cell.value : '';
    const at = cell ? positionAt(starts, cell.start - rawStart, line) : missingAt!;
    // The usual header: plain assignment makes the same own members as setOwn, several times faster.
    if (plainNames) {
      values[columns[i]] = value;
      cells[columns[i]] = at;
    } else {
      setOwn(values, columns[i], value);
      setOwn(cells, columns[i], at);
    }
  }
  // Only the file's last record can end without a line break (the scanner waits for more text
  // otherwise). Google Sheets ends complete files so too: a last value as long as its column's
  // others is taken as complete, a shorter one as perhaps cut (with no filled value above to compare,
  // as perhaps cut); a quoted one whose quote closed, or an empty one, cannot have been cut inside.
  const last = scanned[scanned.length - 1];
  const unterminated =
    scanned.length === expected &&
    !/[\r\n]$/.test(raw) &&
    last.value !== '' &&
    !(source.quote !== '' && raw[last.start - rawStart] === source.quote) &&
    last.value.length < (shortestLast ?? Infinity);
  return {
    row,
    line,
    values,
    cells,
    ...(unterminated ? { endsUnterminatedIn: { column: columns[expected - 1], compared: shortestLast !== undefined } } : {}),
  };
}

/** A short row over several lines: the first three missing columns by name, and the likely cause. */
function spansLines(row: number, cells: number, missing: readonly string[], lines: number): string {
  const header = cells + missing.length;
  const names = missing
    .slice(0, 3)
    .map((column) => `"${column}"`)
    .join(', ');
  const more = missing.length - 3;
  if (missing.length === 1)
    return l10n.t(
      'row {0} has {1} cells, the header {2}: column {3} is missing (it spans {4} lines: is a quote closed too late?)',
      row,
      cells,
      header,
      names,
      lines,
    );
  if (more <= 0)
    return l10n.t(
      'row {0} has {1} cells, the header {2}: columns {3} are missing (it spans {4} lines: is a quote closed too late?)',
      row,
      cells,
      header,
      names,
      lines,
    );
  return l10n.t(
    'row {0} has {1} cells, the header {2}: columns {3} and {4} more are missing (it spans {5} lines: is a quote closed too late?)',
    row,
    cells,
    header,
    names,
    more,
    lines,
  );
}
