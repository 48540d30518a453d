// A table named on the command line (trees.csv, layer.geojson) with its mapping: the mapping file
// found beside it (trees.mapping.json) or named by --mapping, the table opened with what the
// mapping says of its format (the rest detected, and what was detected told), the mapping checked
// against the table's columns and the topics, and made concrete (the core's openMappedTable, as the
// editor does it). The mapping's own problems are an outcome of their own (the file and its line
// and column), and stop the rows from being checked.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TopicCatalog } from '../../core';
import {
  archiveWithoutTable,
  isArchivePath,
  isTableFile,
  jsonFileContent,
  mappingPathFor,
  openMappedTable,
  readMappingFile,
  supportedTables,
  TableReadError,
  unsupportedFile,
  unsupportedReason,
  type MappedTable,
  type ResolvedMapping,
  type SourceTable,
} from '../../core/rows';
import { toFindings } from '../documents/documentRules';
import { CliError } from '../exit';
import type { Outcome } from '../output/records';

/**
 * Files named on the command line that are tables rather than spot documents: by their name, or
 * (occurrence.txt) by the mapping beside them; `cwd` resolves a relative path.
 */
function isTablePath(path: string, cwd = process.cwd(), anyName = false): boolean {
  return isTableFile(resolve(cwd, path), anyName);
}

/** Names that say nothing of the format and are tables only with a mapping (a .json is told by its content, mapping or not). */
const MAPPED_BY_CONTENT = /\.(txt|dat|zip)$/i;

/** The paths (as given) that name tables, each asked once: a .json is told by its first bytes. */
export function namedTables(paths: readonly string[], cwd: string, anyName = false): Set<string> {
  return new Set(paths.filter((path) => isTablePath(path, cwd, anyName)));
}

/**
 * Files named on the command line that are neither spot documents nor tables to read, refused
 * before anything is read, one line each: a format known and not read (a KML, a GeoPackage,
 * KoBoToolbox's API JSON) says what it is and what to do in the tool that made it; a file named
 * like a table whose name says nothing of its format (occurrence.txt, export.zip) and that has no
 * mapping beside it gets the way to make its mapping (`withMapping`: --mapping was given), unless
 * it is an archive that holds no table, which says what it holds instead (as `mapping` would).
 */
export async function refuseUnreadable(paths: readonly string[], cwd: string, withMapping: boolean): Promise<void> {
  const lines: string[] = [];
  for (const path of paths) {
    const file = resolve(cwd, path);
    const unsupported = unsupportedFile(file);
    if (unsupported) lines.push(`${path}: ${unsupportedReason(unsupported)}.`);
    else if (!withMapping && MAPPED_BY_CONTENT.test(path) && !isTablePath(path, cwd)) {
      const noTable = isArchivePath(file) ? await archiveWithoutTable(file) : undefined;
      lines.push(
        noTable
          ? `${path}: ${noTable}.`
          : `${path} has no mapping beside it, so it is not read as a table (nor is it a spot document): spot-import mapping ${path} proposes one.`,
      );
    }
  }
  if (lines.length > 0) throw new CliError(lines.join('\n'));
}

/**
 * The one source `spot-import mapping` or `convert` is given must be a table (`folder`: any folder
 * is one, a folder of photos without its mapping yet): refused otherwise with what it is and what
 * to name instead; an archive that holds no table says what it holds, as `validate` does.
 */
export async function requireTable(source: string, cwd: string, folder: boolean): Promise<void> {
  const path = resolve(cwd, source);
  const unsupported = unsupportedFile(path);
  if (unsupported) throw new CliError(`${source}: ${unsupportedReason(unsupported)}.`);
  if (isTablePath(path, cwd, true) || (folder && statSync(path, { throwIfNoEntry: false })?.isDirectory())) {
    const noTable = isArchivePath(path) ? await archiveWithoutTable(path) : undefined;
    if (noTable) throw new CliError(`${source}: ${noTable}.`);
    return;
  }
  if (/\.json$/i.test(path) && jsonFileContent(path) === 'spot')
    throw new CliError(`"${source}" is a spot document, not a table: spot-import validate ${source} checks it, spot-import import ${source} imports it.`);
  throw new CliError(`"${source}" is not a table: name ${supportedTables()}.`);
}

/** A table that cannot be read, as a line: the file (and the place in it) as the run names files, then why. */
export function tableReadMessage(error: TableReadError, display: (path: string) => string): string {
  const at = error.position ? `:${error.position.line}:${error.position.column}` : '';
  return `${display(error.path)}${at}: ${error.reason}`;
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
        ? `--mapping names ${mappingFile}, which is not there: spot-import mapping ${table} --out ${mappingFile} proposes one there to complete.`
        : `${table} has no mapping beside it (${mappingFile}): spot-import mapping ${table} proposes one to complete, or name one with --mapping.`,
    );
  }
  let mapped: MappedTable;
  try {
    mapped = await openMappedTable(path, parsed, { topics: options.topics });
  } catch (error) {
    // A TableReadError's message names the file already (as it was opened): said once, as the run names files.
    throw new CliError(error instanceof TableReadError ? tableReadMessage(error, options.display) : `${options.display(path)}: ${(error as Error).message}`);
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
