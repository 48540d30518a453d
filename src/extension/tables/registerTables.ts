// Tables with a mapping in the editor (issue 21): problems on the cells while typing, a CodeLens
// (Import N rows as spots, Preview spot of this row, Create Mapping), hovers that say what a cell
// becomes, a quick fix for swapped coordinates, and the read-only previews of rows' spot documents. A workbook is not text: Show Rows
// opens its sheet as a read-only CSV view (`spot-rows:`), where all of this works as on a CSV.
// Activation registers stand-ins only: a JSON file activates us far more often than a table is
// opened. The features' code (checks, CodeLens, hovers, previews, sheet views) is in
// dist/features.js, built (buildTables.ts) when the first table or mapping is open, when VS Code
// first asks a stand-in, or when a command needs it; the rows bundle loads when a check runs.
import * as vscode from 'vscode';
import type { TopicCatalogSource } from '../documents/spotDiagnostics';
import { BUILT_IN_COMMAND } from '../platform/commandIds';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';
import { buildOnFirstNeed } from '../platform/lazyFeatures';
import { DisposableStore } from '../platform/lifecycle';
import type { Logger } from '../platform/services';
import type { RowPreviews } from './rowPreviews';
import { SHEET_VIEW_SCHEME } from './sheetViewUri';
import type { SheetViews } from './sheetViews';
import type { TableChecks } from './tableChecks';
import type { TableCodeActions } from './tableCodeActions';
import type { TableCodeLens } from './tableCodeLens';
import type { TableHovers } from './tableHovers';
import { isMappingUri, isTableUri, PREVIEW_SCHEME, TABLE_FILES } from './tableUris';

/** True while the active editor's .json is a table by its content (package.json's menus ask it). */
const CONTEXT_IS_JSON_TABLE = 'spotImport.isJsonTable';

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
  readonly codeActions: TableCodeActions;
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
  // Menus of the active editor's .json when it is a table by its content (a GeoJSON layer saved as .json): its name cannot say so.
  const jsonTable = () => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const isTable = uri !== undefined && uri.scheme === 'file' && /\.json$/i.test(uri.path) && isTableUri(uri);
    void vscode.commands.executeCommand(BUILT_IN_COMMAND.setContext, CONTEXT_IS_JSON_TABLE, isTable);
  };
  jsonTable();
  disposables.push(
    vscode.window.onDidChangeActiveTextEditor(jsonTable),
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (document === vscode.window.activeTextEditor?.document) jsonTable();
    }),
  );
  /** Until the build: tables and mappings opened (the checks follow every document after it). */
  const opened = vscode.workspace.onDidOpenTextDocument((document) => buildFor(document.uri, 'opened'));
  let failedBefore = false;
  /** What first needed the features, for the log (a command's ready() leaves it unset). */
  let firstNeed: string | undefined;
  const build = buildOnFirstNeed<TablesFeatures, TableParts>(
    partsStore,
    ({ buildTables }, built) => {
      const parts = buildTables(built, log, topics);
      log.info('tables', `the tables' editor features are built (first needed by ${firstNeed ?? 'a command'})`);
      built.push(
        parts.codeLens.onDidChangeCodeLenses(() => codeLensesChanged.fire()),
        parts.previews.onDidChange((uri) => previewChanged.fire(uri)),
        parts.sheets.onDidChange((uri) => sheetChanged.fire(uri)),
      );
      // Tables asked for their CodeLens while a build failed showed none: VS Code asks again.
      if (failedBefore) codeLensesChanged.fire();
      opened.dispose();
      return parts;
    },
    (error) => {
      failedBefore = true;
      log.error('tables', "the tables' editor features could not be built", error);
    },
  );
  const ready = (need?: string) => {
    firstNeed ??= need;
    return build();
  };
  /** The parts, or none when they could not be built (logged): a CodeLens or hover then shows nothing. */
  const readyOrNone = (need: string): Promise<TableParts | undefined> => ready(need).catch(() => undefined);
  /** A table or mapping is open: its checks start (a failure is logged; the next one tries again). */
  function buildFor(uri: vscode.Uri, how: string): void {
    if (isTableUri(uri) || isMappingUri(uri)) void readyOrNone(`${uri.path.slice(uri.path.lastIndexOf('/') + 1)}, ${how}`);
  }
  // Tables open at activation (a CSV that activated us) after activate() has returned: loading
  // dist/features.js is not activation's work.
  const openAtActivation = setImmediate(() => {
    for (const document of vscode.workspace.textDocuments) buildFor(document.uri, 'open at activation');
  });

  const previews: vscode.TextDocumentContentProvider = {
    onDidChange: previewChanged.event,
    provideTextDocumentContent: async (uri) => (await ready('a row preview')).previews.provideTextDocumentContent(uri),
  };
  const sheets: vscode.TextDocumentContentProvider = {
    onDidChange: sheetChanged.event,
    provideTextDocumentContent: async (uri, token) => (await ready('a sheet view')).sheets.provideTextDocumentContent(uri, token),
  };
  // A table's CodeLens and hover only: TABLE_FILES names every .txt and .dat, which are tables only with a mapping beside them, and every .json, a table only by its content.
  const codeLens: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: codeLensesChanged.event,
    provideCodeLenses: async (document) => (isTableUri(document.uri) ? ((await readyOrNone('a CodeLens'))?.codeLens.provideCodeLenses(document) ?? []) : []),
  };
  const hovers: vscode.HoverProvider = {
    provideHover: async (document, position, token) =>
      isTableUri(document.uri) ? (await readyOrNone('a hover'))?.hovers.provideHover(document, position, token) : undefined,
  };
  // Quick fixes are asked for our own problems only, which exist once the features are built.
  const codeActions: vscode.CodeActionProvider = {
    provideCodeActions: async (document, _range, context) =>
      isTableUri(document.uri) && context.diagnostics.some((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE)
        ? ((await readyOrNone('a quick fix'))?.codeActions.provideCodeActions(document, context) ?? [])
        : [],
  };
  disposables.push(
    opened,
    { dispose: () => clearImmediate(openAtActivation) },
    codeLensesChanged,
    previewChanged,
    sheetChanged,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.workspace.registerTextDocumentContentProvider(SHEET_VIEW_SCHEME, sheets),
    vscode.languages.registerCodeLensProvider(TABLE_FILES, codeLens),
    vscode.languages.registerHoverProvider(TABLE_FILES, hovers),
    vscode.languages.registerCodeActionsProvider(TABLE_FILES, codeActions, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
  );
  return { ready: () => ready() };
}
