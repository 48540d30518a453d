// Show on Map and Pick Location on Map: the handlers load dist/map.js (src/extension/map) on first use.
import { COMMAND } from '../platform/commandIds';
import { loadMap } from './loadMap';
import type { CommandTable } from '../commands/commandTable';

export const mapCommands: CommandTable = {
  [COMMAND.showOnMap]: async (services, ...args) => (await loadMap()).showOnMap(services, args),
  [COMMAND.pickLocation]: async (services, arg) => (await loadMap()).pickLocation(services, arg),
};
