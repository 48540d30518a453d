// The rows of one table in one run, as messages name them: the line each row starts on (a number
// each, so tables of 100,000s of rows stay small), and the words "trees.csv row 2 (line 3)" made
// once. An earlier row the engine names (the owner of a repeated source_id) is named so, rather
// than by the path its input has.
import { rowLabels, rowOfPath } from './rowSource';

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
