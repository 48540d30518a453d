// New Spot Document: a valid template (core.spotTemplate) in an untitled *.spot.json editor, so
// the generated schema and the diagnostics apply from the first keystroke. Given a folder (from
// the Explorer) it writes the file there instead. The source_id is selected, ready to type over.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../platform/services';

function suggestedSourceId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `spot-${stamp}`;
}

async function freeName(folder: vscode.Uri, base: string): Promise<vscode.Uri> {
  for (let index = 1; ; index++) {
    const uri = vscode.Uri.joinPath(folder, `${base}${index === 1 ? '' : `-${index}`}.spot.json`);
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      return uri;
    }
  }
}

export async function newSpotDocument(services: ExtensionServices, target?: unknown): Promise<vscode.Uri> {
  const core = await services.core();
  const sourceId = suggestedSourceId();
  const topicId = services.profiles.active()?.topicId ?? 1;
  const text = JSON.stringify(core.spotTemplate(sourceId, topicId), null, 2) + '\n';

  let document: vscode.TextDocument;
  if (target instanceof vscode.Uri) {
    const uri = await freeName(target, sourceId);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    document = await vscode.workspace.openTextDocument(uri);
  } else {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${sourceId}.spot.json`;
    const uri = folder ? vscode.Uri.joinPath(folder, name).with({ scheme: 'untitled' }) : vscode.Uri.from({ scheme: 'untitled', path: name });
    document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), text);
    await vscode.workspace.applyEdit(edit);
  }
  const offset = document.getText().indexOf(`"${sourceId}"`) + 1;
  const selection = new vscode.Selection(document.positionAt(offset), document.positionAt(offset + sourceId.length));
  await vscode.window.showTextDocument(document, { selection, preview: false });
  services.log.info('documents', `new spot document ${document.uri.path}`);
  return document.uri;
}
