// The text of Show Rows' views (`spot-rows:`): a workbook's sheet as CSV lines, read by the core
// (rows.sheetText) when a view opens and again whenever the workbook changes on disk, so the view,
// its problems and hovers follow the file as Excel or LibreOffice save it.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { SheetText } from '../../core/rows';
import { isCancellation, toAbortSignal } from '../platform/cancellation';
import { describeError } from '../platform/errors';
import { loadRows } from '../platform/lazyRows';
import type { Logger } from '../platform/services';
import { isSheetView, openViewsOf, sheetOf, sheetViewUri, tableFileOf } from './sheetViewUri';

/** A save writes the file in steps (Excel: a temporary file, then a rename): read it once they are done. */
const SETTLE_MS = 300;

export class SheetViews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** Text read by Show Rows under its own progress, for the view it opens next: taken once. */
  private readonly ready = new Map<string, string>();
  /** One watcher for each workbook with a view, and its pending refresh. */
  private readonly watchers = new Map<string, { watcher: vscode.FileSystemWatcher; timer?: NodeJS.Timeout }>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly log: Logger) {
    this.subscriptions = [
      this.changed,
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (isSheetView(document.uri)) this.unwatchUnused(tableFileOf(document.uri), document.uri);
      }),
    ];
  }

  /**
   * Reads a sheet of `workbook` (`sheet` by name or place, the first by default) for the view Show
   * Rows opens: the view's address names the sheet read. Throws what the core throws (TableReadError).
   */
  async read(
    workbook: vscode.Uri,
    sheet: string | number | undefined,
    signal: AbortSignal,
    onProgress: (row: number) => void,
  ): Promise<{ view: vscode.Uri; sheet: SheetText }> {
    const rows = await loadRows();
    const read = await rows.sheetText(workbook.fsPath, { sheet, signal, onProgress });
    const view = sheetViewUri(workbook, read.sheet);
    this.ready.set(view.toString(), read.text);
    this.watch(workbook);
    // A view of it already open shows the rows just read.
    if (openViewsOf(workbook).some((open) => open.toString() === view.toString())) this.changed.fire(view);
    return { view, sheet: read };
  }

  async provideTextDocumentContent(view: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const key = view.toString();
    const ready = this.ready.get(key);
    if (ready !== undefined) {
      this.ready.delete(key);
      return ready;
    }
    // The workbook changed, or the view came back with the window: read it again, with the status bar saying so.
    const workbook = tableFileOf(view);
    this.watch(workbook);
    const name = vscode.workspace.asRelativePath(workbook, false);
    const shown = vscode.workspace.textDocuments.find((document) => document.uri.toString() === key)?.getText();
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading the rows of {0}', name) }, async () => {
      const abort = toAbortSignal(token);
      try {
        const rows = await loadRows();
        const read = await rows.sheetText(workbook.fsPath, { sheet: sheetOf(view), signal: abort.signal });
        if (read.unreadable) this.log.warn('rows', `${name}: ${read.unreadable}`);
        return read.text;
      } catch (error) {
        if (isCancellation(error)) return shown ?? '';
        this.log.warn('rows', `could not read ${name} again`, error);
        const reason = error instanceof (await loadRows()).TableReadError ? error.reason : describeError(error);
        void vscode.window.showWarningMessage(
          shown === undefined
            ? vscode.l10n.t(
                '{0} cannot be shown as rows: {1}. Open it in Excel or LibreOffice, save it again as an Excel workbook (.xlsx), then run Show Rows again.',
                name,
                reason,
              )
            : vscode.l10n.t(
                '{0} could not be read again ({1}): the view shows its rows as they were. Once the workbook is saved whole, run Show Rows again.',
                name,
                reason,
              ),
        );
        return shown ?? '';
      } finally {
        abort.dispose();
      }
    });
  }

  dispose(): void {
    for (const { watcher, timer } of this.watchers.values()) {
      clearTimeout(timer);
      watcher.dispose();
    }
    this.watchers.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  /** Watches the workbook (in the workspace or not) while a view of it is open. */
  private watch(workbook: vscode.Uri): void {
    const key = workbook.toString();
    if (this.watchers.has(key)) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(workbook, '..'), basename(workbook.path)));
    const entry: { watcher: vscode.FileSystemWatcher; timer?: NodeJS.Timeout } = { watcher };
    const refresh = () => {
      clearTimeout(entry.timer);
      entry.timer = setTimeout(() => {
        for (const view of openViewsOf(workbook)) this.changed.fire(view);
      }, SETTLE_MS);
    };
    watcher.onDidChange(refresh);
    watcher.onDidCreate(refresh);
    this.watchers.set(key, entry);
  }

  /** `closed`: the view closing now (it may still be among the open documents). */
  private unwatchUnused(workbook: vscode.Uri, closed: vscode.Uri): void {
    const key = workbook.toString();
    const entry = this.watchers.get(key);
    if (!entry || openViewsOf(workbook).some((view) => view.toString() !== closed.toString())) return;
    clearTimeout(entry.timer);
    entry.watcher.dispose();
    this.watchers.delete(key);
  }
}
