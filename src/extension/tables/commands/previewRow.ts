// Preview Spots: the spot document a row of a table becomes, read-only and exactly as the import
// sends it, beside the table; for the row given (the CodeLens) or the row under the cursor. A row
// with problems is shown as far as it could be made, and the problems are said.
import * as vscode from 'vscode';
import { BUILT_IN_COMMAND } from '../../platform/commandIds';
import { ActionableError } from '../../platform/errors';
import { showMessage } from '../../platform/errorActions';
import { lastAtOrBefore } from '../tableChecks';
import type { CommandServices } from '../../commands/commandTable';
import { openMappingAtProblem } from './openTableAt';
import { requireMapping, tableTarget } from './tableTarget';

/** `line`: 1-based, any line of the row (the CodeLens gives the row's first). */
export async function previewRow(services: CommandServices, arg?: unknown, lineArg?: unknown): Promise<vscode.TextEditor> {
  const target = await tableTarget(arg);
  await requireMapping(target);
  const editor = vscode.window.activeTextEditor;
  const cursor = editor?.document.uri.toString() === target.document.toString() ? editor.selection.active.line + 1 : 1;
  const line = typeof lineArg === 'number' ? lineArg : cursor;
  const { checks, previews } = await services.tables.ready();
  const state = checks.state(target.document) ?? (await checks.checkNow(target.document));
  if (!state)
    throw new ActionableError(vscode.l10n.t('{0} could not be read as a table: see the Problems panel.', target.name), [
      { title: vscode.l10n.t('Show Problems'), command: BUILT_IN_COMMAND.showProblems },
    ]);
  if (state.mappingBroken) {
    const opened = await checks.open(target.table, target.mapping);
    await opened?.copy.dispose();
    const first = opened?.mapped.problems.find((problem) => problem.severity === 'error');
    if (first) await openMappingAtProblem(target.mapping, first);
    const mappingName = vscode.workspace.asRelativePath(target.mapping, false);
    const message = first
      ? vscode.l10n.t('No preview: the mapping {0} has problems: {1}', mappingName, first.message)
      : vscode.l10n.t('No preview: the mapping {0} has problems.', mappingName);
    throw new ActionableError(message, [{ title: vscode.l10n.t('Show Problems'), command: BUILT_IN_COMMAND.showProblems }]);
  }
  if (state.rowLines.length === 0) throw new ActionableError(vscode.l10n.t('{0} has no rows to preview.', target.name));
  // On the header (or a title row above it): the first row.
  const rowLine = state.rowLines[Math.max(0, lastAtOrBefore(state.rowLines, line))];
  const found = await checks.rowAt(target.document, rowLine);
  if (!found?.checked.spot)
    throw new ActionableError(vscode.l10n.t('The row at line {0} of {1} could not be read: see the Problems panel.', line, target.name), [
      { title: vscode.l10n.t('Show Problems'), command: BUILT_IN_COMMAND.showProblems },
    ]);
  const { checked } = found;
  const shown = await previews.show(target.name, checked.row ?? '?', checked.spot!.text);
  const errors = checked.findings.filter((finding) => finding.severity === 'error');
  if (errors.length > 0) {
    showMessage(
      services,
      'warning',
      vscode.l10n.t(
        'Row {0} (line {1}) is not imported as it stands: {2}',
        String(checked.row),
        checked.line,
        errors.map((finding) => finding.message).join(' '),
      ),
      [{ title: vscode.l10n.t('Show Problems'), command: BUILT_IN_COMMAND.showProblems }],
    );
  }
  services.log.info('rows', `preview of ${checked.label}${checked.sourceId ? ` ("${checked.sourceId}")` : ''}: ${errors.length} problem(s)`);
  return shown;
}
