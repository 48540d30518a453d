// Show Rows: a workbook is not text, so its sheet (the one its mapping reads, the first without
// one) opens as a read-only view whose lines are the rows written as CSV, line N the sheet's row
// N. There the table's problems, hovers, the CodeLens and Preview Spots work as on a CSV
// (sheetViews.ts reads it, tableChecks.ts checks it). `at`: a cell to put the cursor on.
import * as vscode from 'vscode';
import { mappingPathFor } from '../../../core/rows/mapping/mappingPath';
import type { CellPosition } from '../../../core/rows/read/types';
import { withCancellableProgress } from '../../platform/cancellation';
import { BUILT_IN_COMMAND } from '../../platform/commandIds';
import { showMessage } from '../../platform/errorActions';
import { ActionableError } from '../../platform/errors';
import { loadRows } from '../../platform/lazyRows';
import type { CommandServices } from '../../commands/commandTable';
import { isSheetView, isWorkbookUri, tableFileOf } from '../sheetViewUri';
import { textOf } from '../tableChecks';
import { cellRange } from '../tableRanges';

export async function showRows(services: CommandServices, arg?: unknown, at?: unknown): Promise<vscode.TextEditor> {
  const workbook = workbookTarget(arg);
  const name = vscode.workspace.asRelativePath(workbook, false);
  const rows = await loadRows();
  const mapping = vscode.Uri.file(mappingPathFor(workbook.fsPath));
  const mappingText = await textOf(mapping);
  // The sheet the import reads; a mapping that cannot be read yet says so in its own problems.
  const sheet = mappingText === undefined ? undefined : rows.parseMapping(mapping.fsPath, mappingText).mapping?.source?.sheet;
  const { sheets } = await services.tables.ready();
  let read;
  try {
    read = await withCancellableProgress({ title: vscode.l10n.t('Reading the rows of {0}', name) }, (progress, signal) =>
      sheets.read(workbook, sheet, signal, (row) => progress.report({ message: vscode.l10n.t('row {0}…', row) })),
    );
  } catch (error) {
    if (!(error instanceof rows.TableReadError)) throw error;
    if (sheet === undefined)
      throw new ActionableError(
        vscode.l10n.t(
          '{0} cannot be shown as rows: {1}. Open it in Excel or LibreOffice, save it again as an Excel workbook (.xlsx), then run Show Rows again.',
          name,
          error.reason,
        ),
      );
    throw new ActionableError(
      vscode.l10n.t(
        '{0} cannot be shown as rows: {1}. Check the sheet its mapping {2} names ("source.sheet"), then run Show Rows again.',
        name,
        error.reason,
        vscode.workspace.asRelativePath(mapping, false),
      ),
      [{ title: vscode.l10n.t('Open Mapping'), command: BUILT_IN_COMMAND.open, args: [mapping] }],
    );
  }
  const { view } = read;
  if (read.sheet.unreadable) {
    services.log.warn('rows', `${name}: ${read.sheet.unreadable}`);
    showMessage(
      services,
      'warning',
      vscode.l10n.t('Sheet "{0}" of {1} is damaged: {2}. Save the workbook again from Excel or LibreOffice.', read.sheet.sheet, name, read.sheet.unreadable),
      [],
    );
  }
  services.log.info('rows', `${name}: sheet "${read.sheet.sheet}" shown, ${read.sheet.rows} rows of ${read.sheet.columns} columns`);
  const document = await vscode.workspace.openTextDocument(view);
  const cell = isCellPosition(at) ? cellRange(view, at.line, at.column) : undefined;
  return vscode.window.showTextDocument(document, { preview: false, ...(cell ? { selection: cell } : {}) });
}

/** The workbook given (the Explorer's menu, a view's CodeLens), else the one in the active editor or tab. */
function workbookTarget(arg: unknown): vscode.Uri {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const active =
    vscode.window.activeTextEditor?.document.uri ?? (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined);
  const given = arg instanceof vscode.Uri ? arg : active;
  if (given && (isWorkbookUri(given) || isSheetView(given))) return tableFileOf(given);
  throw new ActionableError(
    vscode.l10n.t('Show Rows shows the rows of an Excel workbook (.xlsx or .xlsm): choose it on a workbook in the Explorer, or with a workbook open.'),
  );
}

function isCellPosition(value: unknown): value is CellPosition {
  return typeof value === 'object' && value !== null && typeof (value as CellPosition).line === 'number' && typeof (value as CellPosition).column === 'number';
}
