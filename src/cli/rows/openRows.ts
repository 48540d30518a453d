// A table named on the command line (trees.csv, layer.geojson) with its mapping: the mapping file
// found beside it (trees.mapping.json) or named by --mapping, the table opened with what the
// mapping says of its format (the rest detected, and what was detected told), the mapping checked
// against the table's columns and the topics, and made concrete (the core's openMappedTable, as the
// editor does it). The mapping's own problems are an outcome of their own (the file and its line
// and column), and stop the rows from being checked.
import { resolve } from 'node:path';
import type { TopicCatalog } from '../../core';
import { isTableFile, mappingPathFor, openMappedTable, readMappingFile, type MappedTable, type ResolvedMapping, type SourceTable } from '../../core/rows';
import { toFindings } from '../documents/documentRules';
import { CliError } from '../exit';
import type { Outcome } from '../output/records';

/**
 * Files named on the command line that are tables rather than spot documents: by their name, or
 * (occurrence.txt) by the mapping beside them; `cwd` resolves a relative path.
 */
export function isTablePath(path: string, cwd = process.cwd(), anyName = false): boolean {
  return isTableFile(resolve(cwd, path), anyName);
}

/**
 * A file named like a table whose name says nothing of its format (occurrence.txt) and that has no
 * mapping beside it: not a spot document either, so it is refused with the way to make its mapping.
 */
export function refuseTableWithoutMapping(paths: readonly string[], cwd: string): void {
  const path = paths.find((candidate) => isTablePath(candidate, cwd, true) && !isTablePath(candidate, cwd));
  if (path)
    throw new CliError(`${path} has no mapping beside it, so it is not read as a table (nor is it a spot document): spot-import mapping ${path} proposes one.`);
}

export interface OpenedRows {
  table: SourceTable;
  mappingPath: string;
  /** The mapping made concrete; absent when it has errors (its outcome says which). */
  mapping?: ResolvedMapping;
  /** The mapping file's outcome, when it has problems. */
  mappingOutcome?: Outcome;
}

export async function openRows(
  path: string,
  options: { mapping?: string; topics?: TopicCatalog; display(path: string): string; note(line: string): void },
): Promise<OpenedRows> {
  const mappingPath = options.mapping ?? mappingPathFor(path);
  let parsed;
  try {
    parsed = await readMappingFile(mappingPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new CliError((error as Error).message);
    const [table, mappingFile] = [options.display(path), options.display(mappingPath)];
    throw new CliError(
      options.mapping
        ? `--mapping names ${mappingFile}, which is not there: spot-import mapping ${table} proposes one to complete.`
        : `${table} has no mapping beside it (${mappingFile}): spot-import mapping ${table} proposes one to complete, or name one with --mapping.`,
    );
  }
  let mapped: MappedTable;
  try {
    mapped = await openMappedTable(path, parsed, { topics: options.topics });
  } catch (error) {
    throw new CliError(`${options.display(path)}: ${(error as Error).message}`);
  }
  const { table, mapping } = mapped;
  for (const detected of table.detected) options.note(`${options.display(path)}: ${detected}`);
  const findings = toFindings(parsed.text, mapped.problems, options.display);
  const errors = findings.filter((finding) => finding.severity === 'error');
  const file = options.display(mappingPath);
  const mappingOutcome: Outcome | undefined =
    findings.length === 0
      ? undefined
      : errors.length > 0
        ? { file, kind: 'mapping', status: 'invalid', ok: false, reason: `${errors[0].message} The rows were not checked.`, failure: 'document', findings }
        : { file, kind: 'mapping', status: 'valid', ok: true, findings };
  return { table, mappingPath, ...(mapping ? { mapping } : {}), mappingOutcome };
}
