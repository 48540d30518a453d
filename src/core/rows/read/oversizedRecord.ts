// A CSV record longer than any row may be (MAX_ROW_CHARS), passed over without holding its text:
// the same rules as scanRecord (csvCells.ts), followed a character at a time across pieces of
// text, only to find where the record ends (or that the file ends inside a quoted cell) and on
// which line the next one starts.
import type { QuoteChar } from './csvCells';
import type { CellPosition } from './types';

const QUOTE = 34;
const CR = 13;
const LF = 10;

type Place = 'cellStart' | 'unquoted' | 'quoted' | 'quoteSeen';

export class OversizedRecord {
  /** The line the next record starts on, once this one ended. */
  nextLine: number;
  /** Where the quoted cell the text is in was opened, while it is open. */
  openQuote?: CellPosition;
  /** The record's end was found (rather than the end of the file). */
  ended = false;
  private place: Place = 'cellStart';
  private column = 1;
  /** The record ended at a CR that was the last character of a piece: an LF first in the next one belongs to it. */
  private endedAtCr = false;
  /** A CR inside a quoted cell was the last character of a piece: an LF first in the next one is the same break. */
  private afterCr = false;
  private readonly separator: number;
  private readonly quoting: boolean;

  /** `line`: the record's first line; `row`: its data row number; `quote` '' when quotes are characters. */
  constructor(
    delimiter: string,
    quote: QuoteChar,
    readonly line: number,
    readonly row: number,
  ) {
    this.separator = delimiter.charCodeAt(0);
    this.quoting = quote !== '';
    this.nextLine = line;
  }

  /**
   * Goes over `text` from `from`: the offset just after the record's end (after its line break),
   * or -1 when the text ended inside it. `atEnd`: nothing follows the text.
   */
  advance(text: string, from: number, atEnd: boolean): number {
    let i = from;
    if (this.endedAtCr) {
      this.endedAtCr = false;
      this.ended = true;
      return text.charCodeAt(i) === LF ? i + 1 : i;
    }
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (this.afterCr) {
        this.afterCr = false;
        if (code === LF) continue;
      }
      const isBreak = code === LF || code === CR;
      switch (this.place) {
        case 'quoted':
          if (code === QUOTE) this.place = 'quoteSeen';
          break;
        case 'quoteSeen':
          // A doubled quote stays in the cell; anything else closes it (relaxed: characters after the closing quote stay in the cell).
          if (code === QUOTE) this.place = 'quoted';
          else {
            this.openQuote = undefined;
            if (isBreak) return this.end(text, i, atEnd);
            this.place = code === this.separator ? 'cellStart' : 'unquoted';
          }
          break;
        case 'cellStart':
          if (code === QUOTE && this.quoting) {
            this.place = 'quoted';
            this.openQuote = { line: this.nextLine, column: this.column };
            break;
          }
          if (isBreak) return this.end(text, i, atEnd);
          if (code !== this.separator) this.place = 'unquoted';
          break;
        case 'unquoted':
          if (isBreak) return this.end(text, i, atEnd);
          if (code === this.separator) this.place = 'cellStart';
          break;
      }
      if (isBreak) {
        // A break inside a quoted cell: the record goes on, on the next line (CRLF is one break).
        if (code === CR && i + 1 === text.length) this.afterCr = true;
        else if (code === CR && text.charCodeAt(i + 1) === LF) i++;
        this.nextLine++;
        this.column = 1;
      } else this.column++;
    }
    if (atEnd && this.place !== 'quoted') {
      this.ended = true;
      this.openQuote = undefined;
      return text.length;
    }
    return -1;
  }

  /** The record ends at the break at `i`. */
  private end(text: string, i: number, atEnd: boolean): number {
    this.nextLine++;
    if (text.charCodeAt(i) === CR) {
      if (i + 1 === text.length && !atEnd) {
        this.endedAtCr = true;
        return -1;
      }
      if (text.charCodeAt(i + 1) === LF) i++;
    }
    this.ended = true;
    return i + 1;
  }
}
