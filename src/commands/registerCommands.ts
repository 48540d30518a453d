// The one table of commands: id -> handler. Every handler runs through wrapCommand (log,
// actionable errors, silent cancel). The galleries feature brings its own table.
import * as vscode from 'vscode';
import { wrapCommand } from '../platform/commandWrapper';
import { loadedCore } from '../platform/lazyCore';
import { addProfile } from './addProfile';
import type { CommandServices, CommandTable } from './commandTable';
import { galleryCommands } from './gallery';
import { importFolder } from './importFolder';
import { importSpot } from './importSpot';
import { importSpotWithMedia } from './importSpotWithMedia';
import { newSpotDocument } from './newSpotDocument';
import { removeProfile } from './removeProfile';
import { setCredentials } from './setCredentials';
import { signOut } from './signOut';
import { switchProfile } from './switchProfile';
import { testConnection } from './testConnection';
import { COMMAND } from '../platform/commandIds';
import { walkthroughCommands } from '../walkthrough/commands';

export const commands: CommandTable = {
  [COMMAND.addProfile]: addProfile,
  [COMMAND.setCredentials]: setCredentials,
  [COMMAND.switchProfile]: switchProfile,
  [COMMAND.removeProfile]: removeProfile,
  [COMMAND.testConnection]: testConnection,
  [COMMAND.signOut]: signOut,
  [COMMAND.importSpot]: importSpot,
  [COMMAND.importSpotWithMedia]: importSpotWithMedia,
  [COMMAND.importFolder]: importFolder,
  [COMMAND.newSpotDocument]: newSpotDocument,
  ...galleryCommands,
  ...walkthroughCommands,
};

/** Not contributed: hands the live services to integration tests (scripted UI, stores). */
export const TEST_SERVICES_COMMAND = 'spotImport.test.services';
/** Not contributed: which lazily loaded bundles are loaded, so tests can check ordinary JSON never loads the core. */
export const TEST_LAZY_MODULES_COMMAND = 'spotImport.test.lazyModules';

export function isTestMode(context: vscode.ExtensionContext): boolean {
  return context.extensionMode === vscode.ExtensionMode.Test || process.env.SPOT_IMPORT_TEST === '1';
}

export function registerCommands(context: vscode.ExtensionContext, services: CommandServices): void {
  for (const [id, handler] of Object.entries(commands)) {
    services.disposables.push(vscode.commands.registerCommand(id, wrapCommand(id, handler, services)));
  }
  if (isTestMode(context)) {
    services.disposables.push(
      vscode.commands.registerCommand(TEST_SERVICES_COMMAND, () => services),
      vscode.commands.registerCommand(TEST_LAZY_MODULES_COMMAND, () => ({ core: loadedCore() !== undefined })),
    );
  }
}
