// Opening a table at a cell, and a mapping at a problem: where the user fixes what an import or a
// preview found. A workbook is not text: it opens as its view (Show Rows), at the cell.
import * as vscode from 'vscode';
import type { CellPosition } from '../../../core/rows/read/types';
import { COMMAND } from '../../platform/commandIds';
import { isWorkbookUri } from '../sheetViewUri';

/** The table with the cursor on the cell (line and column 1-based, as the reader gives them). */
export async function openTableAt(table: vscode.Uri, at: CellPosition): Promise<void> {
  if (isWorkbookUri(table)) {
    await vscode.commands.executeCommand(COMMAND.showRows, table, at);
    return;
  }
  const position = new vscode.Position(Math.max(0, at.line - 1), Math.max(0, at.column - 1));
  await vscode.window.showTextDocument(table, { selection: new vscode.Range(position, position), preview: false });
}

/** The mapping with its problem selected. */
export async function openMappingAtProblem(mapping: vscode.Uri, problem: { offset: number; length: number }): Promise<void> {
  const document = await vscode.workspace.openTextDocument(mapping);
  const selection = new vscode.Range(document.positionAt(problem.offset), document.positionAt(problem.offset + Math.max(0, problem.length)));
  await vscode.window.showTextDocument(document, { selection, preview: false });
}
