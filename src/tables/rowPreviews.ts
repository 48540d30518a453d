// The spot document a row stands for, shown read-only (Preview Spots): exactly the text the import
// sends, in a virtual document of its own (`spot-preview:`), so it can be read, searched and
// compared, never saved by mistake over anything.
import * as vscode from 'vscode';

export const PREVIEW_SCHEME = 'spot-preview';

export class RowPreviews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Shows `text` as the preview of `name` (e.g. "trees.csv row 3"), beside the table. */
  async show(name: string, text: string): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name.replace(/[\\/]/g, '_')}.spot.json` });
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
