// Which spot document a command acts on: the Uri it was given (CodeLens, editor title and context
// menus, Explorer) or the active editor. The open document's text is used, saved or not, because
// that is what the user sees.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { isSpotDocument } from './spotDocuments';
import { ActionableError } from '../platform/errors';
import { COMMAND } from '../platform/commandIds';

export function displayName(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

export async function spotTargetDocument(arg: unknown): Promise<vscode.TextDocument> {
  if (arg instanceof vscode.Uri) return vscode.workspace.openTextDocument(arg);
  const editor = vscode.window.activeTextEditor;
  if (editor) return editor.document;
  throw new ActionableError(vscode.l10n.t('Open a spot document (a *.spot.json file) to import it, or create one.'), [
    { title: vscode.l10n.t('New Spot Document'), command: COMMAND.newSpotDocument },
  ]);
}

/** The target document when it is a spot document; otherwise an error that offers a new one. */
export async function spotTargetSpotDocument(core: typeof Core, arg: unknown): Promise<{ document: vscode.TextDocument; name: string }> {
  const document = await spotTargetDocument(arg);
  const name = displayName(document.uri);
  if (!isSpotDocument(core, document)) {
    throw new ActionableError(vscode.l10n.t('{0} is not a spot document: name it *.spot.json, or give it "data": {"type": "spots", …}.', name), [
      { title: vscode.l10n.t('New Spot Document'), command: COMMAND.newSpotDocument },
    ]);
  }
  return { document, name };
}

/** Opens the document with the problem selected, so the user lands where the fix is needed. */
export async function openAtProblem(uri: vscode.Uri, offset: number, length: number): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  const start = document.positionAt(offset);
  const selection = new vscode.Range(start, document.positionAt(offset + Math.max(0, length)));
  await vscode.window.showTextDocument(document, { selection, preview: false });
}
