// Where a table's mapping is: `trees.csv` ↔ `trees.mapping.json` beside it (a folder of photos:
// `photos.mapping.json` beside `photos/`, or inside it), and which files are tables: the one rule
// the command line and the editor ask. Only node:path, node:fs and the reader's names
// (read/tableNames.ts, read/jsonSniff.ts), so the extension knows a table has a mapping without
// loading the rows bundle.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { jsonFileContent } from '../read/jsonSniff';
import { ALL_TABLE_EXTENSIONS, CONTENT_EXTENSIONS, hasExtension, TABLE_EXTENSIONS } from '../read/tableNames';

/** Files whose .json names say what they are: a spot document, a mapping, a topic definition. */
const NAMED_JSON = /\.(spot|mapping|topic)\.json$/i;

/**
 * A file to read as a table: one named like a table; a .json whose first bytes are a GeoJSON
 * FeatureCollection or Feature, or one JSON object per line (a spot document stays one); or one of
 * the other names that say nothing of the format (.txt, .dat, .zip) when a mapping is beside it
 * (`anyName`: any of those names, as `spot-import mapping` takes them before there is a mapping).
 */
export function isTableFile(path: string, anyName = false): boolean {
  if (hasExtension(path, TABLE_EXTENSIONS)) return true;
  if (hasExtension(path, CONTENT_EXTENSIONS)) {
    if (/\.json$/i.test(path)) return isJsonTable(path);
    return anyName || existsSync(mappingPathFor(path));
  }
  return isPhotoFolder(path);
}

/** A .json file read as a table by its content (its first bytes, once). */
function isJsonTable(path: string): boolean {
  if (NAMED_JSON.test(path)) return false;
  const content = jsonFileContent(path);
  return content === 'geojson' || content === 'ndjson';
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
  const stem = hasExtension(name, ALL_TABLE_EXTENSIONS) ? name.slice(0, name.lastIndexOf('.')) : name;
  const beside = join(dirname(sourcePath), `${stem}.mapping.json`);
  if (stem === name && !existsSync(beside) && hasOwnMappingInside(sourcePath)) return join(sourcePath, `${name}.mapping.json`);
  return beside;
}

/** The tables a mapping can be for: `trees.mapping.json` → `trees.csv`, `trees.geojson`, … (the first that exists is its table). */
export function tableCandidatesFor(mappingPath: string): string[] {
  const stem = basename(mappingPath).replace(/\.mapping\.json$/i, '');
  return ALL_TABLE_EXTENSIONS.map((extension) => join(dirname(mappingPath), `${stem}.${extension}`));
}
