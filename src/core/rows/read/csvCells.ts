// The one CSV scanner: where each cell of a record starts and what it holds. csvRows.ts reads the
// rows with it, openTable the header, detection the first rows, so all of them follow one set of
// rules: a cell that starts with '"' is quoted until a '"' that is not doubled; a '"' anywhere else
// is a character like any other (relaxed quotes, as spreadsheet programs read `12" pipe`); LF,
// CRLF and a lone CR end a record outside quotes; nothing is trimmed. Without quoting (quote '':
// GBIF's downloads, Darwin Core's fieldsEnclosedBy="") every '"' is a character. Written here
// rather than taken from a CSV library because the reader needs what those do not give: every
// cell's offset, and going on after a record that is too long to hold (oversizedRecord.ts follows
// the same rules).
import { breakLength } from './positions';

export interface ScannedCell {
  /** Offset of the cell's first character (its opening quote, when quoted). */
  start: number;
  /** The cell's text: unquoted, doubled quotes single. */
  value: string;
}

export interface ScannedRecord {
  cells: ScannedCell[];
  /** Offset just after the record (after its line break, when it has one). */
  end: number;
  /** False when the text ends inside the record: more text may change it. */
  complete: boolean;
  /** Offset of the opening quote of a quoted cell the text ends in. */
  openQuote?: number;
  /**
   * The first quoted cell whose closing quote does not end it (`"Big" oak`): the offsets of its
   * opening and closing quotes. Kept as written (relaxed), but a sign that quotes are characters
   * in this text, and a row's problem when the quotes are lines apart (one row swallowed another).
   */
  looseQuote?: { open: number; close: number };
}

/** The character that quotes a cell, or '' for none (SourceFormat.quote). */
export type QuoteChar = '"' | '';

const QUOTE = 34;

/**
 * The record starting at `from`. `atEnd`: nothing follows the text, so a record the text ends in
 * is complete (unless a quote is still open).
 */
export function scanRecord(text: string, from: number, delimiter: string, atEnd: boolean, quote: QuoteChar = '"'): ScannedRecord {
  const separator = delimiter.charCodeAt(0);
  const quoting = quote !== '';
  const cells: ScannedCell[] = [];
  let looseQuote: ScannedRecord['looseQuote'];
  let i = from;
  for (;;) {
    const start = i;
    let value: string;
    if (quoting && text.charCodeAt(i) === QUOTE) {
      const quoted = scanQuoted(text, i, atEnd);
      if (quoted.end < 0) return { cells, end: text.length, complete: false, openQuote: start };
      i = quoted.end;
      value = quoted.value;
      // Characters after the closing quote (`"ab"c`): relaxed quotes keep the cell as written.
      if (i < text.length && text.charCodeAt(i) !== separator && breakLength(text, i) === 0) {
        looseQuote ??= { open: start, close: i - 1 };
        i = unquotedEnd(text, i, separator);
        value = text.slice(start, i);
      }
    } else {
      i = unquotedEnd(text, i, separator);
      value = text.slice(start, i);
    }
    cells.push({ start, value });
    if (i < text.length && text.charCodeAt(i) === separator) {
      i++;
      continue;
    }
    if (i >= text.length) return { cells, end: i, complete: atEnd, looseQuote };
    // A CR as the text's last character may be the first half of a CRLF still to come.
    if (!atEnd && i === text.length - 1 && text.charCodeAt(i) === 13) return { cells, end: text.length, complete: false };
    return { cells, end: i + breakLength(text, i), complete: true, looseQuote };
  }
}

/** The end of an unquoted cell: the next delimiter or line break, or the end of the text. */
function unquotedEnd(text: string, from: number, separator: number): number {
  let i = from;
  while (i < text.length && text.charCodeAt(i) !== separator && breakLength(text, i) === 0) i++;
  return i;
}

/** A quoted cell from its opening quote: its value and the offset after its closing quote, or end -1 when it is not closed within the text. */
function scanQuoted(text: string, open: number, atEnd: boolean): { value: string; end: number } {
  let value = '';
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return { value, end: -1 };
    value += text.slice(from, quote);
    if (quote + 1 < text.length && text.charCodeAt(quote + 1) === QUOTE) {
      value += '"';
      from = quote + 2;
      continue;
    }
    // A quote as the text's last character may be the first of a doubled pair still to come.
    if (quote + 1 >= text.length && !atEnd) return { value, end: -1 };
    return { value, end: quote + 1 };
  }
}
