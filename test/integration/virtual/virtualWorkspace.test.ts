// A virtual workspace in a real extension host: the window's folder is the fixture workspace served
// read-only under spotvfs: (test/fixtures/virtualFsExtension), no file of it on this machine's disk
// as far as VS Code knows, as with a repository opened from GitHub. What package.json's
// capabilities.virtualWorkspaces promises: documents are checked and assisted, topic definitions
// are read from the folder through VS Code's file system; the commands that need files on disk
// say so and do nothing.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { checkedSchemes, isCheckedDocument } from '../../../src/extension/platform/checkedDocuments';
import { COMMAND } from '../../../src/extension/platform/commandIds';
import { isVirtualWorkspace, requireDiskFor } from '../../../src/extension/platform/virtualWorkspace';
import { spotDiagnostics, waitFor } from '../helpers/testEnv';

const folder = () => vscode.workspace.workspaceFolders?.[0]?.uri;

describe('virtual workspace (a folder of another file system)', () => {
  before(async () => {
    await vscode.extensions.getExtension('spot-tools.spot-import')!.activate();
  });

  it("runs in a window whose only folder is virtual, and checks that folder's documents", () => {
    assert.strictEqual(folder()?.scheme, 'spotvfs');
    assert.strictEqual(isVirtualWorkspace(), true);
    assert.ok(checkedSchemes().includes('spotvfs'), checkedSchemes().join(', '));
    assert.ok(isCheckedDocument(vscode.Uri.joinPath(folder()!, 'topics', 'label.spot.json')));
  });

  it('checks a spot document of the virtual folder against the topic definition read from it', async () => {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder()!, 'topics', 'label.spot.json'));
    await vscode.window.showTextDocument(document);
    // "Beech" is a category label of topic 7's definition (spot-topics/7.topic.json of the same
    // virtual folder): found only if the definition was read through VS Code's file system.
    const diagnostics = await waitFor(
      'the label problem from the topic definition',
      () => {
        const found = spotDiagnostics(document.uri).filter((diagnostic) => diagnostic.code === 'topic.categoryLabel');
        return found.length > 0 && found;
      },
      20_000,
    );
    assert.ok(
      diagnostics.some((diagnostic) => document.getText(diagnostic.range).includes('Beech')),
      diagnostics.map((d) => d.message).join('\n'),
    );
  });

  it('says that Import Folder, Import Spot with Media and Import Rows need the folder on disk', () => {
    for (const command of [COMMAND.importFolder, COMMAND.importSpotWithMedia, COMMAND.importRows]) {
      assert.throws(() => requireDiskFor(command), /needs the folder on this machine's disk, and this window's folder is virtual/);
    }
    assert.doesNotThrow(() => requireDiskFor(COMMAND.importSpot));
  });
});
