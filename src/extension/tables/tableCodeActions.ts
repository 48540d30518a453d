// The quick fix on a table's rows whose latitude and longitude are probably swapped (a surveyor's X
// taken for the easting, a form's columns named crosswise, degrees that only the topic's area shows
// the wrong way round: rowLooksSwapped.ts): exchange the two columns in the
// table's mapping, which puts every such row right at once (a position column: the order its
// cells are read in). Its title says how many rows look
// swapped, as the same edit would spoil the rest when only one row was typed the wrong way round;
// it is the preferred fix only when every row checked looks swapped.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { SPOT_RULES } from '../../core/api/spotRules';
import { TOPIC_RULES } from '../../core/topics/topicProblem';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';
import { loadRows } from '../platform/lazyRows';
import { lastAtOrBefore, type TableChecks } from './tableChecks';

export class TableCodeActions {
  constructor(private readonly checks: TableChecks) {}

  async provideCodeActions(document: vscode.TextDocument, context: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const state = this.checks.state(document.uri);
    if (!state) return [];
    // The check judged each row (an area warning is a swap only when swapping brings the spot inside):
    // a problem of ours on such a row is one this fix is for.
    const onSwappedRow = (diagnostic: vscode.Diagnostic) => {
      const index = lastAtOrBefore(state.rowLines, diagnostic.range.start.line + 1);
      return index >= 0 && state.swappedRowLines.has(state.rowLines[index]);
    };
    const swapped = context.diagnostics.filter(
      (diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE && SWAP_CODES.has(String(codeOf(diagnostic))) && onSwappedRow(diagnostic),
    );
    if (swapped.length === 0) return [];
    const [mapping, rows] = await Promise.all([vscode.workspace.openTextDocument(state.mapping), loadRows()]);
    const swap = rows.swapCoordinateColumns(mapping.getText());
    if (!swap) return [];
    // Rows, not problems (a row may have one at each of its two cells), counted by the check itself:
    // the problems shown stop at a cap.
    const rowsSwapped = state.swappedRowLines.size;
    const file = basename(state.mapping.fsPath);
    // A position column has one cell for both: the fix says the order its cells are read in.
    const title =
      'position' in swap
        ? swap.order === 'longitude-latitude'
          ? vscode.l10n.t('Read the position column {0} longitude first in {1} ({2} of {3} rows look swapped)', swap.position, file, rowsSwapped, state.rows)
          : vscode.l10n.t('Read the position column {0} latitude first in {1} ({2} of {3} rows look swapped)', swap.position, file, rowsSwapped, state.rows)
        : vscode.l10n.t('Swap the latitude and longitude columns in {0} ({1} of {2} rows look swapped)', file, rowsSwapped, state.rows);
    const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
    action.diagnostics = swapped;
    action.isPreferred = rowsSwapped === state.rows;
    const edit = new vscode.WorkspaceEdit();
    for (const change of swap.edits) {
      edit.replace(mapping.uri, new vscode.Range(mapping.positionAt(change.offset), mapping.positionAt(change.offset + change.length)), change.content);
    }
    action.edit = edit;
    return [action];
  }
}

/** The problems a swapped row shows: the rule it shares with spot documents, and the topic's area warning. */
const SWAP_CODES: ReadonlySet<string> = new Set([SPOT_RULES.swappedCoordinates, TOPIC_RULES.outsideArea]);

function codeOf(diagnostic: vscode.Diagnostic): string | number | undefined {
  return typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
}
