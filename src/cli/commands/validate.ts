// spot-import validate <path>…: every document checked as the editor checks it, against the
// project's topic definitions, with its media folder (the import's own check), and every row of a
// table (trees.csv with trees.mapping.json) as the spot it stands for, each problem at its cell.
// Sends nothing, needs no account.
import { resolve } from 'node:path';
import { checkSpots, type SpotOutcome } from '../../core';
import { checkRows, cellNamer, supportedTables, TablesRun } from '../../core/rows';
import type { DocumentRules } from '../documents/documentRules';
import { topicRulesOf } from '../import/runOptions';
import { documentInputs } from '../documents/documentInputs';
import { findingsOf } from '../import/spotOutcome';
import type { Outcome } from '../output/records';
import { namedTables, openRows, refuseUnreadable } from '../rows/openRows';
import { distinctTables } from '../rows/distinctTables';
import { rowFindings, rowPlace, rowReason } from '../rows/rowFindings';
import { collectDocuments, displayPath } from '../documents/collectDocuments';
import { projectTopics, unusedTopicsNote, type ProjectTopics } from '../documents/projectTopics';
import { CliError, EXIT } from '../exit';
import type { OutputFormat } from '../output/reporter';
import { createProgress, type Progress } from '../progress';
import { watchInterrupts } from '../interrupt';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import { RunOutput, type CliContext } from '../context';

export interface ValidateOptions extends Pick<ConnectionFlags, 'topic' | 'config' | 'topicsFolder'> {
  format: OutputFormat;
  /** The mapping of the table named (default: <table>.mapping.json beside it). */
  mapping?: string;
}

export async function runValidate(paths: string[], options: ValidateOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings({ topic: options.topic, config: options.config, topicsFolder: options.topicsFolder }, context.env, context.cwd);
  // --mapping makes the one file named a table, whatever its name (occurrence.txt). Asked once a path (a .json is told by its first bytes).
  const tablePaths = namedTables(paths, context.cwd, Boolean(options.mapping));
  const isTable = (path: string) => tablePaths.has(path);
  const progress = createProgress(paths.length > 0 && paths.every(isTable) ? 'rows' : 'documents', context.stderr, context.env);
  // Ctrl-C: stop after the document at hand, say how far it got (and restore the terminal's cursor).
  const interrupts = watchInterrupts(context.stderr);
  try {
    const display = (path: string) => displayPath(path, context.cwd);
    const topics = await projectTopics(settings, context.cwd, display, paths);
    if (topics.unused) progress.note(unusedTopicsNote(topics.unused, display));
    const rules: DocumentRules = { topic: settings.topic?.value, topics: topics.catalog, acceptedTypes: settings.media.acceptedTypes };
    await refuseUnreadable(paths, context.cwd, Boolean(options.mapping));
    const tables = distinctTables(paths.filter(isTable), context.cwd, display, progress.note);
    if (options.mapping && tables.length !== 1)
      throw new CliError(`--mapping names the mapping of one table: name exactly one table with it, ${supportedTables()}.`);
    return await validateAll(
      paths.filter((path) => !isTable(path)),
      tables,
      options,
      rules,
      topics,
      context,
      progress,
      interrupts.stop,
    );
  } finally {
    progress.stop();
    interrupts.dispose();
  }
}

async function validateAll(
  paths: string[],
  tables: string[],
  options: ValidateOptions,
  rules: DocumentRules,
  topics: ProjectTopics,
  context: CliContext,
  progress: Progress,
  stop: AbortSignal,
): Promise<number> {
  const { files, unreadable } =
    paths.length > 0 || tables.length === 0 ? await collectDocuments(paths, context.cwd, progress.note, topics, stop) : { files: [], unreadable: [] };
  const definitions = topics.outcomes;
  const output = new RunOutput(context, 'validate', options.format, progress);
  for (const outcome of definitions) output.outcome(outcome);
  const display = (path: string) => displayPath(path, context.cwd);
  for (const outcome of unreadable) output.outcome({ ...outcome, status: 'invalid' });
  let bytes = 0;
  let checkedCount = 0;
  // The engine's check (checkSpots): what an import would say of each document, nothing sent.
  const source = documentInputs(files, { display, stop, onRead: (read) => (bytes += read) });
  // One at a time: the lines come in the order of the files (a check waits on no request).
  await checkSpots(
    source,
    { ...topicRulesOf(rules), acceptedTypes: rules.acceptedTypes, describePath: display, signal: stop, concurrency: 1 },
    (_position, spot) => {
      output.outcome(validateOutcome(spot, display));
      progress.update({ done: ++checkedCount, total: files.length, bytes });
    },
  );
  if (stop.aborted) {
    progress.stop();
    return output.finish(
      `Interrupted: ${checkedCount} of ${files.length} spot documents checked, ${output.count('invalid')} invalid so far.`,
      EXIT.interrupted,
      'interrupted',
    );
  }
  const documentCounts = { checked: output.total - definitions.length, invalid: output.count('invalid') };
  const rows = { checked: 0, invalid: 0, tables: [] as string[], brokenMappings: [] as string[], empty: [] as string[] };
  // One check of every table: a row that gives a source_id of a row of an earlier table is said (a warning).
  const run = new TablesRun(display);
  for (const table of tables) {
    if (stop.aborted) break;
    const counted = await validateTable(table, options.mapping, { rules, run }, topics, output, progress, context, stop);
    rows.checked += counted.checked;
    rows.invalid += counted.invalid;
    // A table whose mapping is broken had no row checked: it is not counted as "all valid".
    if (counted.brokenMapping) rows.brokenMappings.push(`the rows of ${display(table)} were not checked: ${counted.brokenMapping} has problems (above)`);
    // A header alone (a form before its first submission) is no failure, and no "all valid" either.
    else if (counted.checked === 0) rows.empty.push(`${display(table)} has no rows`);
    else rows.tables.push(display(table));
  }
  progress.stop();
  const broken = definitions.filter((outcome) => !outcome.ok).length;
  if (stop.aborted)
    return output.finish(
      `Interrupted: ${documentCounts.checked + rows.checked} checked, ${output.count('invalid')} invalid so far.`,
      EXIT.interrupted,
      'interrupted',
    );
  const invalid = documentCounts.invalid - broken;
  const parts: string[] = [];
  if (files.length > 0 || unreadable.length > 0 || tables.length === 0) {
    const valid = documentCounts.checked - invalid;
    parts.push(
      `${documentCounts.checked} spot document${documentCounts.checked === 1 ? '' : 's'} checked: ${invalid === 0 ? 'all valid' : `${invalid} invalid, ${valid} valid`}`,
    );
  }
  if (rows.tables.length > 0)
    parts.push(
      `${rows.checked} row${rows.checked === 1 ? '' : 's'} of ${rows.tables.length === 1 ? rows.tables[0] : `${rows.tables.length} tables`} checked: ${rows.invalid === 0 ? 'all valid' : `${rows.invalid} invalid, ${rows.checked - rows.invalid} valid`}`,
    );
  parts.push(...rows.empty, ...rows.brokenMappings);
  const definitionsNote = broken > 0 ? `; ${broken} topic definition file${broken === 1 ? '' : 's'} broken (not used)` : '';
  const summary = parts.join('; ');
  return output.finish(
    // A sentence starts upper case; a table's name stays as it is written.
    `${summary.startsWith('the rows of ') ? `T${summary.slice(1)}` : summary}${definitionsNote}.`,
    invalid + broken + rows.invalid + rows.brokenMappings.length === 0 ? EXIT.ok : EXIT.failures,
  );
}

/**
 * Every row of one table, each problem at its cell; the mapping's own problems first. `run`: the
 * check of the run's tables this one is part of. brokenMapping: the mapping file (as displayed)
 * when its problems kept the rows from being checked.
 */
async function validateTable(
  path: string,
  mappingFlag: string | undefined,
  { rules, run }: { rules: DocumentRules; run: TablesRun },
  topics: ProjectTopics,
  output: RunOutput,
  progress: Progress,
  context: CliContext,
  stop: AbortSignal,
): Promise<{ checked: number; invalid: number; brokenMapping?: string }> {
  const display = (file: string) => displayPath(file, context.cwd);
  const opened = await openRows(resolve(context.cwd, path), {
    mapping: mappingFlag && resolve(context.cwd, mappingFlag),
    topics: topics.catalog,
    display,
    note: progress.note,
  });
  if (opened.mappingOutcome) output.outcome(opened.mappingOutcome);
  if (!opened.mapping) return { checked: 0, invalid: 0, brokenMapping: display(opened.mappingPath) };
  const file = display(opened.table.path);
  const counts = { checked: 0, invalid: 0 };
  const nameCell = cellNamer(opened.table.format);
  for await (const checked of checkRows(opened.table, opened.mapping, { ...topicRulesOf(rules), acceptedTypes: rules.acceptedTypes, run }, stop)) {
    counts.checked++;
    const findings = rowFindings(
      checked.findings.map((finding) => ({ ...finding, at: finding })),
      display,
      nameCell,
    );
    const row = checked.row !== undefined ? { row: rowPlace({ row: checked.row, line: checked.line }, nameCell) } : {};
    if (checked.ok) output.outcome({ file, ...row, status: 'valid', ok: true, findings });
    else {
      counts.invalid++;
      output.outcome({ file, ...row, status: 'invalid', ok: false, reason: rowReason(findings), failure: 'document', findings });
    }
    progress.update({ done: counts.checked, bytes: 0 });
    // Give the event loop a turn now and then (Ctrl-C, the bar, stdout).
    if (counts.checked % 256 === 255) await new Promise((resolveTurn) => setImmediate(resolveTurn));
  }
  return counts;
}

/** A document's check as validate reports it: valid, or invalid with its reason (unreadable: the file could not be read). */
function validateOutcome(spot: SpotOutcome, display: (path: string) => string): Outcome {
  const findings = findingsOf(spot, display);
  if (spot.status === 'checked') return { file: spot.label, status: 'valid', ok: true, findings };
  const failure = spot.failure?.kind === 'unreadable' ? 'unreadable' : 'document';
  return { file: spot.label, status: 'invalid', ok: false, reason: spot.reason ?? 'Not a spot document.', failure, findings };
}
