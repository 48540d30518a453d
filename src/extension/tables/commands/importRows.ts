// Import Table Rows as Spots: the rows of a table with a mapping through the core's import engine, each
// row the spot it stands for, with the photos its cells name: as Import Folder does it (one
// cancellable progress notification, the journal that makes a second run send nothing that was
// done, the galleries remembered for the Galleries view, the same summary), and a failure opens
// the table at the row's cell. Rows with problems are reported and left out; the rest is imported.
// The table is never written to: the journal remembers the gallery ids and states.
import * as vscode from 'vscode';
import type * as Core from '../../../core';
import type * as Rows from '../../../core/rows';
import { BUILT_IN_COMMAND } from '../../platform/commandIds';
import { profileLabel } from '../../platform/domain';
import { ActionableError } from '../../platform/errors';
import { showMessage } from '../../platform/errorActions';
import { loadRows } from '../../platform/lazyRows';
import { activeProfile } from '../../profiles/activeProfile';
import type { CommandServices } from '../../commands/commandTable';
import { reportRun, type FolderImportSummary, type RunSubject } from '../../import/importReport';
import { importWithProgress } from '../../import/importWithProgress';
import { openMappingAtProblem, openTableAt } from './openTableAt';
import { photoFetching } from '../photoLogins';
import { requireMapping, saveFirst, tableTarget, type TableTarget } from './tableTarget';

// A button's title, compared with the button the user clicked. Read when dist/features.js loads,
// on the first command: VS Code has the extension's bundle by then.
const SAVE_AND_IMPORT = vscode.l10n.t('Save and Import');

interface RowsImportOptions {
  /** Cancels as the notification's Cancel button does (tests). */
  signal?: AbortSignal;
  /** Told of every engine event (tests cancel part-way with it). */
  onProgress?: (event: Core.ImportProgress) => void;
}

/** What Import Table Rows as Spots did: the run's summary, and the lines that were not rows at all. */
export interface RowsImportSummary extends FolderImportSummary {
  unreadable: Rows.UnreadableRow[];
}

export function importRows(services: CommandServices, target?: unknown): Promise<RowsImportSummary | undefined> {
  return runRowsImport(services, target, {});
}

async function runRowsImport(services: CommandServices, arg: unknown, options: RowsImportOptions): Promise<RowsImportSummary | undefined> {
  const target = await tableTarget(arg);
  await requireMapping(target);
  await saveFirst(target, async (names) => {
    const question =
      names.length === 1
        ? vscode.l10n.t('{0} has unsaved changes: the import reads the files.', names[0])
        : vscode.l10n.t('{0} and {1} have unsaved changes: the import reads the files.', names.slice(0, -1).join(', '), names[names.length - 1]);
    return (await services.ui.showWarningMessage(question, { modal: true }, SAVE_AND_IMPORT)) === SAVE_AND_IMPORT;
  });
  const profile = await activeProfile(services);
  const unreadable: Rows.UnreadableRow[] = [];

  const run = await importWithProgress(
    services,
    { title: vscode.l10n.t('Importing the rows of {0} to {1}', target.name, profileLabel(profile)), subject: target.name, profile, signal: options.signal },
    async (run) => {
      run.say(vscode.l10n.t('Checking the rows…'));
      // The check the editor shows is the count of rows, and what is wrong with the mapping.
      const { checks } = await services.tables.ready();
      const state = await checks.checkNow(target.document);
      const opened = await checks.open(target.table, target.mapping);
      if (!opened) throw new ActionableError(vscode.l10n.t('{0} has no mapping.', target.name));
      const { mapped, rows } = opened;
      try {
        if (!mapped.mapping) throw await mappingRefusal(target, mapped.problems);
        // Rows' galleries have no document to go back to: the Galleries view lists them by spot.
        const engine = await run.engine({ target: target.table, lines: 'rows', record: { uriOf: () => undefined }, onProgress: options.onProgress });
        services.log.info('import', `rows of ${target.name}: ${state?.rowLines.length ?? '?'} rows (journal ${engine.journal.dir})`);
        const source = rows.rowSource(mapped.table, mapped.mapping, { signal: run.signal, onUnreadable: (row) => unreadable.push(row) });
        // The count of the check just made: the progress says "row n of N" (the file cannot have changed: it was saved).
        const counted: Core.SpotSource = state ? { ...source, total: state.rowLines.length } : source;
        const photos = await photoFetching(services, run.core, mapped.mapping, engine.journal.dir, run.signal);
        try {
          return await run.core.runImport(counted, { ...engine, writeBack: false, fetchPhoto: photos.fetchPhoto });
        } finally {
          await photos.dispose();
        }
      } finally {
        await opened.copy.dispose();
      }
    },
  );
  if (!run) return undefined;
  if (run.spots.length === 0 && unreadable.length === 0) {
    void services.ui.showInformationMessage(vscode.l10n.t('{0} has no rows to import.', target.name));
    return undefined;
  }
  const again = vscode.l10n.t('What was done stays done; importing the rows again finishes the rest (the journal in .spot-import remembers each step).');
  const subject: RunSubject = { name: target.name, items: 'rows', again, open: (spot) => openRowAtProblem(spot) };
  const summary = await reportRun(services, profile, subject, run);
  if (unreadable.length > 0) {
    services.log.warn(
      'import',
      `rows of ${target.name}: ${unreadable.length} line(s) could not be read as rows`,
      unreadable.map((row) => `line ${row.line}:${row.column}: ${row.problem}`),
    );
    const first = unreadable[0];
    const message =
      unreadable.length === 1
        ? vscode.l10n.t('1 line of {0} could not be read as rows and were left out (line {1}: {2}).', target.name, first.line, first.problem)
        : vscode.l10n.t(
            '{0} lines of {1} could not be read as rows and were left out (line {2}: {3}).',
            unreadable.length,
            target.name,
            first.line,
            first.problem,
          );
    showMessage(services, 'warning', message, [
      { title: vscode.l10n.t('Open at the Line'), run: () => openTableAt(target.table, first) },
      { title: vscode.l10n.t('Show Problems'), command: BUILT_IN_COMMAND.showProblems },
    ]);
  }
  return { ...summary, unreadable };
}

/** A mapping with errors: nothing is sent; the mapping opens at its first error. */
async function mappingRefusal(target: TableTarget, problems: readonly Rows.MappingProblem[]): Promise<ActionableError> {
  const errors = problems.filter((problem) => problem.severity === 'error');
  const first = errors[0];
  if (first) await openMappingAtProblem(target.mapping, first);
  const mappingName = vscode.workspace.asRelativePath(target.mapping, false);
  const message = !first
    ? vscode.l10n.t('Not imported, nothing was sent: the mapping {0} has {1} problems.', mappingName, errors.length)
    : errors.length === 1
      ? vscode.l10n.t('Not imported, nothing was sent: the mapping {0} has 1 problem: {1}', mappingName, first.message)
      : vscode.l10n.t('Not imported, nothing was sent: the mapping {0} has {1} problems: {2}', mappingName, errors.length, first.message);
  return new ActionableError(message, [{ title: vscode.l10n.t('Show Problems'), command: BUILT_IN_COMMAND.showProblems }]);
}

/** A row's spot: the table at the cell of its first error (or its first problem, or the row's start). */
async function openRowAtProblem(spot: Core.SpotOutcome): Promise<void> {
  const rows = await loadRows();
  if (!rows.isRowOrigin(spot.origin)) return;
  const problem = spot.problems.find((candidate) => candidate.severity === 'error') ?? spot.problems[0];
  const at = problem ? rows.placeRowProblem(spot.origin, problem) : { line: spot.origin.line, column: 1 };
  await openTableAt(vscode.Uri.file(spot.origin.source), at);
}
