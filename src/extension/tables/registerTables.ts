// Tables with a mapping in the editor (issue 21): problems on the cells while typing, a CodeLens
// (Import N rows as spots, Preview spot of this row, Create Mapping), hovers that say what a cell
// becomes, and the read-only previews of rows' spot documents. A workbook is not text: Show Rows
// opens its sheet as a read-only CSV view (`spot-rows:`), where all of this works as on a CSV.
// Activation registers stand-ins only: a JSON file activates us far more often than a table is
// opened. The features' code (checks, CodeLens, hovers, previews, sheet views) is in
// dist/features.js, built (buildTables.ts) when the first table or mapping is open, when VS Code
// first asks a stand-in, or when a command needs it; the rows bundle loads when a check runs.
import * as vscode from 'vscode';
import type { TopicCatalogSource } from '../documents/spotDiagnostics';
import { buildOnFirstNeed } from '../platform/lazyFeatures';
import { DisposableStore } from '../platform/lifecycle';
import type { Logger } from '../platform/services';
import { PREVIEW_SCHEME, type RowPreviews } from './rowPreviews';
import { SHEET_VIEW_SCHEME } from './sheetViewUri';
import type { SheetViews } from './sheetViews';
import type { TableChecks } from './tableChecks';
import type { TableCodeLens } from './tableCodeLens';
import type { TableHovers } from './tableHovers';
import { isMappingUri, isTableUri, TABLE_FILES } from './tableUris';

/** What the row commands use: the checks of open tables, the previews of rows, and the views of workbooks. */
interface Tables {
  readonly checks: TableChecks;
  readonly previews: RowPreviews;
  readonly sheets: SheetViews;
}

/** The built features: what the commands use, and what answers for the CodeLens and hover stand-ins. */
export interface TableParts extends Tables {
  readonly codeLens: TableCodeLens;
  readonly hovers: TableHovers;
}

/** What the tables take from dist/features.js (see lazyFeatures.ts). */
export interface TablesFeatures {
  buildTables(disposables: DisposableStore, log: Logger, topics: TopicCatalogSource): TableParts;
}

/** The registered stand-ins; ready() builds the features once, on first need. */
export interface LazyTables {
  ready(): Promise<Tables>;
}

export function registerTables(disposables: DisposableStore, log: Logger, topics: TopicCatalogSource): LazyTables {
  // Added before the registrations below: the store disposes in reverse, so they go first.
  const partsStore = disposables.add(new DisposableStore());
  const codeLensesChanged = new vscode.EventEmitter<void>();
  const previewChanged = new vscode.EventEmitter<vscode.Uri>();
  const sheetChanged = new vscode.EventEmitter<vscode.Uri>();
  const ready = buildOnFirstNeed<TablesFeatures, TableParts>(
    ({ buildTables }) => {
      const parts = buildTables(partsStore, log, topics);
      partsStore.push(
        parts.codeLens.onDidChangeCodeLenses(() => codeLensesChanged.fire()),
        parts.previews.onDidChange((uri) => previewChanged.fire(uri)),
        parts.sheets.onDidChange((uri) => sheetChanged.fire(uri)),
      );
      // The checks follow every document from here on.
      opened.dispose();
      return parts;
    },
    (error) => log.error('tables', "the tables' editor features could not be built", error),
  );
  /** A table or mapping is open: its checks start (a failure is logged; the next one tries again). */
  const buildFor = (uri: vscode.Uri): void => {
    if (isTableUri(uri) || isMappingUri(uri)) ready().catch(() => undefined);
  };
  const opened = vscode.workspace.onDidOpenTextDocument((document) => buildFor(document.uri));
  for (const document of vscode.workspace.textDocuments) buildFor(document.uri);

  const previews: vscode.TextDocumentContentProvider = {
    onDidChange: previewChanged.event,
    provideTextDocumentContent: async (uri) => (await ready()).previews.provideTextDocumentContent(uri),
  };
  const sheets: vscode.TextDocumentContentProvider = {
    onDidChange: sheetChanged.event,
    provideTextDocumentContent: async (uri, token) => (await ready()).sheets.provideTextDocumentContent(uri, token),
  };
  const codeLens: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: codeLensesChanged.event,
    provideCodeLenses: async (document) => (isTableUri(document.uri) ? (await ready()).codeLens.provideCodeLenses(document) : []),
  };
  const hovers: vscode.HoverProvider = {
    provideHover: async (document, position, token) => (isTableUri(document.uri) ? (await ready()).hovers.provideHover(document, position, token) : undefined),
  };
  disposables.push(
    opened,
    codeLensesChanged,
    previewChanged,
    sheetChanged,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.workspace.registerTextDocumentContentProvider(SHEET_VIEW_SCHEME, sheets),
    vscode.languages.registerCodeLensProvider(TABLE_FILES, codeLens),
    vscode.languages.registerHoverProvider(TABLE_FILES, hovers),
  );
  return { ready };
}
