// The walkthrough's example spot document. It lives in the extension's global storage, not in the
// user's workspace: trying the extension must not add files to a project. It is written once and
// then left alone, so the user's edits to it survive a second click on "Open an Example".
import * as vscode from 'vscode';
import type { ExtensionServices } from '../platform/services';
import { COMMAND } from '../platform/commandIds';

const EXAMPLE_FILE_NAME = 'walkthrough-oak.spot.json';

/**
 * A spot of topic 1 (the sandbox's) with one pending gallery: fld_1_10 is null, so the import
 * creates an empty gallery, and state 2 (in progress) is what a spot with a pending gallery needs.
 */
const EXAMPLE_SPOT = {
  data: {
    type: 'spots',
    attributes: {
      topic_id: 1,
      source_id: 'walkthrough-oak-0001',
      latitude: 48.2082,
      longitude: 16.3738,
      state: 2,
      privacy_type: 0,
      fld_1_10: null,
      fld_1_3: 'Quercus robur',
    },
  },
};

function exampleUri(services: ExtensionServices): vscode.Uri {
  return vscode.Uri.joinPath(services.context.globalStorageUri, 'walkthrough', EXAMPLE_FILE_NAME);
}

/** The example's address, after writing it if it is not there yet. */
async function ensureExample(services: ExtensionServices): Promise<vscode.Uri> {
  const uri = exampleUri(services);
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(EXAMPLE_SPOT, null, 2)}\n`));
    services.log.info('walkthrough', `wrote the example spot document ${uri.fsPath}`);
  }
  return uri;
}

/** Beside the walkthrough, so its next step's button stays in view. */
async function showExample(uri: vscode.Uri): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
}

export async function openExample(services: ExtensionServices): Promise<void> {
  await showExample(await ensureExample(services));
}

export async function importExample(services: ExtensionServices): Promise<void> {
  const uri = await ensureExample(services);
  await showExample(uri);
  await vscode.commands.executeCommand(COMMAND.importSpot, uri);
}
