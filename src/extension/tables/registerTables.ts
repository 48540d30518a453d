// Tables with a mapping in the editor (issue 21): problems on the cells while typing, a CodeLens
// (Import N rows as spots, Preview spot of this row, Create Mapping), hovers that say what a cell
// becomes, and the read-only previews of rows' spot documents. Built at activation without loading
// the rows bundle: it loads when a table with a mapping is opened. A workbook is not text: Show Rows
// opens its sheet as a read-only CSV view (`spot-rows:`), where all of this works as on a CSV.
import * as vscode from 'vscode';
import type { TopicCatalogSource } from '../documents/spotDiagnostics';
import type { DisposableStore } from '../platform/lifecycle';
import type { Logger } from '../platform/services';
import { PREVIEW_SCHEME, RowPreviews } from './rowPreviews';
import { SHEET_VIEW_SCHEME } from './sheetViewUri';
import { SheetViews } from './sheetViews';
import { TableChecks } from './tableChecks';
import { TableCodeLens } from './tableCodeLens';
import { TableHovers } from './tableHovers';

/** What the row commands use: the checks of open tables, the previews of rows, and the views of workbooks. */
export interface Tables {
  readonly checks: TableChecks;
  readonly previews: RowPreviews;
  readonly sheets: SheetViews;
}

/** Tables are files (a CSV has no language of its own in VS Code: plaintext, or an extension's "csv"), and workbooks' views. */
const TABLE_FILES: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/*.{csv,tsv,tab,txt,dat,geojson,geojsonl,geojsons,ndjson,jsonl}' },
  { scheme: SHEET_VIEW_SCHEME },
];

export function registerTables(disposables: DisposableStore, log: Logger, topics: TopicCatalogSource): Tables {
  const checks = disposables.add(new TableChecks(log, topics));
  const previews = disposables.add(new RowPreviews());
  const sheets = disposables.add(new SheetViews(log));
  const codeLens = disposables.add(new TableCodeLens(checks));
  disposables.push(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.workspace.registerTextDocumentContentProvider(SHEET_VIEW_SCHEME, sheets),
    vscode.languages.registerCodeLensProvider(TABLE_FILES, codeLens),
    vscode.languages.registerHoverProvider(TABLE_FILES, new TableHovers(checks)),
  );
  return { checks, previews, sheets };
}
