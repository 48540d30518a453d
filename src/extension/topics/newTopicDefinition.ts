// "New Topic Definition from Document": writes spot-topics/<topic_id>.topic.json inferred from the
// open spot document (types from its values, labels empty) and opens it for the author to
// complete. An existing definition is opened, never overwritten.
import * as vscode from 'vscode';
import { spotTargetDocument } from '../documents/spotTarget';
import { loadCore } from '../platform/lazyCore';
import type { Logger } from '../platform/services';
import type { TopicStore } from './topicStore';

/** Resolves with the definition file's Uri (written or already there), or undefined when nothing could be written. */
export async function newTopicDefinition(store: TopicStore, log: Logger, target?: unknown): Promise<vscode.Uri | undefined> {
  const document = await spotTargetDocument(target);
  const core = await loadCore();
  const inferred = core.inferTopicDefinition(document.getText());
  if (!inferred.ok) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Cannot infer a topic definition: {0}', inferred.reason));
    return undefined;
  }
  const folder = store.topicsFolderFor(document.uri);
  if (!folder) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Open a folder first: topic definitions are kept in its spot-topics folder.'));
    return undefined;
  }
  const uri = vscode.Uri.joinPath(folder, `${inferred.topicId}.topic.json`);
  if (await exists(uri)) {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    const path = vscode.workspace.asRelativePath(uri, false);
    void vscode.window.showInformationMessage(vscode.l10n.t('Topic {0} has a definition already: {1}. It was opened, not changed.', inferred.topicId, path));
    return uri;
  }
  await vscode.workspace.fs.createDirectory(folder);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(inferred.text));
  log.info('topics', `wrote a topic definition inferred from ${document.uri.path} to ${uri.path}`);
  await store.reloadFor(document.uri);
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  // Land on the first empty label: the author's first thing to fill in.
  const offset = editor.document.getText().indexOf('"label": ""');
  if (offset >= 0) editor.selection = new vscode.Selection(editor.document.positionAt(offset + 10), editor.document.positionAt(offset + 10));
  return uri;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
