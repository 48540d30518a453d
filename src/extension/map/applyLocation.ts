// The map's writes to a spot document: Pick Location's latitude and longitude, and Swap, each as
// one WorkspaceEdit (one undo step) made of the core's text edits, so formatting is kept.
import * as vscode from 'vscode';
import { setLocationEdits } from '../../core/map';
import { TOPIC_RULES, topicQuickFixes, type TopicCatalog } from '../../core/topics';

export async function applyLocation(uri: vscode.Uri, latitude: number, longitude: number, precision: number): Promise<{ latitude: number; longitude: number }> {
  const document = await vscode.workspace.openTextDocument(uri);
  const result = setLocationEdits(document.getText(), latitude, longitude, precision);
  if (!result.ok) throw new Error(`${vscode.workspace.asRelativePath(uri, false)}: ${result.reason}`);
  if (result.edits.length > 0) {
    const edit = new vscode.WorkspaceEdit();
    for (const change of result.edits) {
      edit.replace(uri, new vscode.Range(document.positionAt(change.offset), document.positionAt(change.offset + change.length)), change.content);
    }
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(vscode.l10n.t('{0} could not be changed.', vscode.workspace.asRelativePath(uri, false)));
  }
  return { latitude: result.latitude, longitude: result.longitude };
}

/**
 * The map's Swap: latitude and longitude exchanged as the quick fix of the Problems panel does it
 * (the core's topicQuickFixes, so the two values stay exactly as written), one undo step; only
 * when swapping puts the spot in its place (a position, inside its topic's area).
 */
export async function swapLocation(uri: vscode.Uri, catalog: TopicCatalog | undefined): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  const [fix] = topicQuickFixes(document.getText(), TOPIC_RULES.swappedCoordinates, 0, catalog ?? new Map());
  if (!fix)
    throw new Error(vscode.l10n.t('{0}: swapping latitude and longitude would not put the spot in its place.', vscode.workspace.asRelativePath(uri, false)));
  const edit = new vscode.WorkspaceEdit();
  for (const change of fix.edits) {
    edit.replace(uri, new vscode.Range(document.positionAt(change.offset), document.positionAt(change.offset + change.length)), change.content);
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(vscode.l10n.t('{0} could not be changed.', vscode.workspace.asRelativePath(uri, false)));
}
