// The commands of profiles, documents and imports: id -> handler. Part of dist/features.js (whose
// entry, src/features.ts, joins it with the galleries' and the walkthrough's into the one table),
// loaded on the first command: activation registers the ids with stubs (registerCommandStubs.ts).
// Every handler runs through wrapCommand (log, actionable errors, silent cancel).
import { addProfile } from './addProfile';
import type { CommandTable } from './commandTable';
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

export const coreCommands: CommandTable = {
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
};
