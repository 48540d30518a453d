// The rows of one check over one table or several (validate a.csv b.csv, each table a run of the
// engine's check one after the other): the tables share their source ids, so a row that gives the
// source_id of a row of an earlier table is refused by the rule that refuses one an earlier row of
// its own table gave (documents/sourceIds.ts), and its message names that row by table, row and
// line. Per row only what that needs is kept: its source_id with its path (SourceIdOwners) and the
// line it starts on (a number), so tables of 100,000s of rows stay small.
import { SourceIdOwners } from '../documents/sourceIds';
import { rowLabels, rowOfPath } from './rowSource';

export class TablesRun {
  /** The first row of the run that gave each source id, by its row path (rowSource.ts rowPath). */
  readonly sourceIds = new SourceIdOwners();
  private readonly tables: TableRows[] = [];

  /** The rows of the table at `path` (absolute), whose lines are noted as they are read. */
  table(path: string): TableRows {
    let rows = this.tables.find((candidate) => candidate.path === path);
    if (!rows) {
      rows = new TableRows(path);
      this.tables.push(rows);
    }
    return rows;
  }

  /** How a message names a row of a table of the run ("a.csv row 2 (line 3)"); undefined for any other path. */
  describe(path: string): string | undefined {
    for (const rows of this.tables) {
      const named = rows.describe(path);
      if (named !== undefined) return named;
    }
    return undefined;
  }
}

export class TableRows {
  /** The line each row starts on, by row. */
  private readonly lines: number[] = [];
  /** How the table's rows are named, its words made once (rowLabels). */
  readonly labels: (row: number, line: number) => string;

  constructor(readonly path: string) {
    this.labels = rowLabels(path);
  }

  startsOn(row: number, line: number): void {
    this.lines[row] = line;
  }

  describe(path: string): string | undefined {
    const row = rowOfPath(this.path, path);
    const line = row === undefined ? undefined : this.lines[row];
    return line === undefined ? undefined : this.labels(row!, line);
  }
}
