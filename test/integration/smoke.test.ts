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

  it('starts dist/extension.js from dist/start.js (package.json main), through the code cache, under its own name', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    await extension.activate();
    assert.strictEqual(extension.packageJSON.main, './dist/start.js');
    // require.cache is keyed by the real path, as start.js's __dirname is.
    const dist = path.join(fs.realpathSync(extension.extensionPath), 'dist');
    const main = require.cache[path.join(dist, 'extension.js')];
    assert.ok(main?.loaded, 'dist/extension.js is registered as loaded');
    // The bundles that take the extension's modules require it by that name: they get the running one.
    assert.strictEqual(require(path.join(dist, 'extension.js')), main.exports);
    const start = require(path.join(dist, 'start.js')) as { codeCacheStatus(): string; saveCodeCache(): Promise<boolean> };
    // A window that compiled it saves what it compiled; one that started from the cache has nothing to save.
    const saved = await start.saveCodeCache();
    assert.ok(
      start.codeCacheStatus() === 'used' || (saved && fs.existsSync(path.join(dist, 'extension.js.v8cache'))),
      `${start.codeCacheStatus()}, saved: ${saved}`,
    );
  });
});
