// Show Rows' view of a workbook's sheet is a read-only document of its own scheme, `spot-rows:`.
// Its path is the workbook's (the tab, its icon and fsPath are the workbook's, so a view's table
// is its file) and its query names the sheet shown. The checks, hovers and CodeLens know a view by it.
import * as vscode from 'vscode';

export const SHEET_VIEW_SCHEME = 'spot-rows';

/** Workbooks by their name (.xlsx, .xlsm), as the reader knows them (isWorkbookPath, not loaded here). */
export function isWorkbookUri(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && /\.xls[xm]$/i.test(uri.path);
}

export function sheetViewUri(workbook: vscode.Uri, sheet: string): vscode.Uri {
  return workbook.with({ scheme: SHEET_VIEW_SCHEME, query: new URLSearchParams({ sheet }).toString() });
}

export function isSheetView(uri: vscode.Uri): boolean {
  return uri.scheme === SHEET_VIEW_SCHEME;
}

/** The sheet a view shows, by name. */
export function sheetOf(view: vscode.Uri): string {
  return new URLSearchParams(view.query).get('sheet') ?? '';
}

/** The file a table's document is read from: a view's workbook, or the document's own file. */
export function tableFileOf(uri: vscode.Uri): vscode.Uri {
  return isSheetView(uri) ? uri.with({ scheme: 'file', query: '' }) : uri;
}

/** The open views of a workbook (of any of its sheets). */
export function openViewsOf(workbook: vscode.Uri): vscode.Uri[] {
  return vscode.workspace.textDocuments
    .filter((document) => isSheetView(document.uri) && tableFileOf(document.uri).toString() === workbook.toString())
    .map((document) => document.uri);
}
