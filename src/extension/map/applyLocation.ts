// Pick Location's write: the latitude and longitude as one WorkspaceEdit (one undo step), made of
// the core's text edits (the same ones the state write-back uses), so formatting is kept.
import * as vscode from 'vscode';
import { setLocationEdits } from '../../core/map';

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
