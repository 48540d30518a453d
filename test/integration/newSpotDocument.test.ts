// New Spot Document creates a valid template that the schema and diagnostics apply to.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { extensionServices } from './helpers/scriptedUi';
import { closeAllEditors, spotDiagnostics, useTestProfile } from './helpers/testEnv';

describe('New Spot Document', () => {
  afterEach(closeAllEditors);

  it('opens an untitled *.spot.json with a valid template and the source_id selected', async () => {
    await useTestProfile();
    const services = await extensionServices();
    const uri = await vscode.commands.executeCommand<vscode.Uri>('spotImport.newSpotDocument');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.strictEqual(editor.document.uri.toString(), uri.toString());
    assert.strictEqual(uri.scheme, 'untitled');
    assert.match(uri.path, /\.spot\.json$/);
    const parsed = (await services.core()).parseSpotText(editor.document.getText());
    assert.deepStrictEqual(parsed.problems, []);
    assert.strictEqual(editor.document.getText(editor.selection), (parsed.value as { data: { attributes: { source_id: string } } }).data.attributes.source_id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepStrictEqual(spotDiagnostics(uri), []);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('writes the template into a folder given by the Explorer', async () => {
    await useTestProfile();
    const services = await extensionServices();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-new-'));
    try {
      const uri = await vscode.commands.executeCommand<vscode.Uri>('spotImport.newSpotDocument', vscode.Uri.file(folder));
      assert.strictEqual(uri.scheme, 'file');
      assert.strictEqual(path.dirname(uri.fsPath), folder);
      const parsed = (await services.core()).parseSpotText(fs.readFileSync(uri.fsPath, 'utf8'));
      assert.deepStrictEqual(parsed.problems, []);
    } finally {
      await closeAllEditors();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
