// Where a table's mapping is: `trees.csv` ↔ `trees.mapping.json` beside it. Only node:path, so
// the extension knows a table has a mapping without loading the rows bundle.
import { basename, dirname, join } from 'node:path';

/** Tables by extension: CSV, TSV, GeoJSON, NDJSON. */
export const TABLE_FILE = /\.(csv|tsv|tab|geojson|ndjson|jsonl)$/i;

/** `trees.csv` → `trees.mapping.json` beside it. */
export function mappingPathFor(sourcePath: string): string {
  const name = basename(sourcePath);
  const stem = name.replace(/\.(csv|tsv|tab|txt|geojson|json|ndjson|jsonl)$/i, '');
  return join(dirname(sourcePath), `${stem}.mapping.json`);
}

/** The tables a mapping can be for: `trees.mapping.json` → `trees.csv`, `trees.geojson`, … (the first that exists is its table). */
export function tableCandidatesFor(mappingPath: string): string[] {
  const stem = basename(mappingPath).replace(/\.mapping\.json$/i, '');
  return ['csv', 'tsv', 'tab', 'geojson', 'ndjson', 'jsonl', 'json'].map((extension) => join(dirname(mappingPath), `${stem}.${extension}`));
}
