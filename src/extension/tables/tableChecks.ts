// Tables with a mapping in the editor (trees.csv beside trees.mapping.json): every row checked as
// the import will check it (the core's checkRows, the command line's messages), each problem on
// its cell in the Problems panel; the mapping file checked as it is typed (the table's columns,
// the topic's fields, the media folders). Checks run after a pause in typing, on the buffer as it
// stands (an unsaved table is checked from a copy), and load the rows bundle only when a table
// with a mapping is opened. What a check found of the rows (how many, where each starts) is kept
// for the CodeLens, hovers and previews. A workbook is not text: its problems go on its view (Show
// Rows, `spot-rows:`) while one is open, and on the workbook's file otherwise.
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { mappingPathFor, tableCandidatesFor } from '../../core/rows/mapping/mappingPath';
import type { TopicCatalogSource } from '../documents/spotDiagnostics';
import { DisposableStore } from '../platform/lifecycle';
import { loadRows, type RowsModule } from '../platform/lazyRows';
import type { Logger } from '../platform/services';
import { readSettings } from '../platform/settings';
import { isSheetView, openViewsOf, sheetOf, tableFileOf } from './sheetViewUri';
import { cellRange, diagnosticAt, offsetRange } from './tableRanges';
import { isMappingUri, isTableUri } from './tableUris';

const DEBOUNCE_MS = 500;
/** A table checked while typing reports at most this many problems (a broken column would flood the panel). */
const MAX_DIAGNOSTICS = 2_000;

export interface TableState {
  mapping: vscode.Uri;
  /** Rows checked, and how many would not be imported. */
  rows: number;
  invalid: number;
  /** The first line of each row whose latitude and longitude look swapped (rowLooksSwapped), past the cap on diagnostics: the quick fix's rows. */
  swappedRowLines: Set<number>;
  /** The line (1-based) each row starts on, in order: a line's row is the last start at or before it. */
  rowLines: number[];
  /** The mapping has errors: the rows were not checked. */
  mappingBroken: boolean;
  /** CSV/TSV: the delimiter, so a cell's range ends where the cell does. */
  delimiter?: string;
}

/** A table opened with its mapping (TableChecks.open): dispose of `copy` when done. */
export interface OpenedTable {
  mapped: import('../../core/rows').MappedTable;
  rows: RowsModule;
  topics: import('../../core').TopicCatalog | undefined;
  copy: { path: string; dispose(): Promise<void> };
}

/** A row of a table, checked as the import will send it. */
export interface RowAt {
  checked: import('../../core/rows').CheckedRow;
  row: import('../../core/rows').SourceRow;
  rows: RowsModule;
  topics: import('../../core').TopicCatalog | undefined;
}

export class TableChecks implements vscode.Disposable {
  private readonly disposables = new DisposableStore();
  private readonly collection = this.disposables.add(vscode.languages.createDiagnosticCollection('spotImport.tables'));
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly states = new Map<string, TableState>();
  private readonly running = new Map<string, AbortController>();
  private readonly changed = this.disposables.add(new vscode.EventEmitter<vscode.Uri>());
  /** A table's check finished (the CodeLens counts its rows). */
  readonly onDidCheck = this.changed.event;

  constructor(
    private readonly log: Logger,
    private readonly topics: TopicCatalogSource,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((document) => this.follow(document.uri, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.follow(event.document.uri, DEBOUNCE_MS);
      }),
      vscode.workspace.onDidSaveTextDocument((document) => this.follow(document.uri, 0)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
      topics.onDidChange(() => this.recheckOpen()),
    );
    for (const document of vscode.workspace.textDocuments) this.follow(document.uri, 0);
  }

  state(table: vscode.Uri): TableState | undefined {
    return this.states.get(table.toString());
  }

  /**
   * The row a line of the table belongs to, checked as the import will send it (its document, its
   * cells, its problems): the table is read again up to it, so nothing of the rows is kept between checks.
   */
  async rowAt(table: vscode.Uri, line: number): Promise<RowAt | undefined> {
    const state = this.state(table);
    if (!state || state.mappingBroken) return undefined;
    const index = lastAtOrBefore(state.rowLines, line);
    if (index < 0) return undefined;
    const start = state.rowLines[index];
    const opened = await this.open(table, state.mapping);
    if (!opened) return undefined;
    const { mapped, rows, topics, copy } = opened;
    try {
      const mapping = mapped.mapping;
      if (!mapping) return undefined;
      for await (const read of mapped.table.rows()) {
        if ('problem' in read || read.line < start) continue;
        if (read.line > start) break;
        const checked = await rows.checkRow(tableFileOf(table).fsPath, read, mapping, { topics });
        return { checked, row: read, rows, topics };
      }
      return undefined;
    } finally {
      await copy.dispose();
    }
  }

  /** Checks a table now (Import Table Rows as Spots, a test), after the pending pause if any. */
  async checkNow(table: vscode.Uri): Promise<TableState | undefined> {
    clearTimeout(this.timers.get(table.toString()));
    this.timers.delete(table.toString());
    await this.check(table);
    return this.state(table);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const run of this.running.values()) run.abort();
    void this.disposables.dispose();
  }

  /** A table with a mapping, or a mapping: its table (a workbook's open views instead) is checked again after the pause. */
  private follow(uri: vscode.Uri, delayMs: number): void {
    if (isMappingUri(uri)) {
      void this.tableOf(uri).then((table) => {
        const views = table ? openViewsOf(table) : [];
        for (const each of views.length > 0 ? views : [table ?? uri]) this.schedule(each, delayMs);
      });
    } else if (isTableUri(uri)) {
      this.schedule(uri, delayMs);
    }
  }

  private schedule(uri: vscode.Uri, delayMs: number): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.check(uri).catch((error: unknown) => this.log.warn('tables', `could not check ${uri.toString(true)}`, error));
      }, delayMs),
    );
  }

  private recheckOpen(): void {
    for (const document of vscode.workspace.textDocuments) this.follow(document.uri, DEBOUNCE_MS);
  }

  private forget(uri: vscode.Uri): void {
    if (!isTableUri(uri) || vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString())) return;
    this.collection.delete(uri);
  }

  /** The table a mapping file is for: the first that exists of trees.csv, trees.geojson, … */
  private async tableOf(mapping: vscode.Uri): Promise<vscode.Uri | undefined> {
    for (const candidate of tableCandidatesFor(mapping.fsPath)) {
      if (
        await fs.stat(candidate).then(
          (stats) => stats.isFile(),
          () => false,
        )
      )
        return vscode.Uri.file(candidate);
    }
    return undefined;
  }

  /** `uri`: a table, or a mapping whose table is not there (its own problems only). */
  private async check(uri: vscode.Uri): Promise<void> {
    const mappingUri = isMappingUri(uri) ? uri : vscode.Uri.file(mappingPathFor(tableFileOf(uri).fsPath));
    const mappingText = await textOf(mappingUri);
    if (mappingText === undefined) {
      // No mapping: a plain table, nothing to say on it.
      this.collection.delete(uri);
      if (this.states.delete(uri.toString())) this.changed.fire(uri);
      return;
    }
    const rows = await loadRows();
    if (!isTableUri(uri)) {
      const parsed = rows.parseMapping(mappingUri.fsPath, mappingText);
      this.publishMapping(mappingUri, mappingText, parsed.problems);
      return;
    }
    // A newer check of the table (more typing) stops this one: only the latest is published.
    this.running.get(uri.toString())?.abort();
    const run = new AbortController();
    this.running.set(uri.toString(), run);
    let opened: OpenedTable | undefined;
    try {
      opened = await this.open(uri, mappingUri, mappingText);
    } catch (error) {
      if (!(error instanceof rows.TableReadError) || run.signal.aborted) throw error;
      // Not a table at all (empty, not CSV, unreadable header): said on the table, at its place.
      this.states.delete(uri.toString());
      this.publishTable(uri, [diagnosticAt(cellRange(uri, error.position?.line ?? 1, error.position?.column ?? 1), error.reason, 'error', 'table.unreadable')]);
      this.changed.fire(uri);
      return;
    }
    if (!opened) return;
    const { mapped, topics, copy } = opened;
    try {
      const otherSheet = isSheetView(uri) && mapped.mapping && mapped.table.format.sheet !== sheetOf(uri) ? mapped.table.format.sheet : undefined;
      if (otherSheet !== undefined) {
        // The mapping now reads another sheet than the view shows: its cells would land on the wrong rows.
        const message = vscode.l10n.t(
          'This view shows sheet "{0}", and the mapping reads sheet "{1}": run Show Rows again to see the rows it imports.',
          sheetOf(uri),
          String(otherSheet),
        );
        this.states.delete(uri.toString());
        this.publishMapping(mappingUri, mappingText, mapped.problems);
        this.publish(uri, [diagnosticAt(new vscode.Range(0, 0, 0, 0), message, 'warning', 'table.sheet')]);
        this.changed.fire(uri);
        return;
      }
      const state: TableState = {
        mapping: mappingUri,
        rows: 0,
        invalid: 0,
        swappedRowLines: new Set(),
        rowLines: [],
        mappingBroken: !mapped.mapping,
        delimiter: mapped.table.format.delimiter,
      };
      const diagnostics: vscode.Diagnostic[] = [];
      if (mapped.mapping) {
        const acceptedTypes = readSettings(tableFileOf(uri)).mediaAcceptedTypes;
        try {
          // A workbook's problems (or a shapefile's) say their cell (Trees!D3): the file is not text to show them on.
          const nameCell = rows.cellNamer(mapped.table.format);
          for await (const checked of rows.checkRows(mapped.table, mapped.mapping, { topics, ...(acceptedTypes ? { acceptedTypes } : {}) }, run.signal)) {
            state.rows++;
            if (checked.row !== undefined) state.rowLines.push(checked.line);
            if (!checked.ok) state.invalid++;
            if (rows.rowLooksSwapped(checked, topics)) state.swappedRowLines.add(checked.line);
            for (const finding of checked.findings) {
              if (diagnostics.length >= MAX_DIAGNOSTICS) break;
              diagnostics.push(
                diagnosticAt(
                  cellRange(uri, finding.line, finding.column, mapped.table.format.delimiter),
                  nameCell ? `${nameCell(finding)}: ${finding.message}` : finding.message,
                  finding.severity,
                  finding.rule,
                  finding.file,
                ),
              );
            }
          }
        } catch (error) {
          if (run.signal.aborted) return;
          throw error;
        }
      }
      if (run.signal.aborted) return;
      this.publishMapping(mappingUri, mappingText, mapped.problems);
      this.states.set(uri.toString(), state);
      this.publishTable(uri, diagnostics);
      this.changed.fire(uri);
    } finally {
      if (this.running.get(uri.toString()) === run) this.running.delete(uri.toString());
      await copy.dispose();
    }
  }

  /**
   * The table as it stands (an unsaved buffer from a copy) with its mapping as it stands, opened
   * and checked by the core (openMappedTable); undefined when the mapping is gone. The caller
   * disposes of the copy.
   */
  async open(
    table: vscode.Uri,
    mappingUri = vscode.Uri.file(mappingPathFor(tableFileOf(table).fsPath)),
    mappingText?: string,
  ): Promise<OpenedTable | undefined> {
    const text = mappingText ?? (await textOf(mappingUri));
    if (text === undefined) return undefined;
    const rows = await loadRows();
    const parsed = rows.parseMapping(mappingUri.fsPath, text);
    const file = tableFileOf(table);
    const topics = await this.topics.catalogFor(file).catch(() => undefined);
    const copy = await this.readable(file);
    try {
      const mapped = await rows.openMappedTable(copy.path, parsed, {
        topics,
        ...(copy.encoding ? { encoding: copy.encoding } : {}),
        sourceName: basename(file.fsPath),
      });
      return { mapped, rows, topics, copy };
    } catch (error) {
      await copy.dispose();
      throw error;
    }
  }

  /** The table as it stands: its file, or a copy of its unsaved buffer (written as UTF-8, and read so). */
  private async readable(uri: vscode.Uri): Promise<{ path: string; encoding?: 'utf-8'; dispose(): Promise<void> }> {
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    if (!open?.isDirty) return { path: uri.fsPath, dispose: async () => undefined };
    const folder = await fs.mkdtemp(join(tmpdir(), 'spot-table-'));
    const path = join(folder, basename(uri.fsPath));
    await fs.writeFile(path, open.getText(), 'utf8');
    return { path, encoding: 'utf-8', dispose: () => fs.rm(folder, { recursive: true, force: true }) };
  }

  private publishMapping(mapping: vscode.Uri, text: string, problems: readonly import('../../core/rows').MappingProblem[]): void {
    this.publish(
      mapping,
      problems.map((problem) => diagnosticAt(offsetRange(text, problem.offset, problem.length), problem.message, problem.severity, problem.rule)),
    );
  }

  /** A table's problems: a workbook's on its open view only (the same problems twice would be noise), a view's never on its file too. */
  private publishTable(uri: vscode.Uri, diagnostics: vscode.Diagnostic[]): void {
    if (isSheetView(uri)) this.collection.delete(tableFileOf(uri));
    else if (openViewsOf(uri).length > 0) diagnostics = [];
    this.publish(uri, diagnostics);
  }

  private publish(uri: vscode.Uri, diagnostics: vscode.Diagnostic[]): void {
    if (diagnostics.length === 0) this.collection.delete(uri);
    else this.collection.set(uri, diagnostics);
  }
}

/** The index of the last entry at or before `value` in an ascending list, -1 when none is. */
export function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] <= value) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** A file's text: the open editor's (unsaved edits included), else the file's; undefined when there is none. */
export async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open) return open.getText();
  return fs.readFile(uri.fsPath, 'utf8').then(
    (text) => text.replace(/^\uFEFF/, ''),
    () => undefined,
  );
}
