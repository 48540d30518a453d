// Placeholder: the galleries feature fills this table with its command handlers.
import type { CommandTable } from '../commandTable';

export const galleryCommands: CommandTable = {};
