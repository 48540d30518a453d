// Import Rows as Spots: the rows of a table with a mapping through the core's import engine, each
// row the spot it stands for, with the photos its cells name: as Import Folder does it (one
// cancellable progress notification, the journal that makes a second run send nothing that was
// done, the galleries remembered for the Galleries view, the same summary), and a failure opens
// the table at the row's cell. Rows with problems are reported and left out; the rest is imported.
// The table is never written to: the journal remembers the gallery ids and states.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import type * as Rows from '../../core/rows';
import { isCancellation, withCancellableProgress } from '../../platform/cancellation';
import { BUILT_IN_COMMAND } from '../../platform/commandIds';
import { profileLabel } from '../../platform/domain';
import { ActionableError } from '../../platform/errors';
import { showMessage } from '../../platform/errorActions';
import { loadRows } from '../../platform/lazyRows';
import { activeProfile, startingMessage } from '../activeProfile';
import type { CommandServices } from '../commandTable';
import { reportRun, type FolderImportSummary, type RunSubject } from '../importReport';
import { engineOptions, GalleryRecorder } from '../importRun';
import { openMappingAtProblem, openTableAt } from './openTableAt';
import { requireMapping, saveFirst, tableTarget, type TableTarget } from './tableTarget';

export const SAVE_AND_IMPORT = 'Save and Import';

export interface RowsImportOptions {
  /** Cancels as the notification's Cancel button does (tests). */
  signal?: AbortSignal;
  /** Told of every engine event (tests cancel part-way with it). */
  onProgress?: (event: Core.WorkflowProgress) => void;
}

/** What Import Rows as Spots did: the run's summary, and the lines that were not rows at all. */
export interface RowsImportSummary extends FolderImportSummary {
  unreadable: Rows.UnreadableRow[];
}

export function importRows(services: CommandServices, target?: unknown): Promise<RowsImportSummary | undefined> {
  return runRowsImport(services, target, {});
}

export async function runRowsImport(services: CommandServices, arg: unknown, options: RowsImportOptions): Promise<RowsImportSummary | undefined> {
  const target = await tableTarget(arg);
  await requireMapping(target);
  await saveFirst(target, async (names) => (await services.ui.showWarningMessage(`${names} ${names.includes(' and ') ? 'have' : 'has'} unsaved changes: the import reads the files.`, { modal: true }, SAVE_AND_IMPORT)) === SAVE_AND_IMPORT);
  const profile = await activeProfile(services);
  const core = await services.core();
  const unreadable: Rows.UnreadableRow[] = [];

  const run = await withCancellableProgress({ title: `Importing the rows of ${target.name} to ${profileLabel(profile)}`, signal: options.signal }, async (progress, signal) => {
    progress.report({ message: 'Checking the rows…' });
    // The check the editor shows is the count of rows, and what is wrong with the mapping.
    const state = await services.tables.checks.checkNow(target.table);
    const opened = await services.tables.checks.open(target.table, target.mapping);
    if (!opened) throw new ActionableError(`${target.name} has no mapping.`);
    const { mapped, rows } = opened;
    try {
      if (!mapped.mapping) throw await mappingRefusal(target, mapped.problems);
      const starting = startingMessage(profile);
      if (starting) progress.report({ message: starting });
      const { client } = await services.clients.clientFor(profile.id);
      // Rows' galleries have no document to go back to: the Galleries view lists them by spot.
      const recorder = new GalleryRecorder(services, profile, () => undefined);
      let current = '';
      const engine = await engineOptions(services, core, {
        profile,
        client,
        target: target.table,
        signal,
        onProgress: (event) => {
          if (event.kind === 'spot') {
            current = `${event.total > 0 ? `row ${event.index} of ${event.total}` : `row ${event.index}`}: ${event.label}`;
            progress.report({ message: current });
          } else if (event.kind === 'bytes') {
            progress.report({ message: `${current} — ${event.file} ${Math.round(event.sentBytes / 1024)} of ${Math.round(event.totalBytes / 1024)} KB` });
          } else {
            recorder.add(event.outcome);
            if (event.total > 0) progress.report({ increment: 100 / event.total });
          }
          options.onProgress?.(event);
        },
      });
      services.log.info('import', `rows of ${target.name}: ${state?.rowLines.length ?? '?'} rows (journal ${engine.journal.dir})`);
      const source = rows.rowSource(mapped.table, mapped.mapping, { signal, onUnreadable: (row) => unreadable.push(row) });
      // The count of the check just made: the progress says "row n of N" (the file cannot have changed: it was saved).
      const counted: Core.SpotSource = state ? { ...source, total: state.rowLines.length } : source;
      return await core.runMediaWorkflow(counted, { ...engine, writeBack: false }).finally(() => recorder.finish());
    } finally {
      await opened.copy.dispose();
    }
  }).then(undefined, (error: unknown) => {
    if (!isCancellation(error)) throw error;
    services.log.info('import', `rows of ${target.name}: cancelled before anything was sent`);
    void services.ui.showWarningMessage(`Import of the rows of ${target.name} cancelled before anything was sent.`, {});
    return undefined;
  });
  if (!run) return undefined;
  if (run.spots.length === 0 && unreadable.length === 0) {
    void services.ui.showInformationMessage(`${target.name} has no rows to import.`);
    return undefined;
  }
  const subject: RunSubject = { name: target.name, items: 'rows', again: 'importing the rows again', open: (spot) => openRowAtProblem(spot) };
  const summary = await reportRun(services, profile, subject, run);
  if (unreadable.length > 0) {
    services.log.warn('import', `rows of ${target.name}: ${unreadable.length} line(s) could not be read as rows`, unreadable.map((row) => `line ${row.line}:${row.column}: ${row.problem}`));
    const first = unreadable[0];
    showMessage(services, 'warning', `${unreadable.length} line${unreadable.length === 1 ? '' : 's'} of ${target.name} could not be read as rows and were left out (line ${first.line}: ${first.problem}).`, [
      { title: 'Open at the Line', run: () => openTableAt(target.table, first) },
      { title: 'Show Problems', command: BUILT_IN_COMMAND.showProblems },
    ]);
  }
  return { ...summary, unreadable };
}

/** A mapping with errors: nothing is sent; the mapping opens at its first error. */
async function mappingRefusal(target: TableTarget, problems: readonly Rows.MappingProblem[]): Promise<ActionableError> {
  const errors = problems.filter((problem) => problem.severity === 'error');
  const first = errors[0];
  if (first) await openMappingAtProblem(target.mapping, first);
  return new ActionableError(`Not imported, nothing was sent: the mapping ${vscode.workspace.asRelativePath(target.mapping, false)} has ${errors.length} problem${errors.length === 1 ? '' : 's'}${first ? `: ${first.message}` : '.'}`, [
    { title: 'Show Problems', command: BUILT_IN_COMMAND.showProblems },
  ]);
}

/** A row's spot: the table at the cell of its first error (or its first problem, or the row's start). */
async function openRowAtProblem(spot: Core.SpotOutcome): Promise<void> {
  const rows = await loadRows();
  if (!rows.isRowOrigin(spot.origin)) return;
  const problem = spot.problems.find((candidate) => candidate.severity === 'error') ?? spot.problems[0];
  const at = problem ? rows.placeRowProblem(spot.origin, problem) : { line: spot.origin.line, column: 1 };
  await openTableAt(vscode.Uri.file(spot.origin.source), at);
}
