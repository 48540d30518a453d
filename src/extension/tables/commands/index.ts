// The commands of rows of tables (CSV, TSV, GeoJSON, workbooks with a mapping); registerCommands.ts wraps each one.
import { COMMAND } from '../../platform/commandIds';
import type { CommandTable } from '../../commands/commandTable';
import { createMapping } from './createMapping';
import { importRows } from './importRows';
import { previewRow } from './previewRow';
import { showRows } from './showRows';

export const rowCommands: CommandTable = {
  [COMMAND.importRows]: importRows,
  [COMMAND.previewRow]: previewRow,
  [COMMAND.createMapping]: createMapping,
  [COMMAND.showRows]: showRows,
};
