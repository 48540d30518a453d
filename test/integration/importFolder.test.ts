// Import Folder over a fixture folder with good and bad files: the right summary, each failure
// with its file and reason, picking one opens it at the problem; skipped files stay skipped.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { FolderImportSummary } from '../../src/commands/importFolder';
import { installScriptedUi } from './helpers/scriptedUi';
import { closeAllEditors, counters, fixtureUri, useTestProfile } from './helpers/testEnv';

describe('Import Folder', () => {
  let restore: (() => void) | undefined;
  afterEach(async () => {
    restore?.();
    await closeAllEditors();
  });

  it('imports the good files, lists each failure with its reason, and opens a picked one at the problem', async () => {
    const { services, sandbox, profile } = await useTestProfile();
    const before = counters(sandbox).imports;
    const run = await installScriptedUi([
      { kind: 'quickPick', match: /^Imported 3 of 6 spot documents to Integration sandbox; 3 failed$/, pick: /missing-latitude/ },
    ]);
    restore = run.restore;
    const summary = await vscode.commands.executeCommand<FolderImportSummary>('spotImport.importFolder', fixtureUri('import', 'batch'));
    run.done();

    assert.strictEqual(summary.total, 6);
    assert.deepStrictEqual(summary.imported.map((entry) => entry.sourceId).sort(), ['it-batch-alpha', 'it-batch-bravo', 'it-batch-charlie']);
    const reasons = new Map(summary.failed.map((failure) => [failure.file.replace(/^.*import\/batch\//, ''), failure.reason]));
    assert.deepStrictEqual([...reasons.keys()].sort(), ['missing-latitude.spot.json', 'nested/broken-syntax.spot.json', 'pending-without-state.spot.json']);
    assert.match(reasons.get('missing-latitude.spot.json')!, /latitude is required/);
    assert.match(reasons.get('nested/broken-syntax.spot.json')!, /Not valid JSON/);
    assert.match(reasons.get('pending-without-state.spot.json')!, /fld_1_4 is pending/);
    assert.strictEqual(counters(sandbox).imports, before + 3, 'only the good files were sent');
    assert.ok(!sandbox.spotBySourceId('it-batch-hidden-folder'), 'dot-folders are skipped');

    const items = run.ui.shown[0].items ?? [];
    assert.strictEqual(items.length, 3);
    assert.ok(items.every((item) => item.startsWith('$(error) ')));

    const bravo = summary.imported.find((entry) => entry.sourceId === 'it-batch-bravo')!;
    assert.ok(services.galleries.list(profile.id).some((gallery) => gallery.spot?.spotId === bravo.spotId && gallery.field === 'fld_1_3' && gallery.pending));

    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.ok(editor.document.uri.path.endsWith('import/batch/missing-latitude.spot.json'), 'the picked file is open');
    assert.strictEqual(editor.document.getText(editor.selection), '"attributes"', 'at the object that lacks latitude');
  });

  it('asks for a folder from the palette, and says so when it holds no spot documents', async () => {
    const { sandbox } = await useTestProfile();
    const before = counters(sandbox).imports;
    const run = await installScriptedUi([
      { kind: 'openDialog', answer: [fixtureUri('upload')] },
      { kind: 'info', match: /^No spot documents under upload/ },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.importFolder');
    run.done();
    assert.strictEqual(counters(sandbox).imports, before);
  });

  it('ends quietly when the folder picker is dismissed', async () => {
    await useTestProfile();
    const run = await installScriptedUi([{ kind: 'openDialog', answer: undefined }]);
    restore = run.restore;
    assert.strictEqual(await vscode.commands.executeCommand('spotImport.importFolder'), undefined);
    run.done();
  });
});
