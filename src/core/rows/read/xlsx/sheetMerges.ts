// The merged cells of a sheet's header row. Excel keeps a merged cell's value in its first cell
// and leaves the others empty, so a header "Location" merged over B1:C1 names column B only and
// the values under C would have no column. The merges are listed after the rows (<mergeCells>
// follows <sheetData>), so the sheet's part is inflated to its end once when the table is opened;
// the text after the rows is searched, not parsed (the rows' XML is the rows reader's to check).
import type { Readable } from 'node:stream';
import { columnOfReference } from '../cellReference';
import { MERGED_HEADER_COLUMNS } from '../limits';

export interface MergedRange {
  /** As the sheet writes it: "B1:C1". */
  ref: string;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const END_OF_ROWS = /<\/([\w.-]+:)?sheetData\s*>/;
const MERGE = /<([\w.-]+:)?mergeCell\s[^>]*?\bref\s*=\s*["']([A-Z]{1,3}\d+):([A-Z]{1,3}\d+)["']/g;

/** The sheet's merged ranges; none when its part cannot be read to its end (the rows say where it is damaged). */
export async function mergedRanges(stream: Readable): Promise<MergedRange[]> {
  let before = '';
  const after: string[] = [];
  let rowsEnded = false;
  try {
    for await (const chunk of stream) {
      // The tags searched for are ASCII: latin1 keeps every byte one character, and is quick.
      const text = (chunk as Buffer).toString('latin1');
      if (rowsEnded) {
        after.push(text);
        continue;
      }
      // The end of the rows may be cut between two chunks: the end of the one before is kept.
      const window = before + text;
      const end = END_OF_ROWS.exec(window);
      if (end) {
        rowsEnded = true;
        after.push(window.slice(end.index + end[0].length));
      } else before = window.slice(-32);
    }
  } catch {
    return [];
  }
  const ranges: MergedRange[] = [];
  for (const [, , from, to] of after.join('').matchAll(MERGE)) {
    const left = columnOfReference(from);
    const right = columnOfReference(to);
    if (left === undefined || right === undefined) continue;
    ranges.push({ ref: `${from}:${to}`, top: Number(/\d+$/.exec(from)![0]), left, bottom: Number(/\d+$/.exec(to)![0]), right });
  }
  return ranges;
}

/**
 * The header's cells with each empty cell under a merged header cell (one starting on the header
 * row, across columns, no wider than MERGED_HEADER_COLUMNS) given that cell's name, and those
 * columns (0-based) with the range, for columnNames to name and say.
 */
export function underMergedCells(cells: readonly string[], header: number, ranges: readonly MergedRange[]): { cells: string[]; merged: Map<number, string> } {
  const named = [...cells];
  const merged = new Map<number, string>();
  for (const range of ranges) {
    const name = cells[range.left - 1];
    if (range.top !== header || range.right <= range.left || range.right - range.left >= MERGED_HEADER_COLUMNS || !name) continue;
    for (let column = range.left + 1; column <= range.right; column++) {
      if ((named[column - 1] ?? '') !== '') continue;
      while (named.length < column - 1) named.push('');
      named[column - 1] = name;
      merged.set(column - 1, range.ref);
    }
  }
  return { cells: named, merged };
}
