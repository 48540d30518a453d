// A sheet of an Excel workbook (.xlsx, .xlsm) as a table: the mapping's `source.sheet` (a name, or
// a 1-based index; the first visible sheet with values by default, openWorkbook.ts), its
// `source.header` row (found below a title when left out, sheetHeader.ts; the columns under a
// merged header cell named after it, sheetMerges.ts), and each row below it a row of the table,
// read as the sheet's part is inflated. A cell's place is its row and column in the sheet
// (CellPosition line and column), which messages name as people do: Sheet1!C12 (cellReference.ts). Loaded only when a workbook is opened (yauzl, saxes).
import { memberSetter } from '../ownMembers';
import { isCancellation, throwIfAborted } from '../../../api/errors';
import { l10n } from '../../../text/l10n';
import { columnNames } from '../columnNames';
import type { CellPosition, RowReadProblem, SourceRow, SourceTable, TableFormat } from '../types';
import { cellReference } from '../cellReference';
import { sheetHeader } from './sheetHeader';
import { mergedRanges, underMergedCells } from './sheetMerges';
import { sheetRows } from './sheetRows';
import type { WorkbookSheet } from './workbookParts';
import { chooseSheet, openParts, sheetChoiceNote } from './openWorkbook';

/** @public (openTable.ts loads this module with require() when a workbook is opened) */
export async function openWorkbook(path: string, given: { sheet?: string | number; header?: number }): Promise<SourceTable> {
  const { archive, parts } = await openParts(path);
  try {
    const sheet = await chooseSheet(path, archive, parts, given.sheet);
    const { header, cells, note } = await sheetHeader(path, archive, parts, sheet, given.header);
    const named = underMergedCells(cells, header, await mergedRanges(await archive.stream(sheet.part)));
    const { columns, notes } = columnNames(named.cells, named.merged);
    const format: TableFormat = { format: 'xlsx', encoding: 'utf-8', header, sheet: sheet.name };
    const detected = [
      ...(given.sheet === undefined && parts.sheets.length > 1 ? [sheetChoiceNote(parts.sheets, sheet)] : []),
      ...(note ? [note] : []),
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
