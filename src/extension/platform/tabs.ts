// Whether an editor tab still shows a document. VS Code may keep a document loaded for minutes
// after its last tab closed, so what the user sees is judged by the tabs, not by the documents.
import * as vscode from 'vscode';

/** True while any tab in any group shows `uri` in a text editor. */
export function isShownInTab(uri: vscode.Uri): boolean {
  const address = uri.toString();
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === address),
  );
}
