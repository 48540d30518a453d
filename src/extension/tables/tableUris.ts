// Which documents are tables, mappings and rows' previews, by their names: what activation needs to
// know of tables (registerTables.ts builds the rest on the first of them) and what the commands ask first.
import * as vscode from 'vscode';
import { isTableFile } from '../../core/rows/mapping/mappingPath';
import { isSheetView, SHEET_VIEW_SCHEME } from './sheetViewUri';

/**
 * Tables are files (a CSV has no language of its own in VS Code: plaintext, or an extension's
 * "csv"), and workbooks' views. A .json is one by its content (isTableUri asks its first bytes).
 */
export const TABLE_FILES: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/*.{csv,tsv,tab,txt,dat,geojson,geojsonl,geojsons,ndjson,jsonl,json}' },
  { scheme: SHEET_VIEW_SCHEME },
];

/** The read-only previews of rows' spot documents (rowPreviews.ts). */
export const PREVIEW_SCHEME = 'spot-preview';

/** `anyName`: an occurrence.txt counts without a mapping beside it too (a command given that file). A workbook's view is its table. */
export function isTableUri(uri: vscode.Uri, anyName = false): boolean {
  return (uri.scheme === 'file' && isTableFile(uri.fsPath, anyName)) || isSheetView(uri);
}

export function isMappingUri(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && /\.mapping\.json$/i.test(uri.path);
}
