// Title lines above a CSV's header, as spreadsheets and city portals export them ("Baumkataster
// Graz, Stand 2026-05-01", a blank line, then the header; Excel's "Artenliste;;;"; "Export;Stadt
// Graz" metadata lines): the header is the first line below them whose cells are all names, that
// the rows after it fit, and above which every line has fewer filled cells than it has. Searched
// only when the first line does not look like a header itself, so a table whose rows leave
// trailing cells out (ODK Central, spreadsheets) or end with delimiters, or whose row has a cell
// too many, keeps its first line.
import { CANDIDATE_DELIMITERS, detectDelimiter, sampleRecords } from './csvDetection';
import { scanRecord, type ScannedCell } from './csvCells';
import { linesFrom } from './positions';

// Title lines a portal or spreadsheet writes above a header: a few; a table's rows are not searched.
const TITLE_LINES_AT_MOST = 20;
// The share of the rows below a header that fit it: no more cells than it has, but empty ones.
const FITTING = 0.8;

/**
 * The header's line when title lines are above it; undefined when the first line is the header (or
 * nothing better is found). `delimiter`: the one the file is read with, when it is given.
 */
export function headerBelowTitle(text: string, complete: boolean, delimiter?: string): number | undefined {
  if (firstLineIsHeader(text, complete, delimiter ?? detectDelimiter(text, complete))) return undefined;
  for (let line = 2; line <= TITLE_LINES_AT_MOST; line++) {
    const body = linesFrom(text, line);
    if (body === undefined) return undefined;
    for (const candidate of delimiter !== undefined ? [delimiter] : CANDIDATE_DELIMITERS) {
      const header = scanRecord(body, 0, candidate, complete).cells;
      if (!namesOnly(header, candidate)) continue;
      const rows = sampleRecords(body, candidate, complete).slice(1);
      if (rows.length === 0 || split(rows) < rows.length * FITTING || share(rows, header.length) < FITTING) continue;
      if (titlesAbove(text, line, candidate, header.length, complete)) return line;
    }
  }
  return undefined;
}

/**
 * Line 1 has two or more cells, most of them filled, and the rows below fit it (or there are none)
 * and are split by the delimiter: rows it leaves whole say it is the comma of a title
 * ("Baumkataster Graz, Stand 2026") over a ';' or tab table, detected on text that includes the title.
 * Where its cells are all distinct names, most rows fitting is enough: a row with a cell too many
 * (a name's comma left unquoted) must not make its own line the header (with ids such as "T-002"
 * and a WKT or position cell, no cell of it is a plain number).
 */
function firstLineIsHeader(text: string, complete: boolean, delimiter: string | undefined): boolean {
  if (delimiter === undefined) return false;
  const header = scanRecord(text, 0, delimiter, complete).cells;
  const filled = filledCells(header);
  if (header.length < 2 || filled * 2 <= header.length) return false;
  const rows = sampleRecords(text, delimiter, complete).slice(1);
  if (rows.length === 0) return true;
  if (split(rows) < rows.length * FITTING) return false;
  if (share(rows, header.length) >= FITTING) return true;
  // Most rows, and most of those after the first that does not fit: below metadata lines, a
  // table's rows fit none, however many the metadata lines are. Here a row fits with no cell past
  // line 1's: rows ending in an empty cell past it ("T-001;47.07;15.43;" under a three-cell title)
  // are a wider table's.
  const exactly = (some: typeof rows) => some.filter((row) => row.cells.length <= header.length).length;
  const after = rows.slice(rows.findIndex((row) => row.cells.length > header.length) + 1);
  const most = (some: typeof rows) => some.length === 0 || exactly(some) * 2 > some.length;
  return most(rows) && most(after) && namesOnly(header, delimiter) && distinct(header);
}

/** The cells that hold more than blanks. */
function filledCells(cells: readonly ScannedCell[]): number {
  return cells.filter((cell) => cell.value.trim() !== '').length;
}

/** The rows the delimiter splits into two or more cells. */
function split(rows: ReadonlyArray<{ cells: readonly ScannedCell[] }>): number {
  return rows.filter((row) => row.cells.length >= 2).length;
}

/** No two cells have the same name: a header's columns are told apart by them. */
function distinct(cells: readonly ScannedCell[]): boolean {
  return new Set(cells.map((cell) => cell.value.trim())).size === cells.length;
}

/** The share of the rows that fit a header of `cells` cells. */
function share(rows: ReadonlyArray<{ cells: readonly ScannedCell[] }>, cells: number): number {
  return rows.filter((row) => fits(row, cells)).length / rows.length;
}

/** A row fits a header of `cells` cells: as many or fewer, or more that are empty. */
function fits(row: { cells: readonly ScannedCell[] }, cells: number): boolean {
  return row.cells.length <= cells || row.cells.slice(cells).every((cell) => cell.value.trim() === '');
}

/**
 * The cells are all column names: two or more, each filled, none a number, and none holding
 * another delimiter than a comma (a row of "1;48,2048;16,3577" split at its commas is no header).
 */
function namesOnly(cells: readonly ScannedCell[], delimiter: string): boolean {
  const others = CANDIDATE_DELIMITERS.filter((candidate) => candidate !== delimiter && candidate !== ',');
  return (
    cells.length >= 2 &&
    cells.every((cell) => {
      const name = cell.value.trim();
      return name !== '' && !/^[-+]?[\d.,]+$/.test(name) && !others.some((other) => name.includes(other));
    })
  );
}

/** Every line above `line` has fewer filled cells than the header has: a title, a date, a blank line. */
function titlesAbove(text: string, line: number, delimiter: string, cells: number, complete: boolean): boolean {
  for (let above = 1; above < line; above++) {
    const record = scanRecord(linesFrom(text, above) ?? '', 0, delimiter, complete);
    if (filledCells(record.cells) >= cells) return false;
  }
  return true;
}
