// A table named on the command line (trees.csv, layer.geojson) with its mapping: the mapping file
// found beside it (trees.mapping.json) or named by --mapping, the table opened with what the
// mapping says of its format (the rest detected, and what was detected told), the mapping checked
// against the table's columns and the topics, and made concrete. The mapping's own problems are an
// outcome of their own (the file and its line and column), and stop the rows from being checked.
import { basename } from 'node:path';
import type { TopicCatalog } from '../../core';
import { checkMapping, mappingPathFor, openTable, TABLE_FILE, readMappingFile, resolveMapping, type ResolvedMapping, type SourceTable } from '../../core/rows';
import { toFindings } from '../documents/checkDocument';
import { CliError } from '../exit';
import type { Outcome } from '../output/records';

/** Files named on the command line that are tables rather than spot documents. */
export function isTablePath(path: string): boolean {
  return TABLE_FILE.test(path);
}

export interface OpenedRows {
  table: SourceTable;
  mappingPath: string;
  /** The mapping made concrete; absent when it has errors (its outcome says which). */
  mapping?: ResolvedMapping;
  /** The mapping file's outcome, when it has problems. */
  mappingOutcome?: Outcome;
}

export async function openRows(path: string, options: { mapping?: string; topics?: TopicCatalog; display(path: string): string; note(line: string): void }): Promise<OpenedRows> {
  const mappingPath = options.mapping ?? mappingPathFor(path);
  let parsed;
  try {
    parsed = await readMappingFile(mappingPath);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  let table: SourceTable;
  try {
    table = await openTable(path, parsed.mapping?.source ?? {});
  } catch (error) {
    throw new CliError(`${options.display(path)}: ${(error as Error).message}`);
  }
  for (const detected of table.detected) options.note(`${options.display(path)}: ${detected}`);
  const problems = [...parsed.problems, ...(await checkMapping(parsed, { columns: table.columns, hasGeometry: table.format.format === 'geojson', topics: options.topics, sourceName: basename(path) }))];
  const findings = toFindings(parsed.text, problems, options.display);
  const errors = findings.filter((finding) => finding.severity === 'error');
  const file = options.display(mappingPath);
  const mappingOutcome: Outcome | undefined = findings.length === 0 ? undefined
    : errors.length > 0 ? { file, kind: 'mapping', status: 'invalid', ok: false, reason: `${errors[0].message} The rows were not checked.`, failure: 'document', findings }
      : { file, kind: 'mapping', status: 'valid', ok: true, findings };
  if (errors.length > 0 || !parsed.mapping) return { table, mappingPath, mappingOutcome };
  const mapping = resolveMapping(parsed.mapping, mappingPath, { columns: table.columns, topics: options.topics, tableCrs: table.crs, decimalSeparator: table.format.decimalSeparator });
  return { table, mappingPath, mapping, mappingOutcome };
}
