// A sheet's header row: the one the mapping names (`source.header`), else the first of the sheet's
// first HEADER_SEARCH_ROWS rows with two or more text cells and a row below it. Exports put a title
// line, an "Exported:" line with its date, or blank rows above the header; a row of column names is
// text, where a title is one cell and a label with its date one text cell. A sheet with no such row
// (a table of one column) has its first row with a value as its header. What was decided is said.
import { l10n } from '../../../text/l10n';
import type { ZipArchive } from '../archive/zipArchive';
import { HEADER_SEARCH_ROWS } from '../limits';
import { TableReadError } from '../tableReadError';
import { sheetRows, type SheetRow } from './sheetRows';
import type { WorkbookParts, WorkbookSheet } from './workbookParts';

export interface SheetHeader {
  /** The sheet's row number of the header. */
  header: number;
  /** Its cells, column A first, as far as its last value. */
  cells: string[];
  /** For SourceTable.detected, when the row was looked for and is not row 1. */
  note?: string;
}

export async function sheetHeader(
  path: string,
  archive: ZipArchive,
  parts: WorkbookParts,
  sheet: WorkbookSheet,
  given: number | undefined,
): Promise<SheetHeader> {
  const rows = sheetRows(await archive.stream(sheet.part), parts);
  if (given !== undefined) {
    for await (const row of rows) {
      if (row.number < given) continue;
      if (row.number > given || row.cells.size === 0) break;
      return { header: given, cells: cellsOf(row) };
    }
    throw new TableReadError(path, l10n.t('row {0} of sheet "{1}" is blank: give the row the column names are on (source.header)', given, sheet.name), {
      line: given,
      column: 1,
    });
  }
  let first: SheetRow | undefined;
  let candidate: SheetRow | undefined;
  try {
    for await (const row of rows) {
      if (row.cells.size === 0) continue;
      // Any row below the candidate is the data it heads.
      if (candidate)
        return found(
          candidate,
          l10n.t(
            'header row {0} (detected: the first of the first {1} rows with two or more text cells and a row below it)',
            candidate.number,
            HEADER_SEARCH_ROWS,
          ),
        );
      first ??= row;
      if (row.number > HEADER_SEARCH_ROWS) break;
      if ([...row.cells.values()].filter(isText).length >= 2) candidate = row;
    }
  } catch (error) {
    // Damage below the rows seen (a download cut short) is the rows' to report, where it is.
    if (!first) throw error;
  }
  if (first) return found(first, l10n.t('header row {0} (detected: the first row with a value)', first.number));
  throw new TableReadError(path, l10n.t('sheet "{0}" holds no values: name the sheet the table is on (source.sheet)', sheet.name));
}

function found(row: SheetRow, note: string): SheetHeader {
  return { header: row.number, cells: cellsOf(row), ...(row.number !== 1 ? { note } : {}) };
}

function cellsOf(row: SheetRow): string[] {
  const last = Math.max(...row.cells.keys());
  return Array.from({ length: last }, (_, index) => row.cells.get(index + 1) ?? '');
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
/** A date, a date and time, or a time, as sheetRows writes a date cell. */
const DATE_OR_TIME = /^(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?|\d{1,2}:\d{2}(:\d{2})?)$/;

/** A column name, not a value: not a number, a date or a time, TRUE or FALSE. */
function isText(cell: string): boolean {
  const value = cell.trim();
  return value !== '' && !NUMBER.test(value) && !DATE_OR_TIME.test(value) && value !== 'TRUE' && value !== 'FALSE';
}
