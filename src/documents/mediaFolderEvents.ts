// One file watcher for every media folder (`<name>.media/`), made the first time something needs
// it (ordinary JSON work never does) and shared: the CodeLens counts the files, the diagnostics
// check them. A change of any kind counts, edits included (a file replaced by one of another type).
import * as vscode from 'vscode';

let watcher: vscode.FileSystemWatcher | undefined;
const changed = new vscode.EventEmitter<vscode.Uri>();
let users = 0;

/** Calls `listener` with each file created, changed or removed below a media folder. */
export function onMediaFolderChange(listener: (uri: vscode.Uri) => void): vscode.Disposable {
  if (!watcher) {
    watcher = vscode.workspace.createFileSystemWatcher('**/*.media/**');
    watcher.onDidCreate((uri) => changed.fire(uri));
    watcher.onDidChange((uri) => changed.fire(uri));
    watcher.onDidDelete((uri) => changed.fire(uri));
  }
  users++;
  const subscription = changed.event(listener);
  return new vscode.Disposable(() => {
    subscription.dispose();
    if (--users === 0) {
      watcher?.dispose();
      watcher = undefined;
    }
  });
}
