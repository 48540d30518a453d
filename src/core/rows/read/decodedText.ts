// A file's text, streamed in whole lines: the decoded chunks of decodedChunks.ts, title lines before
// the header skipped, cut at line breaks. Whole lines, so that when the bytes stop being UTF-8 part
// way, a reader has been given no part of the line they stop in: it cannot take a cut cell for a
// whole one.
import { l10n } from '../../text/l10n';
import { decodedChunks, type TextStop } from './decodedChunks';
import { MAX_ROW_CHARS } from './limits';
import { breakLength } from './positions';
import type { TableBytes } from './tableBytes';
import type { CellPosition, RowReadProblem, SourceEncoding } from './types';

export interface DecodedTextOptions {
  /** Lines dropped before the first one given (title rows above a header). */
  skipLines?: number;
  signal?: AbortSignal;
}

export type { TextStop } from './decodedChunks';

/**
 * The text, in pieces that each end at a line break (the last may not). When bytes that are not
 * UTF-8 come, the lines before theirs are given, `stop.notUtf8` says where they are, and the text
 * ends. Aborting the signal throws CancelledError.
 */
export async function* decodedText(source: TableBytes, encoding: SourceEncoding, stop: TextStop, options: DecodedTextOptions = {}): AsyncGenerator<string> {
  let toSkip = options.skipLines ?? 0;
  let carried = '';
  for await (const piece of decodedChunks(source, encoding, stop, options.signal)) {
    const text = carried + piece;
    // A line longer than any row may be is handed on unfinished rather than held: the reader
    // refuses it anyway (MAX_ROW_CHARS), and a file without line breaks is never held whole.
    const cut = text.length > MAX_ROW_CHARS ? text.length : wholeLinesLength(text, false);
    carried = text.slice(cut);
    const lines = skipped(text.slice(0, cut), toSkip);
    toSkip = lines.toSkip;
    if (lines.text) yield lines.text;
  }
  // The end of the text: its last line whole, unless bytes that are not UTF-8 cut it (then left out).
  const rest = stop.notUtf8 ? carried.slice(0, wholeLinesLength(carried, true)) : carried;
  const lines = skipped(rest, toSkip);
  if (lines.text) yield lines.text;
}

/**
 * The length of the text's whole lines: up to its last line break. A CR at the very end may be
 * the first half of a CRLF whose LF comes with the next piece, so it is not taken as an end,
 * unless `cutAtEnd` (nothing follows).
 */
function wholeLinesLength(text: string, cutAtEnd: boolean): number {
  for (let i = text.length - 1; i >= 0; i--) {
    const code = text.charCodeAt(i);
    if (code === 10) return i + 1;
    if (code === 13 && (cutAtEnd || i < text.length - 1)) return i + 1;
  }
  return 0;
}

/** The text without its first `toSkip` lines, and how many lines are still to skip after it. */
function skipped(text: string, toSkip: number): { text: string; toSkip: number } {
  let start = 0;
  while (toSkip > 0 && start < text.length) {
    const next = nextLineStart(text, start);
    if (next < 0) return { text: '', toSkip };
    start = next;
    toSkip--;
  }
  return { text: start === 0 ? text : text.slice(start), toSkip };
}

function nextLineStart(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const length = breakLength(text, i);
    if (length > 0) return i + length;
  }
  return -1;
}

/** The problem that ends the rows of a text that stopped at bytes that are not UTF-8. */
export function notUtf8Problem(at: CellPosition): RowReadProblem {
  return {
    problem: l10n.t(
      'the file is not valid UTF-8 from here on: give its encoding (windows-1252 for a Windows spreadsheet export) or save it as UTF-8; no rows from here on are read',
    ),
    ...at,
  };
}
