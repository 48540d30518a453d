// Restricted Mode (an untrusted folder), in one place. A folder someone cloned must not make the
// extension send anything on its own say: its documents, tables and media are not imported or
// uploaded, and the local sandbox (code of ours that listens on a port and writes files) is not
// started. Validation, topic assistance, previews, the Galleries view of a remote profile and the
// map keep working. package.json's capabilities.untrustedWorkspaces lists the settings a folder
// cannot set there (restrictedConfigurations): VS Code then reads only the user's values.
import * as vscode from 'vscode';
import { BUILT_IN_COMMAND, COMMAND } from './commandIds';
import { ActionableError } from './errors';

/**
 * Each command that needs a trusted folder, with what it says in Restricted Mode: the whole
 * sentence for each, in VS Code's display language, made when it is said.
 */
const NEEDS_TRUST: ReadonlyMap<string, () => string> = new Map([
  [COMMAND.importSpot, () => vscode.l10n.t('Import Spot is off in Restricted Mode: this folder is not trusted. Trust the folder to turn it on.')],
  [
    COMMAND.importSpotWithMedia,
    () => vscode.l10n.t('Import Spot with Media is off in Restricted Mode: this folder is not trusted. Trust the folder to turn it on.'),
  ],
  [COMMAND.importFolder, () => vscode.l10n.t('Import Folder is off in Restricted Mode: this folder is not trusted. Trust the folder to turn it on.')],
  [
    COMMAND.importRows,
    () => vscode.l10n.t('Import Table Rows as Spots is off in Restricted Mode: this folder is not trusted. Trust the folder to turn it on.'),
  ],
  [COMMAND.importExample, () => vscode.l10n.t('Importing the example is off in Restricted Mode: this folder is not trusted. Trust the folder to turn it on.')],
  [COMMAND.markSpotActive, () => vscode.l10n.t('Mark Spot Active is off in Restricted Mode: this folder is not trusted. Trust the folder to turn it on.')],
  [COMMAND.uploadToGallery, uploadingMediaIsOff],
  [COMMAND.uploadToGalleryNode, uploadingMediaIsOff],
]);

function uploadingMediaIsOff(): string {
  return vscode.l10n.t('Uploading media is off in Restricted Mode: this folder is not trusted. Trust the folder to turn it on.');
}

/** What the local sandbox says when it is not started in Restricted Mode. */
export function sandboxIsOff(): string {
  return vscode.l10n.t('The local sandbox is off in Restricted Mode: this folder is not trusted. Trust the folder to turn it on.');
}

/**
 * The error a restricted action ends with: `message` says what is off and why (one of the
 * sentences above), and the button turns it on.
 */
function restrictedModeError(message: string): ActionableError {
  return new ActionableError(message, [{ title: vscode.l10n.t('Manage Workspace Trust'), command: BUILT_IN_COMMAND.manageWorkspaceTrust }], 'warning');
}

/** Throws the Restricted Mode error, with the sentence `message` makes, when the folder is not trusted. */
export function requireTrust(message: () => string): void {
  if (!vscode.workspace.isTrusted) throw restrictedModeError(message());
}

/** Throws the Restricted Mode error for a command that needs a trusted folder, when it is not. */
export function requireTrustFor(commandId: string): void {
  const message = NEEDS_TRUST.get(commandId);
  if (message) requireTrust(message);
}
