// The tables of one check, one after the other (validate a.csv b.csv). A row that gives the
// source_id of a row of an earlier table is no mistake in itself (exports of one form on two
// days give the same ids, on purpose), but imported after it, it updates that row's spot: a
// warning at its source_id names that row by its table as the caller shows paths, its row and
// line. Within one table a repeat is the engine's error (documents/sourceIds.ts). Per source id
// only the table's number, the row and the line are kept, so tables of 100,000s of rows stay small.
import { l10n } from '../text/l10n';

export class TablesRun {
  private readonly tables: string[] = [];
  private readonly owners = new Map<string, { table: number; row: number; line: number }>();

  /** `display`: how the caller names a table's path (the command line: relative to its folder). */
  constructor(private readonly display: (path: string) => string = (path) => path) {}

  /** Starts the next table; its number, for claim. */
  begin(path: string): number {
    return this.tables.push(this.display(path)) - 1;
  }

  /**
   * Notes that a row of table `table` gives `sourceId`, in the tables' order; the warning for it
   * when a row of an earlier table gave it first.
   */
  claim(table: number, sourceId: string, row: number, line: number): string | undefined {
    const owner = this.owners.get(sourceId);
    if (!owner) {
      this.owners.set(sourceId, { table, row, line });
      return undefined;
    }
    if (owner.table === table) return undefined;
    return l10n.t(
      'source_id "{0}" is also the source_id of {1} row {2} (line {3}): imported after that table, this row updates its spot.',
      sourceId,
      this.tables[owner.table],
      owner.row,
      owner.line,
    );
  }
}
