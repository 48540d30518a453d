// Virtual workspaces (a folder opened from GitHub or another remote file system, no files on
// this machine's disk). Checking and assisting the documents open in the editor works there, as
// they are read through the editor; the commands that walk folders, read media folders or stream
// tables from disk do not, and say so rather than fail on a path that does not exist.
// package.json's capabilities.virtualWorkspaces describes the same to VS Code.
import * as vscode from 'vscode';
import { COMMAND } from './commandIds';
import { ActionableError } from './errors';

/** Each command that needs files on disk, with what it says in a virtual workspace (made when it is said). */
const NEEDS_DISK: ReadonlyMap<string, () => string> = new Map([
  [
    COMMAND.importFolder,
    () =>
      vscode.l10n.t(
        "Import Folder needs the folder on this machine's disk, and this window's folder is virtual. Clone or download it and open it from disk to use Import Folder.",
      ),
  ],
  [
    COMMAND.importSpotWithMedia,
    () =>
      vscode.l10n.t(
        "Import Spot with Media needs the folder on this machine's disk, and this window's folder is virtual. Clone or download it and open it from disk to use Import Spot with Media.",
      ),
  ],
  [
    COMMAND.importRows,
    () =>
      vscode.l10n.t(
        "Import Table Rows as Spots needs the folder on this machine's disk, and this window's folder is virtual. Clone or download it and open it from disk to use Import Table Rows as Spots.",
      ),
  ],
]);

/** Whether every folder of the window is virtual (none is on disk). */
export function isVirtualWorkspace(): boolean {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.length > 0 && folders.every((folder) => folder.uri.scheme !== 'file');
}

/** Throws when a command that needs files on disk runs in a virtual workspace. */
export function requireDiskFor(commandId: string): void {
  const message = NEEDS_DISK.get(commandId);
  if (message && isVirtualWorkspace()) throw new ActionableError(message());
}
