// When documents need checking again, for every checker that shows problems while the user
// writes: on open, on change (debounced), and when an editor shows one again; and when to drop
// its problems: on close, or when its last tab closes (a document may stay loaded long after).
import * as vscode from 'vscode';
import { isShownInTab } from '../platform/tabs';

export interface DocumentChecker {
  schedule(document: vscode.TextDocument, delayMs: number): void;
  clear(uri: vscode.Uri): void;
}

export function followDocuments(checker: DocumentChecker, debounceMs: number): vscode.Disposable[] {
  return [
    vscode.workspace.onDidOpenTextDocument((document) => checker.schedule(document, 0)),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0) checker.schedule(event.document, debounceMs);
    }),
    vscode.workspace.onDidCloseTextDocument((document) => checker.clear(document.uri)),
    // The document may stay loaded long after its editor closed; the user sees the tab close.
    vscode.window.tabGroups.onDidChangeTabs((event) => {
      for (const tab of event.closed) {
        const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
        if (uri && !isShownInTab(uri)) checker.clear(uri);
      }
    }),
    // A document reopened in a tab may never have been unloaded, so no open event comes.
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      for (const editor of editors) checker.schedule(editor.document, 0);
    }),
  ];
}
