// A sheet of an Excel workbook (.xlsx, .xlsm) as a table: the mapping's `source.sheet` (a name, or
// a 1-based index; the first visible sheet with values by default, openWorkbook.ts), its
// `source.header` row (1 by default), and each row below it a row of the table, read as the
// sheet's part is inflated. A cell's place is its row and column in the sheet (CellPosition line
// and column), which messages name as people do: Sheet1!C12 (cellReference.ts). Loaded only when
// a workbook is opened (yauzl, saxes).
import { memberSetter } from '../ownMembers';
import { isCancellation, throwIfAborted } from '../../../api/errors';
import { l10n } from '../../../text/l10n';
import type { ZipArchive } from '../archive/zipArchive';
import { columnNames } from '../columnNames';
import { TableReadError } from '../tableReadError';
import type { CellPosition, RowReadProblem, SourceRow, SourceTable, TableFormat } from '../types';
import { cellReference } from '../cellReference';
import { sheetRows } from './sheetRows';
import type { WorkbookParts, WorkbookSheet } from './workbookParts';
import { chooseSheet, openParts, sheetChoiceNote } from './openWorkbook';

/** @public (openTable.ts loads this module with require() when a workbook is opened) */
export async function openWorkbook(path: string, given: { sheet?: string | number; header?: number }): Promise<SourceTable> {
  const { archive, parts } = await openParts(path);
  try {
    const sheet = await chooseSheet(path, archive, parts, given.sheet);
    const header = given.header ?? 1;
    const headerRow = await readHeader(path, archive, parts, sheet, header);
    const { columns, notes } = columnNames(headerRow);
    const format: TableFormat = { format: 'xlsx', encoding: 'utf-8', header, sheet: sheet.name };
    const detected = [
      ...(given.sheet === undefined && parts.sheets.length > 1 ? [sheetChoiceNote(parts.sheets, sheet)] : []),
      ...(parts.date1904 ? [l10n.t('dates in the 1904 date system')] : []),
      ...notes,
    ];
    return {
      path,
      format,
      detected,
      columns,
      sheets: parts.sheets.map((each) => each.name),
      hiddenSheets: parts.sheets.filter((each) => each.hidden).map((each) => each.name),
      rows: (signal) => workbookRows(path, sheet, header, columns, signal),
    };
  } finally {
    archive.close();
  }
}

async function readHeader(path: string, archive: ZipArchive, parts: WorkbookParts, sheet: WorkbookSheet, header: number): Promise<string[]> {
  for await (const row of sheetRows(await archive.stream(sheet.part), parts)) {
    if (row.number < header) continue;
    if (row.number > header || row.cells.size === 0) break;
    const last = Math.max(...row.cells.keys());
    return Array.from({ length: last }, (_, index) => row.cells.get(index + 1) ?? '');
  }
  throw new TableReadError(path, l10n.t('row {0} of sheet "{1}" is blank: give the row the column names are on (source.header)', header, sheet.name), {
    line: header,
    column: 1,
  });
}

async function* workbookRows(
  path: string,
  sheet: WorkbookSheet,
  header: number,
  columns: string[],
  signal?: AbortSignal,
): AsyncGenerator<SourceRow | RowReadProblem> {
  throwIfAborted(signal);
  // Each reading opens the archive again (a table's rows may be read more than once).
  const { archive, parts } = await openParts(path);
  let lastLine = header;
  const set = memberSetter(columns);
  try {
    let dataRow = 0;
    for await (const sheetRow of sheetRows(await archive.stream(sheet.part), parts)) {
      throwIfAborted(signal);
      lastLine = sheetRow.number;
      if (sheetRow.number <= header || sheetRow.cells.size === 0) continue;
      dataRow++;
      const beyond = [...sheetRow.cells.keys()].find((column) => column > columns.length);
      if (beyond !== undefined) {
        yield {
          row: dataRow,
          line: sheetRow.number,
          column: beyond,
          problem: l10n.t(
            '{0} has a value, but its column has no name in the header row ({1})',
            cellReference(sheet.name, { line: sheetRow.number, column: beyond }),
            header,
          ),
        };
        continue;
      }
      const values: Record<string, unknown> = {};
      const cells: Record<string, CellPosition> = {};
      columns.forEach((name, index) => {
        set(values, name, sheetRow.cells.get(index + 1) ?? '');
        set(cells, name, { line: sheetRow.number, column: index + 1 });
      });
      yield { row: dataRow, line: sheetRow.number, values, cells };
    }
  } catch (error) {
    if (isCancellation(error)) throw error;
    // A damaged entry or XML (a download cut short): what was read stands, and it is said where reading stopped.
    yield {
      line: lastLine + 1,
      column: 1,
      problem: l10n.t('the sheet cannot be read after row {0} ({1}): the rows after it are not read', lastLine, (error as Error).message),
    };
  } finally {
    archive.close();
  }
}
