// Import Folder over a fixture folder with good and bad files: the right summary, each failure
// with its file and reason, picking one opens it at the problem; skipped files stay skipped. A run
// cut short (cancelled, or the credentials refused part-way) still says what was imported, what
// failed and what was never attempted.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { runFolderImport, type FolderImportSummary } from '../../src/extension/import/importFolder';
import { useCaptureProfile, type CaptureProfile } from './helpers/captureProfile';
import { RejectingProxy } from './helpers/rejectingProxy';
import { installScriptedUi } from './helpers/scriptedUi';
import { closeAllEditors, counters, fixtureUri, TEST_CLIENT, useTestProfile, waitFor } from './helpers/testEnv';

/**
 * A folder outside the workspace with spot documents named `${prefix}-1` … (sorted as numbered).
 * `withGallery`: each document asks for a pending gallery (fld_1_3).
 */
function spotFolder(prefix: string, count: number, extra: Record<string, string> = {}, withGallery = false): { uri: vscode.Uri; sourceIds: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const sourceIds: string[] = [];
  for (let index = 1; index <= count; index++) {
    const sourceId = `${prefix}-${Date.now().toString(36)}-${index}`;
    sourceIds.push(sourceId);
    const gallery = withGallery ? { state: 2, fld_1_3: null } : {};
    const document = { data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 47.07, longitude: 15.44, ...gallery } } };
    fs.writeFileSync(path.join(dir, `b-${String(index).padStart(2, '0')}.spot.json`), JSON.stringify(document, null, 2));
  }
  for (const [name, text] of Object.entries(extra)) fs.writeFileSync(path.join(dir, name), text);
  return { uri: vscode.Uri.file(dir), sourceIds };
}

async function setConcurrency(value: number | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('spotImport').update('bulkImport.concurrency', value, vscode.ConfigurationTarget.Global);
}

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

    // Every spot of the run, failures first.
    const items = run.ui.shown[0].items ?? [];
    assert.strictEqual(items.length, 6);
    assert.ok(
      items.slice(0, 3).every((item) => item.startsWith('$(error) ')),
      items.join(' | '),
    );
    assert.ok(
      items.slice(3).every((item) => item.startsWith('$(check) ')),
      items.join(' | '),
    );

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

  it('says what was imported and what was not when cancelled part-way', async () => {
    const { services, sandbox } = await useTestProfile();
    const { uri, sourceIds } = spotFolder('it-cancel-folder', 8);
    await setConcurrency(1);
    sandbox.setFaults({ latencyMs: 400, appliesTo: ['import'] });
    const run = await installScriptedUi([
      {
        kind: 'warning',
        match:
          /^Cancelled: imported 2 of 8 spot documents from .*it-cancel-folder-.* to Integration sandbox \("it-cancel-folder-.*-1", "it-cancel-folder-.*-2"\); 6 not attempted\. What was done stays done; importing the folder again finishes the rest/,
      },
    ]);
    restore = run.restore;
    try {
      // Cancel as the notification's button would, while the third import is on its way.
      const cancel = new AbortController();
      const summary = await runFolderImport(services, uri, {
        signal: cancel.signal,
        onProgress: (event) => {
          if (event.kind === 'spotDone' && event.done === 2) setTimeout(() => cancel.abort(), 100);
        },
      });
      run.done();
      assert.ok(summary);
      assert.strictEqual(summary.stopped, 'cancelled');
      assert.deepStrictEqual(
        summary.imported.map((entry) => entry.sourceId),
        sourceIds.slice(0, 2),
      );
      assert.deepStrictEqual(summary.failed, []);
      assert.strictEqual(summary.notAttempted.length, 6);
      assert.deepStrictEqual(run.ui.shown[0].buttons, ['Show Details'], 'every spot, in a pick');
      for (const sourceId of sourceIds.slice(0, 2)) assert.ok(sandbox.spotBySourceId(sourceId), `${sourceId} arrived`);
      for (const sourceId of sourceIds.slice(3)) assert.ok(!sandbox.spotBySourceId(sourceId), `${sourceId} was never sent`);
    } finally {
      sandbox.setFaults({});
      await setConcurrency(undefined);
    }
  });

  it('remembers pending galleries while the run goes on, not only at its end', async () => {
    const { services, sandbox, profile } = await useTestProfile();
    const { uri, sourceIds } = spotFolder('it-pending-batches', 10, {}, true);
    await setConcurrency(1);
    // 10 imports of at least 300 ms each: the run lasts 3 s or more, the first write comes after 1 s.
    sandbox.setFaults({ latencyMs: 300, appliesTo: ['import'] });
    const run = await installScriptedUi([{ kind: 'info', match: /^Imported all 10 spot documents/ }]);
    restore = run.restore;
    const ours = () => services.galleries.list(profile.id).filter((gallery) => gallery.spot && sourceIds.includes(gallery.spot.sourceId));
    try {
      let finished = false;
      const importing = runFolderImport(services, uri, { recordEvery: { galleries: 100, ms: 1000 } }).finally(() => {
        finished = true;
      });
      const early = await waitFor('pending galleries recorded during the run', () => (ours().length > 0 ? ours() : undefined), 10_000);
      assert.ok(!finished, 'recorded before the run ended');
      assert.ok(early.length < 10, `only those imported so far (${early.length})`);
      assert.ok(early.every((gallery) => gallery.pending && gallery.field === 'fld_1_3'));

      const summary = await importing;
      run.done();
      assert.strictEqual(summary?.imported.length, 10);
      assert.deepStrictEqual(
        ours()
          .map((gallery) => gallery.spot?.sourceId)
          .sort(),
        [...sourceIds].sort(),
        'the last batch is written when the run ends',
      );
    } finally {
      sandbox.setFaults({});
      await setConcurrency(undefined);
      for (const gallery of ours()) await services.galleries.remove(profile.id, gallery.galleryId);
    }
  });

  it('stops when the credentials are rejected part-way, and offers Update Credentials for that profile', async () => {
    const { services, sandbox } = await useTestProfile();
    const proxy = await RejectingProxy.start(sandbox.baseUrl);
    const profile = await services.profiles.add({ name: 'IT revoked client', baseUrl: proxy.baseUrl, apiVersion: 'v2.4' });
    const { uri, sourceIds } = spotFolder('it-revoked', 5, {
      'a-missing-latitude.spot.json': JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: 'it-revoked-bad', longitude: 1 } } }),
    });
    const run = await installScriptedUi([
      {
        kind: 'error',
        match: /^Stopped: credentials rejected — imported 1 of 6 spot documents from .*it-revoked-.* to IT revoked client; 1 failed; 4 not attempted\. .*/,
        button: 'Update Credentials',
      },
      // The button runs Set Client Credentials for the profile the run used; dismissing it ends it.
      { kind: 'input', match: /IT revoked client/, answer: undefined },
    ]);
    restore = run.restore;
    try {
      await services.credentials.set(profile.id, TEST_CLIENT);
      await services.profiles.setActive(profile.id);
      await setConcurrency(1);
      proxy.rejectAfterImports = 1;
      const summary = await vscode.commands.executeCommand<FolderImportSummary>('spotImport.importFolder', uri);
      await waitFor('Set Client Credentials after the button', () => run.ui.shown.length === 2);
      run.done();
      assert.strictEqual(summary.stopped, 'credentialsRejected');
      assert.deepStrictEqual(
        summary.imported.map((entry) => entry.sourceId),
        [sourceIds[0]],
      );
      assert.deepStrictEqual(
        summary.failed.map((entry) => path.basename(entry.file)),
        ['a-missing-latitude.spot.json'],
      );
      assert.strictEqual(summary.notAttempted.length, 4);
      assert.deepStrictEqual(run.ui.shown[0].buttons, ['Show Details', 'Update Credentials', 'Show Log']);
      assert.strictEqual(await services.profiles.state(profile), 'rejected', 'the status bar shows the rejection');
      assert.strictEqual(proxy.importsForwarded, 1);
      assert.ok(sandbox.spotBySourceId(sourceIds[0]));
      assert.ok(!sandbox.spotBySourceId(sourceIds[2]));
    } finally {
      await setConcurrency(undefined);
      await services.credentials.delete(profile.id);
      await services.profiles.remove(profile.id);
      await proxy.close();
      await useTestProfile();
    }
  });

  it('does not loop through a symbolic link to an enclosing folder', async () => {
    const { sandbox } = await useTestProfile();
    const { uri, sourceIds } = spotFolder('it-symlink', 1);
    fs.mkdirSync(path.join(uri.fsPath, 'sub'));
    fs.symlinkSync(uri.fsPath, path.join(uri.fsPath, 'sub', 'loop'), 'dir');
    const before = counters(sandbox).imports;
    const run = await installScriptedUi([{ kind: 'info', match: /^Imported all 1 spot documents from / }]);
    restore = run.restore;
    const summary = await vscode.commands.executeCommand<FolderImportSummary>('spotImport.importFolder', uri);
    run.done();
    assert.strictEqual(summary.total, 1);
    assert.deepStrictEqual(
      summary.imported.map((entry) => entry.sourceId),
      sourceIds,
    );
    assert.strictEqual(counters(sandbox).imports, before + 1);
  });

  it('says so when the folder holds more than one run takes, instead of "all"', async () => {
    const { services } = await useTestProfile();
    const { uri, sourceIds } = spotFolder('it-limit', 3);
    const run = await installScriptedUi([
      {
        kind: 'warning',
        match:
          /^Imported 2 spot documents from .*it-limit-.* to Integration sandbox — but .* holds more than one run takes \(2 spot documents or 100 JSON files\), so some documents were not looked at/,
      },
    ]);
    restore = run.restore;
    const summary = await runFolderImport(services, uri, { limits: { files: 2, candidates: 100 } });
    run.done();
    assert.ok(summary?.truncated);
    assert.deepStrictEqual(
      summary.imported.map((entry) => entry.sourceId),
      sourceIds.slice(0, 2),
    );
  });

  it('cancelled while looking for documents: says nothing was sent', async () => {
    const { services, sandbox } = await useTestProfile();
    const { uri } = spotFolder('it-cancel-early', 2);
    const before = counters(sandbox).imports;
    const run = await installScriptedUi([{ kind: 'warning', match: /^Import of .*it-cancel-early-.* cancelled before anything was sent\.$/ }]);
    restore = run.restore;
    assert.strictEqual(await runFolderImport(services, uri, { signal: AbortSignal.abort() }), undefined);
    run.done();
    assert.strictEqual(counters(sandbox).imports, before);
  });
});

describe('Import Spot and Import Folder send the same bytes', () => {
  let capture: CaptureProfile | undefined;
  let restore: (() => void) | undefined;
  afterEach(async () => {
    restore?.();
    await closeAllEditors();
    await capture?.close();
    capture = undefined;
  });

  it('puts the file as written on the wire from both commands, less its byte-order mark (CRLF and odd spacing kept)', async () => {
    capture = await useCaptureProfile('IT capture');
    const sourceId = `it-same-bytes-${Date.now().toString(36)}`;
    const text = [
      '{ "data" :{',
      '\t"type":"spots" ,   "attributes": {',
      `   "topic_id" : 1.0, "source_id":"${sourceId}",`,
      '  "latitude":47.0700, "longitude" :  15.44e0 ,"fld_1_9":"kept as written"',
      '}}  }',
      '',
    ].join('\r\n');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-same-bytes-'));
    const file = path.join(dir, 'same.spot.json');
    fs.writeFileSync(file, '\uFEFF' + text, 'utf8');

    // The folder first: its journal then knows the text, and a second folder run would send
    // nothing; Import Spot sends the document whatever the journal knows.
    const run = await installScriptedUi([
      { kind: 'info', match: /^Imported all 1 spot documents from / },
      { kind: 'info', match: new RegExp(`^Updated spot \\d+ \\("${sourceId}"\\) on IT capture`) },
    ]);
    restore = run.restore;
    const summary = await vscode.commands.executeCommand<FolderImportSummary>('spotImport.importFolder', vscode.Uri.file(dir));
    await vscode.commands.executeCommand('spotImport.importSpot', vscode.Uri.file(file));
    run.done();
    assert.deepStrictEqual(
      summary.imported.map((entry) => entry.sourceId),
      [sourceId],
    );

    const [fromFolder, fromEditor] = capture.proxy.imports;
    assert.strictEqual(capture.proxy.imports.length, 2);
    assert.ok(fromEditor.equals(fromFolder), `Import Spot sent:\n${fromEditor.toString('utf8')}\nImport Folder sent:\n${fromFolder.toString('utf8')}`);
    assert.strictEqual(fromFolder.toString('utf8'), text, 'the text as written, without the byte-order mark');
  });
});
