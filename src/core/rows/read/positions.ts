// How lines and columns are counted, once for every reader: as editors count them. A line ends at
// LF, at CRLF (one break, not two) or at a lone CR; columns are 1-based UTF-16 code units, which is
// what a JavaScript string's indices are. Offsets are into the decoded text, after any byte-order
// mark, so the first line's columns do not count the mark either.
import type { CellPosition } from './types';

const CR = 13;
const LF = 10;

/** The length of the line break at `index` (2 for CRLF, 1 for LF or a lone CR), 0 when there is none. */
export function breakLength(text: string, index: number): 0 | 1 | 2 {
  const code = text.charCodeAt(index);
  if (code === LF) return 1;
  if (code !== CR) return 0;
  return text.charCodeAt(index + 1) === LF ? 2 : 1;
}

/** Line breaks in a text. */
export function countBreaks(text: string): number {
  let breaks = 0;
  for (let i = 0; i < text.length; i++) {
    const length = breakLength(text, i);
    if (length === 0) continue;
    breaks++;
    i += length - 1;
  }
  return breaks;
}

/** Offsets at which each line of a text starts (the first is 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const length = breakLength(text, i);
    if (length === 0) continue;
    i += length - 1;
    starts.push(i + 1);
  }
  return starts;
}

/** The position of an offset, given the text's lineStarts and the line the text starts on. */
export function positionAt(starts: readonly number[], offset: number, firstLine = 1): CellPosition {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: firstLine + low, column: offset - starts[low] + 1 };
}

/**
 * The position just after everything advanced over so far, for text that comes in pieces: a CRLF
 * cut between two pieces is still one break.
 */
export class LineCounter {
  line = 1;
  column = 1;
  private afterCR = false;

  advance(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === LF) {
        // The LF of a CRLF whose CR ended the previous piece: that break is counted already.
        if (!this.afterCR) this.newLine();
        this.afterCR = false;
      } else if (code === CR) {
        this.newLine();
        this.afterCR = true;
      } else {
        this.column++;
        this.afterCR = false;
      }
    }
  }

  get position(): CellPosition {
    return { line: this.line, column: this.column };
  }

  private newLine(): void {
    this.line++;
    this.column = 1;
  }
}

/** The text from the start of line `line` (1-based), or undefined when it has fewer lines. */
export function linesFrom(text: string, line: number): string | undefined {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    while (offset < text.length && breakLength(text, offset) === 0) offset++;
    if (offset >= text.length) return undefined;
    offset += breakLength(text, offset);
  }
  return offset < text.length ? text.slice(offset) : undefined;
}
