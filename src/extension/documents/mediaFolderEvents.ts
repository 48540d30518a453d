// Changes of the media folders (`<name>.media/`) of the spot documents open in the editor, owned
// by the extension's lifecycle (registerDocuments.ts creates it and disposes it) and shared: the
// CodeLens counts the files, the diagnostics check them. A change of any kind counts, edits
// included (a file replaced by one of another type).
//
// Each followed folder is watched directly (fs.watch, one level each: the document's folder for
// the media folder's own creation, the media folder, its gallery folders), not through VS Code's
// workspace watcher: that one missed most changes below a folder made moments before, and sees
// nothing outside the workspace. A direct watch is in place when `follow` returns, so a listing
// made after it sees every change the watch does not.
import { watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import * as vscode from 'vscode';

export class MediaFolderEvents implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Per document (its URI), the folders watched for it. */
  private readonly followed = new Map<string, Map<string, FSWatcher>>();

  /** Calls `listener` with each file or folder created, changed or removed in a followed media folder. */
  onChange(listener: (uri: vscode.Uri) => void): vscode.Disposable {
    return this.changed.event(listener);
  }

  /**
   * Watches `mediaFolder` (the media folder of the file document `document`) until `unfollow` (the
   * diagnostics call it when the document's tab or the document closes): list the folder after this
   * returns and no change is missed. A folder that cannot be watched (gone, or the system's watch
   * limit reached) is simply not followed.
   */
  async follow(document: vscode.Uri, mediaFolder: string): Promise<void> {
    const key = document.toString();
    const watchers = this.followed.get(key) ?? new Map<string, FSWatcher>();
    this.followed.set(key, watchers);
    this.watchFolder(watchers, dirname(mediaFolder), basename(mediaFolder));
    if (!this.watchFolder(watchers, mediaFolder)) return;
    for (const name of await this.subfolders(mediaFolder)) {
      // The document may have closed while the folder was read.
      if (this.followed.get(key) !== watchers) return;
      this.watchFolder(watchers, join(mediaFolder, name));
    }
  }

  /** The folders watched for a document (for tests). */
  watchedFor(document: vscode.Uri): string[] {
    return [...(this.followed.get(document.toString())?.keys() ?? [])].sort();
  }

  unfollow(document: vscode.Uri): void {
    const watchers = this.followed.get(document.toString());
    if (!watchers) return;
    for (const watcher of watchers.values()) watcher.close();
    this.followed.delete(document.toString());
  }

  dispose(): void {
    for (const watchers of this.followed.values()) for (const watcher of watchers.values()) watcher.close();
    this.followed.clear();
    this.changed.dispose();
  }

  /** Whether `folder` is watched (already, or now); `onlyName`: report only changes of that entry. */
  private watchFolder(watchers: Map<string, FSWatcher>, folder: string, onlyName?: string): boolean {
    if (watchers.has(folder)) return true;
    try {
      const watcher = watch(folder, { persistent: false }, (event, name) => {
        const entry = name ? join(folder, name.toString()) : folder;
        // An entry made, removed or replaced: a watch of it (and below it) is watched again by the next follow.
        if (event === 'rename' && entry !== folder) forget(watchers, entry);
        if (onlyName === undefined || name === onlyName) this.changed.fire(vscode.Uri.file(entry));
      });
      watcher.on('error', () => forget(watchers, folder));
      watchers.set(folder, watcher);
      return true;
    } catch {
      return false;
    }
  }

  private async subfolders(folder: string): Promise<string[]> {
    try {
      return (await readdir(folder, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch {
      return [];
    }
  }
}

/** Closes the watches of `folder` and of the folders below it. */
function forget(watchers: Map<string, FSWatcher>, folder: string): void {
  for (const [watched, watcher] of watchers) {
    if (watched !== folder && !watched.startsWith(folder + sep)) continue;
    watcher.close();
    watchers.delete(watched);
  }
}
