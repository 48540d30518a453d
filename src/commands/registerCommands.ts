// The one table of commands: id -> handler. It is part of dist/features.js, loaded on the first
// command: activation registers the ids with stubs (registerCommandStubs.ts). Every handler runs
// through wrapCommand (log, actionable errors, silent cancel). The galleries feature brings its own table.
import { addProfile } from './addProfile';
import type { CommandTable } from './commandTable';
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
