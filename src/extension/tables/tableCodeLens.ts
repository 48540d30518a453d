// The CodeLens of a table: with a mapping, "Import N rows as spots" and "Preview spot of this
// row" (the row the cursor is in), or what is wrong with the mapping; without one, "Create
// Mapping for this File". Counts come from the last check (tableChecks.ts).
import * as vscode from 'vscode';
import { COMMAND } from '../platform/commandIds';
import { lastAtOrBefore, type TableChecks } from './tableChecks';
import { isTableUri } from './tableUris';

export class TableCodeLens implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly checks: TableChecks) {
    this.subscriptions = [
      this.changed,
      checks.onDidCheck(() => this.changed.fire()),
      // "This row" follows the cursor.
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (isTableUri(event.textEditor.document.uri)) this.changed.fire();
      }),
    ];
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!isTableUri(document.uri)) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const state = this.checks.state(document.uri);
    if (!state)
      return [
        new vscode.CodeLens(top, { title: vscode.l10n.t('$(add) Create Mapping for this File'), command: COMMAND.createMapping, arguments: [document.uri] }),
      ];
    if (state.mappingBroken) {
      return [
        new vscode.CodeLens(top, {
          title: vscode.l10n.t('$(error) The mapping has problems: the rows are not checked'),
          command: 'vscode.open',
          arguments: [state.mapping],
        }),
      ];
    }
    const valid = state.rows - state.invalid;
    const lenses = [
      new vscode.CodeLens(top, {
        title: importRowsTitle(valid, state.invalid),
        command: COMMAND.importRows,
        arguments: [document.uri],
      }),
    ];
    const editor = vscode.window.activeTextEditor;
    if (editor?.document === document) {
      const index = lastAtOrBefore(state.rowLines, editor.selection.active.line + 1);
      if (index >= 0) {
        const line = state.rowLines[index] - 1;
        const title = vscode.l10n.t('$(preview) Preview spot of this row (row {0})', index + 1);
        lenses.push(new vscode.CodeLens(new vscode.Range(line, 0, line, 0), { title, command: COMMAND.previewRow, arguments: [document.uri, line + 1] }));
      }
    }
    return lenses;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** "Import N rows as spots", and how many are left out for their problems (whole sentences for each case). */
function importRowsTitle(valid: number, invalid: number): string {
  if (invalid === 1) {
    return valid === 1
      ? vscode.l10n.t('$(cloud-upload) Import 1 row as spots (1 with problems is left out)')
      : vscode.l10n.t('$(cloud-upload) Import {0} rows as spots (1 with problems is left out)', valid);
  }
  if (invalid > 1) {
    return valid === 1
      ? vscode.l10n.t('$(cloud-upload) Import 1 row as spots ({0} with problems are left out)', invalid)
      : vscode.l10n.t('$(cloud-upload) Import {0} rows as spots ({1} with problems are left out)', valid, invalid);
  }
  return valid === 1 ? vscode.l10n.t('$(cloud-upload) Import 1 row as spots') : vscode.l10n.t('$(cloud-upload) Import {0} rows as spots', valid);
}
