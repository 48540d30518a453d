// Which documents the extension checks and assists (platform/checkedDocuments.ts): files, untitled
// documents and those of the window's folders whatever their file system (a virtual workspace's),
// not the old side of a diff, a git: copy, our previews or a document of another file system
// outside the window's folders. Commands that need files on disk run in this window (its folder
// is on disk). A window whose folder is virtual is test/integration/virtual/'s.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { checkedSchemes, isCheckedDocument, spotDocumentSelector } from '../../src/extension/platform/checkedDocuments';
import { COMMAND } from '../../src/extension/platform/commandIds';
import { isVirtualWorkspace, requireDiskFor } from '../../src/extension/platform/virtualWorkspace';
import { fixtureUri } from './helpers/testEnv';

describe('checked documents and virtual workspaces', () => {
  it("checks files, untitled documents and the documents of the window's folders, not copies or previews", () => {
    const file = fixtureUri('import', 'single', 'valid.spot.json');
    assert.ok(isCheckedDocument(file));
    assert.ok(isCheckedDocument(vscode.Uri.parse('untitled:Untitled-1')));
    assert.ok(!isCheckedDocument(file.with({ scheme: 'git', query: JSON.stringify({ path: file.fsPath, ref: 'HEAD' }) })), 'a git: copy');
    assert.ok(!isCheckedDocument(vscode.Uri.parse('spot-preview:/trees.csv%20row%203%20(spot).json')), "a row's preview");
    assert.ok(!isCheckedDocument(vscode.Uri.parse('vscode-vfs://github/someone/elsewhere/a.spot.json')), "another file system, outside the window's folders");
    assert.deepStrictEqual(checkedSchemes(), ['file', 'untitled']);
    assert.deepStrictEqual(new Set(spotDocumentSelector().map((filter) => filter.scheme)), new Set(['file', 'untitled']));
  });

  it('runs the commands that need files on disk in a window whose folder is on disk', () => {
    assert.strictEqual(isVirtualWorkspace(), false);
    assert.doesNotThrow(() => requireDiskFor(COMMAND.importFolder));
  });
});
