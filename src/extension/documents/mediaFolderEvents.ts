// One file watcher for every media folder (`<name>.media/`), owned by the extension's lifecycle
// (registerDocuments.ts creates it and disposes it), made the first time something needs it
// (ordinary JSON work never does) and shared: the CodeLens counts the files, the diagnostics check
// them. A change of any kind counts, edits included (a file replaced by one of another type).
import * as vscode from 'vscode';

export class MediaFolderEvents implements vscode.Disposable {
  private watcher?: vscode.FileSystemWatcher;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();

  /** Calls `listener` with each file created, changed or removed below a media folder. */
  onChange(listener: (uri: vscode.Uri) => void): vscode.Disposable {
    if (!this.watcher) {
      this.watcher = vscode.workspace.createFileSystemWatcher('**/*.media/**');
      this.watcher.onDidCreate((uri) => this.changed.fire(uri));
      this.watcher.onDidChange((uri) => this.changed.fire(uri));
      this.watcher.onDidDelete((uri) => this.changed.fire(uri));
    }
    return this.changed.event(listener);
  }

  /** Whether a watcher is running (made on first use). */
  get watching(): boolean {
    return this.watcher !== undefined;
  }

  dispose(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    this.changed.dispose();
  }
}
