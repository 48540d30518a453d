// The names of the files read as tables, in one place: which say their format, and which say
// nothing of it (their content does). mappingPath.ts decides by them which files are tables and
// which tables a mapping can be for; fileFormats.ts lists them in messages. No imports, so the
// editor's activation can know a table by its name.

/** Extensions (without the dot) that say a table's format: CSV, TSV, GeoJSON, one feature or object per line, Excel workbooks, shapefiles. */
export const TABLE_EXTENSIONS = ['csv', 'tsv', 'tab', 'geojson', 'geojsonl', 'geojsons', 'ndjson', 'jsonl', 'xlsx', 'xlsm', 'shp'] as const;

/**
 * Extensions that say nothing of the format, read as tables by their content: GBIF's
 * occurrence.txt and a .dat export (tables when their mapping is beside them), a .json layer (by
 * its first bytes: jsonSniff.ts), an archive (a form tool's export, a zipped layer).
 */
export const CONTENT_EXTENSIONS = ['txt', 'dat', 'json', 'zip'] as const;

/** Every extension a table can have, in the order a mapping's table is looked for beside it (tableCandidatesFor). */
export const ALL_TABLE_EXTENSIONS: readonly string[] = [
  'csv',
  'tsv',
  'tab',
  'txt',
  'dat',
  'geojson',
  'geojsonl',
  'geojsons',
  'ndjson',
  'jsonl',
  'json',
  'xlsx',
  'xlsm',
  'shp',
  'zip',
];

/** Entries of an archive read as its table (a workbook among them is named, and refused: it is not read in place). */
export const ARCHIVE_TABLE_EXTENSIONS = ['csv', 'tsv', 'tab', 'geojson', 'json', 'ndjson', 'jsonl', 'geojsonl', 'geojsons', 'shp', 'xlsx', 'xlsm'] as const;

/** `path` ends in one of `extensions` (any case). */
export function hasExtension(path: string, extensions: readonly string[]): boolean {
  const dot = path.lastIndexOf('.');
  return dot >= 0 && extensions.includes(path.slice(dot + 1).toLowerCase());
}
