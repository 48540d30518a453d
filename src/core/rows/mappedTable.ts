// A table with its mapping, opened as every caller needs it (the command line's validate and import,
// the editor's checks, previews, hovers and Import Table Rows as Spots): the table opened with what the
// mapping says of its format (the rest detected), the mapping checked against the table's columns
// and the topics, and made concrete when it has no error. One place, so the editor and the command
// line can never disagree on what a mapping means.
import { stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { TopicCatalog } from '../topics/topicSchema';
import { checkMapping, type MappingProblem, type ParsedMapping } from './mapping/readMapping';
import { resolveMapping, type ResolvedMapping } from './mapping/resolveMapping';
import { openTable } from './read/openTable';
import { TableReadError } from './read/tableReadError';
import { l10n } from '../text/l10n';
import type { SourceEncoding, SourceTable } from './read/types';
import { tableCrsOf } from './mapping/checkCrs';

export interface MappedTable {
  table: SourceTable;
  /** The mapping file's problems: its syntax and schema, then its names checked against the table. */
  problems: MappingProblem[];
  /** The mapping made concrete; absent when the mapping has an error (the rows cannot be read as spots). */
  mapping?: ResolvedMapping;
}

export interface MappedTableOptions {
  topics?: TopicCatalog;
  /** Read the table in this encoding whatever the mapping says (the editor's copy of an unsaved buffer is UTF-8). */
  encoding?: SourceEncoding;
  /** How messages name the table (default: its file name). */
  sourceName?: string;
}

/** `path`: the table; `parsed`: its mapping (parseMapping, readMappingFile). Throws what openTable throws (TableReadError). */
export async function openMappedTable(path: string, parsed: ParsedMapping, options: MappedTableOptions = {}): Promise<MappedTable> {
  let table: SourceTable;
  try {
    table = await openTable(path, { ...parsed.mapping?.source, ...(options.encoding ? { encoding: options.encoding } : {}) });
  } catch (error) {
    throw (error instanceof TableReadError && (await mappingOfAnotherFile(error, path, parsed))) || error;
  }
  const ownCrs = tableCrsOf(table);
  const problems = [
    ...parsed.problems,
    ...(await checkMapping(parsed, {
      columns: table.columns,
      hasGeometry: table.hasGeometry === true,
      topics: options.topics,
      sourceName: options.sourceName ?? basename(path),
      ...(table.archive ? { archive: table.archive } : {}),
      ...(ownCrs ? { crs: ownCrs } : {}),
    })),
  ];
  if (!parsed.mapping || problems.some((problem) => problem.severity === 'error')) return { table, problems };
  const mapping = resolveMapping(parsed.mapping, parsed.path, {
    columns: table.columns,
    topics: options.topics,
    tableCrs: ownCrs?.code,
    decimalSeparator: table.format.decimalSeparator,
    ...(table.archive ? { archive: table.archive } : {}),
    ...(table.format.format === 'photos' ? { photoFolder: table.path } : {}),
  });
  return { table, problems, mapping };
}

/** The file name ending each format a mapping names is usually saved with. */
const FORMAT_EXTENSIONS: Readonly<Record<string, string>> = {
  csv: '.csv',
  tsv: '.tsv',
  geojson: '.geojson',
  ndjson: '.ndjson',
  xlsx: '.xlsx',
  shapefile: '.shp',
};

/**
 * A tool that offers one export as X.csv and X.xlsx leaves both to X.mapping.json: the mapping
 * written for one names its format, and the other read that way failed in the reader's words
 * alone. When the table's name does not end as the mapping's format and a file beside it does,
 * the error says so.
 */
async function mappingOfAnotherFile(error: TableReadError, path: string, parsed: ParsedMapping): Promise<TableReadError | undefined> {
  const format = parsed.mapping?.source?.format;
  const extension = format === undefined ? undefined : FORMAT_EXTENSIONS[format];
  if (format === undefined || extension === undefined || extname(path).toLowerCase() === extension) return undefined;
  const sibling = join(dirname(path), `${basename(path, extname(path))}${extension}`);
  const exists = await stat(sibling).then(
    () => true,
    () => false,
  );
  if (!exists) return undefined;
  return new TableReadError(
    error.path,
    l10n.t(
      '{0}; its mapping {1} reads it as "format": "{2}": the mapping was probably written for {3} beside it. Give this table a mapping of its own (--mapping on the command line).',
      error.reason,
      basename(parsed.path),
      format,
      basename(sibling),
    ),
    error.position,
  );
}
