// The tables named on the command line, each once: a table named twice (a.csv a.csv, a.csv
// ./a.csv) is one table, as a document named twice is one document. Checked twice, each of its
// rows would repeat its own source_id; imported, it would be refused as two tables.
import { resolve } from 'node:path';

/** `tables` as given, each first naming of a file kept in order; a file named again is said once with `note`. */
export function distinctTables(tables: readonly string[], cwd: string, display: (path: string) => string, note: (line: string) => void): string[] {
  const first = new Map<string, string>();
  const again = new Set<string>();
  for (const table of tables) {
    const path = resolve(cwd, table);
    if (first.has(path)) again.add(path);
    else first.set(path, table);
  }
  for (const path of again) note(`${display(path)} is named more than once: its rows are read once.`);
  return [...first.values()];
}
