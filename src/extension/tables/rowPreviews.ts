// The spot document a row stands for, shown read-only (Preview Spots): exactly the text the import
// sends, in a virtual document of its own (`spot-preview:`), so it can be read, searched and
// compared, never saved by mistake over anything.
import * as vscode from 'vscode';
import { PREVIEW_SCHEME } from './tableUris';

export class RowPreviews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /**
   * Shows `text` as the preview of a row of `table` (its path as the workspace names it, e.g.
   * "survey/trees.csv"), beside the table: the tab reads "trees.csv row 3 (spot).json", and tables
   * of one name in two folders keep their previews apart. Not "….spot.json": the spot document
   * schema VS Code's JSON service gives those would warn of the gallery a row leaves pending,
   * which the import itself sends in state 2 first.
   */
  async show(table: string, row: number | string, text: string): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${table.replace(/\\/g, '/').replace(/^\/+/, '')} row ${row} (spot).json` });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(document, 'json');
    return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}
