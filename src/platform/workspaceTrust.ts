// Restricted Mode (an untrusted folder), in one place. A folder someone cloned must not make the
// extension send anything on its own say: its documents, tables and media are not imported or
// uploaded, and the local sandbox (code of ours that listens on a port and writes files) is not
// started. Validation, topic assistance, previews, the Galleries view of a remote profile and the
// map keep working. package.json's capabilities.untrustedWorkspaces lists the settings a folder
// cannot set there (restrictedConfigurations): VS Code then reads only the user's values.
import * as vscode from 'vscode';
import { BUILT_IN_COMMAND, COMMAND } from './commandIds';
import { ActionableError } from './errors';

/** What each command that needs a trusted folder does, as its message names it. */
const NEEDS_TRUST: ReadonlyMap<string, string> = new Map([
  [COMMAND.importSpot, 'Import Spot'],
  [COMMAND.importSpotWithMedia, 'Import Spot with Media'],
  [COMMAND.importFolder, 'Import Folder'],
  [COMMAND.importRows, 'Import Rows as Spots'],
  [COMMAND.importExample, 'Importing the example'],
  [COMMAND.markSpotActive, 'Mark Spot Active'],
  [COMMAND.uploadToGallery, 'Uploading media'],
  [COMMAND.uploadToGalleryNode, 'Uploading media'],
]);

/** Whether a command is off in Restricted Mode (for tests and the manifest check). */
export function needsTrust(commandId: string): boolean {
  return NEEDS_TRUST.has(commandId);
}

/** The error a restricted action ends with: what is off, why, and the button that turns it on. */
export function restrictedModeError(what: string): ActionableError {
  return new ActionableError(
    `${what} is off in Restricted Mode: this folder is not trusted. Trust the folder to turn it on.`,
    [{ title: 'Manage Workspace Trust', command: BUILT_IN_COMMAND.manageWorkspaceTrust }],
    'warning',
  );
}

/** Throws the Restricted Mode error when the folder is not trusted. */
export function requireTrust(what: string): void {
  if (!vscode.workspace.isTrusted) throw restrictedModeError(what);
}

/** Throws the Restricted Mode error for a command that needs a trusted folder, when it is not. */
export function requireTrustFor(commandId: string): void {
  const what = NEEDS_TRUST.get(commandId);
  if (what) requireTrust(what);
}
