// The commands of profiles, documents and imports: id -> handler. Part of dist/features.js (whose
// entry, src/extension/features.ts, joins it with the galleries' and the walkthrough's into the one table),
// loaded on the first command: activation registers the ids with stubs (registerCommandStubs.ts).
// Every handler runs through wrapCommand (log, actionable errors, silent cancel).
import { addProfile } from '../profiles/addProfile';
import type { CommandTable } from './commandTable';
import { importFolder } from '../import/importFolder';
import { importSpot } from '../import/importSpot';
import { importSpotWithMedia } from '../import/importSpotWithMedia';
import { newSpotDocument } from '../documents/newSpotDocument';
import { removeProfile } from '../profiles/removeProfile';
import { setCredentials } from '../profiles/setCredentials';
import { signOut } from '../profiles/signOut';
import { switchProfile } from '../profiles/switchProfile';
import { testConnection } from '../profiles/testConnection';
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
