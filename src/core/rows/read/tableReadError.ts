// Why a file cannot be read as a table at all (it is missing, empty, not a table, its header is
// unreadable): thrown by openTable and previewTable, for the caller to show as it is. Problems of
// single rows are not errors: they come as RowReadProblems among the rows.
import type { CellPosition } from './types';

export class TableReadError extends Error {
  /**
   * The message starts with the file, and its line and column when the problem has a place, in the
   * form compilers use (`path:line:column: …`), which terminals and editors turn into a link.
   */
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly position?: CellPosition,
  ) {
    super(`${position ? `${path}:${position.line}:${position.column}` : path}: ${reason}`);
    this.name = 'TableReadError';
  }
}
