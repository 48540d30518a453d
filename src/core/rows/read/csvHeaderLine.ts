// Title lines above a CSV's header, as spreadsheets and city portals export them ("Baumkataster
// Graz, Stand 2026-05-01", a blank line, then the header; Excel's "Artenliste;;;"): the header is
// the first line below them whose cells are all names, that the rows after it match, and above
// which no line has half as many filled cells. Searched only when the first line does not look
// like a header itself, so a table whose rows leave trailing cells out keeps its first line.
import { delimiterFit } from './csvDetection';
import { scanRecord } from './csvCells';
import { linesFrom } from './positions';

// Title lines a portal or spreadsheet writes above a header: a few; a table's rows are not searched.
const TITLE_LINES_AT_MOST = 20;
// The share of the rows below a header with its number of cells (rows short of trailing cells aside).
const CONSISTENT = 0.8;

/** The header's line when title lines are above it; undefined when the first line is the header (or nothing better is found). */
export function headerBelowTitle(text: string, complete: boolean): number | undefined {
  const first = delimiterFit(text, complete);
  if (first && first.consistent >= CONSISTENT && filledCells(text, first.delimiter, complete) * 2 > first.cells) return undefined;
  for (let line = 2; line <= TITLE_LINES_AT_MOST; line++) {
    const body = linesFrom(text, line);
    if (body === undefined) return undefined;
    const fit = delimiterFit(body, complete);
    if (!fit || fit.rows === 0 || fit.consistent < CONSISTENT || !allNames(body, fit.delimiter, complete)) continue;
    if (titlesAbove(text, line, fit, complete)) return line;
  }
  return undefined;
}

/** The filled cells of the text's first record. */
function filledCells(text: string, delimiter: string, complete: boolean): number {
  return scanRecord(text, 0, delimiter, complete).cells.filter((cell) => cell.value.trim() !== '').length;
}

/** The first record's cells are all filled with something other than a number: column names. */
function allNames(text: string, delimiter: string, complete: boolean): boolean {
  const cells = scanRecord(text, 0, delimiter, complete).cells.map((cell) => cell.value.trim());
  return cells.length >= 2 && cells.every((cell) => cell !== '' && !/^[-+]?[\d.,]+$/.test(cell));
}

/** Every line above `line` has fewer than half the header's cells filled: a title, a date, a blank line. */
function titlesAbove(text: string, line: number, fit: { delimiter: string; cells: number }, complete: boolean): boolean {
  for (let above = 1; above < line; above++) {
    if (filledCells(linesFrom(text, above) ?? '', fit.delimiter, complete) * 2 >= fit.cells) return false;
  }
  return true;
}
