// Restricted Mode in a real extension host: the window's folder is not trusted (this suite's
// launcher keeps Workspace Trust on). The extension is active and checks documents; importing and
// uploading say they are off and offer VS Code's Manage Workspace Trust, and send nothing; the
// local sandbox does not start.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { SANDBOX_PROFILE_ID } from '../../../src/extension/platform/domain';
import { installScriptedUi } from '../helpers/scriptedUi';
import { closeAllEditors, counters, fixtureUri, spotDiagnostics, useTestProfile, waitFor } from '../helpers/testEnv';

const OFF = (what: string) => new RegExp(`^${what} is off in Restricted Mode: this folder is not trusted\\. Trust the folder to turn it on\\.`);

describe('Restricted Mode (an untrusted folder)', () => {
  let restore: (() => void) | undefined;
  afterEach(async () => {
    restore?.();
    restore = undefined;
    await closeAllEditors();
  });

  it('runs in a folder that is not trusted, active, and checks spot documents as they are opened', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false, 'the launcher opened the folder untrusted');
    const extension = vscode.extensions.getExtension('spot-tools.spot-import')!;
    await extension.activate();
    assert.ok(extension.isActive);
    const uri = fixtureUri('import', 'single', 'pending-needs-state.spot.json');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const problems = await waitFor("the document's diagnostics", () => spotDiagnostics(uri).length > 0 && spotDiagnostics(uri));
    assert.ok(problems.length > 0);
  });

  it('Import Spot says it is off, offers Manage Workspace Trust, and sends nothing', async () => {
    const { sandbox } = await useTestProfile();
    const before = counters(sandbox).imports;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fixtureUri('import', 'single', 'valid.spot.json')));
    const run = await installScriptedUi([{ kind: 'warning', match: OFF('Import Spot') }]);
    restore = run.restore;
    const result = await vscode.commands.executeCommand('spotImport.importSpot');
    run.done();
    assert.strictEqual(result, undefined);
    assert.deepStrictEqual(run.ui.shown[0].buttons, ['Manage Workspace Trust']);
    assert.strictEqual(counters(sandbox).imports, before, 'nothing was imported');
  });

  it('Import Folder and an upload into a gallery say the same, and send nothing', async () => {
    const { sandbox } = await useTestProfile();
    const before = counters(sandbox);
    const run = await installScriptedUi([
      { kind: 'warning', match: OFF('Import Folder') },
      { kind: 'warning', match: OFF('Uploading media') },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.importFolder', fixtureUri('import', 'single'));
    await vscode.commands.executeCommand('spotImport.uploadToGallery', fixtureUri('import', 'single', 'valid.spot.json'));
    run.done();
    const after = counters(sandbox);
    assert.deepStrictEqual([after.imports, after.uploads], [before.imports, before.uploads]);
  });

  it('does not start the local sandbox, and says why', async () => {
    const { services } = await useTestProfile();
    await services.profiles.setActive(SANDBOX_PROFILE_ID);
    try {
      await assert.rejects(services.clients.client(), (error: Error) => OFF('The local sandbox').test(error.message));
    } finally {
      await useTestProfile();
    }
  });
});
