// Where a table's mapping is: `trees.csv` ↔ `trees.mapping.json` beside it (a folder of photos:
// `photos.mapping.json` beside `photos/`, or inside it), and which files are tables. Only node:path
// and node:fs, so the extension knows a table has a mapping without loading the rows bundle.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Tables by extension: CSV, TSV, GeoJSON (and one feature per line: .geojsonl, .geojsons), NDJSON, Excel workbooks, shapefiles. */
const TABLE_FILE = /\.(csv|tsv|tab|geojson|geojsonl|geojsons|ndjson|jsonl|xlsx|xlsm|shp)$/i;

/** Names that say nothing of the format (GBIF's occurrence.txt, a .dat export, an archive): read as tables by their content. */
const CONTENT_TABLE_FILE = /\.(txt|dat|zip)$/i;

/**
 * A file to read as a table: one named like a table, or one of the names that say nothing of the
 * format when a mapping is beside it (`anyName`: any of those names, as `spot-import mapping`
 * takes them before there is a mapping).
 */
export function isTableFile(path: string, anyName = false): boolean {
  if (TABLE_FILE.test(path)) return true;
  if (CONTENT_TABLE_FILE.test(path)) return anyName || existsSync(mappingPathFor(path));
  return isPhotoFolder(path);
}

/**
 * A folder read as a table of photos: one with its mapping beside it (`photos.mapping.json` beside
 * `photos/`) or inside it. Without one, a folder is what it always was: a folder of spot documents.
 */
function isPhotoFolder(path: string): boolean {
  const name = basename(path);
  if (!existsSync(join(dirname(path), `${name}.mapping.json`)) && !hasOwnMappingInside(path)) return false;
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** `photos/photos.mapping.json` is the folder's own mapping unless a table of that name is beside it in there (`photos/photos.csv`). */
function hasOwnMappingInside(folder: string): boolean {
  const inside = join(folder, `${basename(folder)}.mapping.json`);
  return existsSync(inside) && !tableCandidatesFor(inside).some((table) => existsSync(table));
}

/** `trees.csv` → `trees.mapping.json` beside it; a folder `photos` → `photos.mapping.json` beside it, or inside it when that is where it is. */
export function mappingPathFor(sourcePath: string): string {
  const name = basename(sourcePath);
  const stem = name.replace(/\.(csv|tsv|tab|txt|dat|geojson|geojsonl|geojsons|json|ndjson|jsonl|xlsx|xlsm|shp|zip)$/i, '');
  const beside = join(dirname(sourcePath), `${stem}.mapping.json`);
  if (stem === name && !existsSync(beside) && hasOwnMappingInside(sourcePath)) return join(sourcePath, `${name}.mapping.json`);
  return beside;
}

/** The tables a mapping can be for: `trees.mapping.json` → `trees.csv`, `trees.geojson`, … (the first that exists is its table). */
export function tableCandidatesFor(mappingPath: string): string[] {
  const stem = basename(mappingPath).replace(/\.mapping\.json$/i, '');
  return ['csv', 'tsv', 'tab', 'txt', 'dat', 'geojson', 'geojsonl', 'geojsons', 'ndjson', 'jsonl', 'json', 'xlsx', 'xlsm', 'shp', 'zip'].map((extension) =>
    join(dirname(mappingPath), `${stem}.${extension}`),
  );
}
