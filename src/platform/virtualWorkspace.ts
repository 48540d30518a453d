// Virtual workspaces (a folder opened from GitHub or another remote file system, no files on
// this machine's disk). Checking and assisting the documents open in the editor works there, as
// they are read through the editor; the commands that walk folders, read media folders or stream
// tables from disk do not, and say so rather than fail on a path that does not exist.
// package.json's capabilities.virtualWorkspaces describes the same to VS Code.
import * as vscode from 'vscode';
import { COMMAND } from './commandIds';
import { ActionableError } from './errors';

/** What each command that needs files on disk does, as its message names it. */
const NEEDS_DISK: ReadonlyMap<string, string> = new Map([
  [COMMAND.importFolder, 'Import Folder'],
  [COMMAND.importSpotWithMedia, 'Import Spot with Media'],
  [COMMAND.importRows, 'Import Rows as Spots'],
]);

/** Whether every folder of the window is virtual (none is on disk). */
export function isVirtualWorkspace(): boolean {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.length > 0 && folders.every((folder) => folder.uri.scheme !== 'file');
}

/** Throws when a command that needs files on disk runs in a virtual workspace. */
export function requireDiskFor(commandId: string): void {
  const what = NEEDS_DISK.get(commandId);
  if (what && isVirtualWorkspace()) {
    throw new ActionableError(`${what} needs the folder on this machine's disk, and this window's folder is virtual. Clone or download it and open it from disk to use ${what}.`);
  }
}
