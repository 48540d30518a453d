// Smoke: the extension under development is present in this VS Code and activates.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'spot-tools.spot-import';

describe('smoke', () => {
  it('runs in a real VS Code extension host', () => {
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    assert.ok(vscode.workspace.workspaceFolders?.length, 'the fixture workspace is open');
  });

  it('finds the extension under development by its id', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    assert.strictEqual(extension.packageJSON.name, 'spot-import');
  });

  it('activates and registers every contributed command', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    const main = path.join(extension.extensionPath, 'dist', 'extension.js');
    assert.ok(fs.existsSync(main), `${main} exists (npm run build)`);
    const contributed: Array<{ command: string }> = extension.packageJSON.contributes?.commands ?? [];
    assert.ok(contributed.length > 0, 'package.json contributes commands');
    await extension.activate();
    assert.ok(extension.isActive);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepStrictEqual(missing, [], 'contributed commands without a registration');
  });
});
