// Import Spot end to end against the in-process sandbox: valid documents are sent and reported,
// pending galleries are recorded and lead to the galleries commands, invalid documents are shown
// and never sent, and failures carry the server's words and the right buttons.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { runImportSpot } from '../../src/extension/import/importSpot';
import type * as Core from '../../src/core';
import type { RunningSandbox, SandboxCounters } from '../../src/sandbox/types';
import { useCaptureProfile } from './helpers/captureProfile';
import { installScriptedUi } from './helpers/scriptedUi';
import { addProfileAt, closeAllEditors, counters, fixtureUri, spotDiagnostics, TEST_CLIENT, useTestProfile, usedSecrets, waitFor } from './helpers/testEnv';

/**
 * What Import Spot could have sent. Not every counter: the Galleries view reads galleries (and may
 * renew a token) on its own schedule while these tests run.
 */
function sent(source: RunningSandbox | SandboxCounters): { imports: number; uploads: number } {
  const { imports, uploads } = 'counters' in source ? source.counters : source;
  return { imports, uploads };
}

describe('Import Spot', () => {
  let restore: (() => void) | undefined;
  before(async () => {
    await useTestProfile();
  });
  afterEach(async () => {
    restore?.();
    await closeAllEditors();
  });

  it('imports the document in the active editor and names the spot id', async () => {
    const { sandbox } = await useTestProfile();
    const before = counters(sandbox).imports;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fixtureUri('import', 'single', 'valid.spot.json')));
    const run = await installScriptedUi([
      { kind: 'info', match: /^(Imported "it-single-valid" as new spot \d+ to|Updated spot \d+ \("it-single-valid"\) on) Integration sandbox\.$/ },
    ]);
    restore = run.restore;
    const result = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot');
    run.done();
    assert.strictEqual(counters(sandbox).imports, before + 1);
    assert.strictEqual(sandbox.spotBySourceId('it-single-valid')?.id, result.spotId);
    assert.deepStrictEqual(result.pendingGalleries, []);
  });

  it('records pending galleries and offers Upload Media and Show in Galleries', async () => {
    const { services, sandbox, profile } = await useTestProfile();
    const uri = fixtureUri('import', 'single', 'with-gallery.spot.json');
    const run = await installScriptedUi([
      {
        kind: 'info',
        match: /(Imported "it-single-gallery" as new spot|Updated spot \d+ \("it-single-gallery"\)) .*Pending galleries: fld_1_7 → gallery \d+/,
        button: 'Upload Media',
      },
      // The galleries feature's upload asks for files; cancelling there ends it quietly.
      { kind: 'openDialog', answer: undefined },
    ]);
    restore = run.restore;
    const result = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot', uri);
    assert.strictEqual(result.pendingGalleries.length, 1);
    const galleryId = result.pendingGalleries[0].galleryId;
    const info = run.ui.shown[0];
    assert.deepStrictEqual(info.buttons, ['Upload Media', 'Show in Galleries']);
    await waitFor('the upload file picker', () => run.ui.shown.length === 2);
    run.done();
    assert.match(run.ui.shown[1].text, new RegExp(`gallery ${galleryId}\\b`));
    const known = services.galleries.list(profile.id).find((gallery) => gallery.galleryId === galleryId);
    assert.deepStrictEqual(known, {
      galleryId,
      field: 'fld_1_7',
      spot: { spotId: result.spotId, sourceId: 'it-single-gallery', documentUri: uri.toString() },
      pending: true,
    });
    assert.ok(sandbox.spotBySourceId('it-single-gallery'));
  });

  it('says "as new spot" the first time a source id is imported under a profile, and "Updated spot" after', async () => {
    const { sandbox } = await useTestProfile();
    const sourceId = `it-new-or-updated-${Date.now().toString(36)}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-new-'));
    const uri = vscode.Uri.file(path.join(dir, 'again.spot.json'));
    fs.writeFileSync(
      uri.fsPath,
      JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 47.07, longitude: 15.44 } } }, null, 2),
    );
    const run = await installScriptedUi([
      { kind: 'info', match: new RegExp(`^Imported "${sourceId}" as new spot \\d+ to Integration sandbox\\.$`) },
      { kind: 'info', match: new RegExp(`^Updated spot \\d+ \\("${sourceId}"\\) on Integration sandbox\\.$`) },
    ]);
    restore = run.restore;
    const first = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot', uri);
    const second = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot', uri);
    run.done();
    assert.strictEqual(second.spotId, first.spotId, 'the same spot');
    assert.ok(run.ui.shown[0].text.includes(`spot ${first.spotId}`));
    assert.ok(run.ui.shown[1].text.includes(`spot ${first.spotId}`));
    assert.strictEqual(sandbox.spotBySourceId(sourceId)?.id, first.spotId);
  });

  it('a spot imported again as active (state 1) stops its galleries waiting for media', async () => {
    const { services, profile } = await useTestProfile();
    const sourceId = `it-active-again-${Date.now().toString(36)}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-active-'));
    const uri = vscode.Uri.file(path.join(dir, 'active.spot.json'));
    fs.writeFileSync(
      uri.fsPath,
      JSON.stringify(
        { data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 47.07, longitude: 15.44, state: 2, fld_1_7: null } } },
        null,
        2,
      ),
    );
    const run = await installScriptedUi([
      { kind: 'info', match: 'Pending galleries' },
      { kind: 'info', match: new RegExp(`^Updated spot \\d+ \\("${sourceId}"\\)`) },
    ]);
    restore = run.restore;
    const first = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot', uri);
    const galleryId = first.pendingGalleries[0].galleryId;
    assert.strictEqual(services.galleries.list(profile.id).find((gallery) => gallery.galleryId === galleryId)?.pending, true);
    // Edited as a person would, in the editor (the command reads the document VS Code holds).
    const document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    const text = document.getText().replace('"state": 2', '"state": 1').replace('"fld_1_7": null', `"fld_1_7": ${galleryId}`);
    edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await document.save();
    const second = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot', uri);
    assert.deepStrictEqual(second.pendingGalleries, []);
    run.done();
    assert.strictEqual(services.galleries.list(profile.id).find((gallery) => gallery.galleryId === galleryId)?.pending, false);
  });

  it('Upload Media sends the files to the service the spot was imported to, even after a switch to another profile', async () => {
    const { sandbox } = await useTestProfile();
    // Switched to while the message is up: a profile whose service is not there (nothing listens on port 9).
    const other = await addProfileAt('Switched to meanwhile', 'http://127.0.0.1:9');
    try {
      const photo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'it-upload-after-switch-')), 'photo.jpg');
      fs.writeFileSync(photo, Buffer.from('a photo taken before the switch'));
      const run = await installScriptedUi([
        { kind: 'info', match: 'Pending galleries', button: 'Upload Media', beforeAnswer: () => other.services.profiles.setActive(other.profile.id) },
        { kind: 'openDialog', answer: [vscode.Uri.file(photo)] },
        { kind: 'info', match: /^Uploaded 1 file .* to gallery \d+/ },
      ]);
      restore = run.restore;
      const result = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot', fixtureUri('import', 'single', 'with-gallery.spot.json'));
      const galleryId = result.pendingGalleries[0].galleryId;
      await waitFor('the upload to finish', () => run.ui.shown.length >= 3);
      run.done();
      assert.strictEqual(other.services.profiles.active()?.id, other.profile.id, 'the other profile was active when the button was clicked');
      assert.strictEqual(sandbox.gallery(galleryId)?.mediaIds.length, 1, 'the file is in the gallery the import created');
    } finally {
      await other.remove();
    }
  });

  it('Show in Galleries runs the galleries reveal for the pending gallery', async () => {
    await useTestProfile();
    const uri = fixtureUri('import', 'single', 'with-gallery.spot.json');
    const run = await installScriptedUi([{ kind: 'info', match: 'Pending galleries', button: 'Show in Galleries' }]);
    restore = run.restore;
    const result = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot', uri);
    assert.strictEqual(result.pendingGalleries[0].field, 'fld_1_7');
    const galleryId = result.pendingGalleries[0].galleryId;
    // The galleries view selects the gallery's node (the scripted UI stays in place meanwhile).
    await waitFor('the gallery selected in the Galleries view', () =>
      run.services.galleriesView.treeView.selection.some((node) => (node as { galleryId?: number }).galleryId === galleryId),
    );
    run.done();
  });

  it('does not send a document with problems: shows them in place', async () => {
    const { sandbox } = await useTestProfile();
    const before = counters(sandbox);
    const uri = fixtureUri('import', 'single', 'pending-needs-state.spot.json');
    const run = await installScriptedUi([
      { kind: 'error', match: /^Not imported, nothing was sent: .*pending-needs-state\.spot\.json: .*Gallery field fld_1_7 is pending/ },
    ]);
    restore = run.restore;
    const result = await vscode.commands.executeCommand('spotImport.importSpot', uri);
    run.done();
    assert.strictEqual(result, undefined);
    assert.deepStrictEqual(run.ui.shown[0].buttons, ['Show Problems', 'Show Log']);
    const diagnostics = await waitFor('diagnostics', () => spotDiagnostics(uri).length > 0 && spotDiagnostics(uri));
    const document = await vscode.workspace.openTextDocument(uri);
    const nullOffset = document.getText().indexOf('null');
    assert.deepStrictEqual(diagnostics[0].range, new vscode.Range(document.positionAt(nullOffset), document.positionAt(nullOffset + 4)));
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.toString(), uri.toString(), 'the document is opened at the problem');
    assert.strictEqual(editor.document.getText(editor.selection), 'null');
    assert.deepStrictEqual(sent(sandbox), sent(before), 'nothing reached the sandbox');
  });

  it('does not send an invalid document identified by content', async () => {
    const { sandbox } = await useTestProfile();
    const before = counters(sandbox);
    const uri = fixtureUri('import', 'single', 'by-content.json');
    const run = await installScriptedUi([{ kind: 'error', match: /Not imported, nothing was sent: .*by-content\.json: .*\(and 1 more\)/ }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.importSpot', uri);
    run.done();
    await waitFor('two diagnostics', () => spotDiagnostics(uri).length === 2);
    assert.deepStrictEqual(sent(sandbox), sent(before));
  });

  it('refuses JSON that is not a spot document', async () => {
    const { sandbox } = await useTestProfile();
    const before = counters(sandbox);
    const run = await installScriptedUi([{ kind: 'error', match: /not-a-spot\.json is not a spot document/ }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.importSpot', fixtureUri('import', 'single', 'not-a-spot.json'));
    run.done();
    assert.deepStrictEqual(run.ui.shown[0].buttons, ['New Spot Document', 'Show Log']);
    assert.deepStrictEqual(sent(sandbox), sent(before));
  });

  it('shows the HTTP status and the server words when the service fails', async () => {
    const { sandbox } = await useTestProfile();
    const config = vscode.workspace.getConfiguration('spotImport');
    await config.update('maxRetries', 0, vscode.ConfigurationTarget.Global);
    sandbox.setFaults({ rate503: 1, appliesTo: ['import'] });
    const run = await installScriptedUi([{ kind: 'error', match: /503/ }]);
    restore = run.restore;
    try {
      await vscode.commands.executeCommand('spotImport.importSpot', fixtureUri('import', 'single', 'valid.spot.json'));
      run.done();
      assert.deepStrictEqual(run.ui.shown[0].buttons, ['Show Log']);
    } finally {
      sandbox.setFaults({});
      await config.update('maxRetries', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('offers Update Credentials when the service rejects the credentials', async () => {
    const { services, profile, sandbox } = await useTestProfile();
    const wrong = 'it-import-wrong-secret-987654';
    usedSecrets.add(wrong);
    await services.credentials.set(profile.id, { clientId: TEST_CLIENT.clientId, clientSecret: wrong });
    const before = counters(sandbox).imports;
    const run = await installScriptedUi([{ kind: 'error', match: /credentials|invalid_client|rejected/i }]);
    restore = run.restore;
    try {
      await vscode.commands.executeCommand('spotImport.importSpot', fixtureUri('import', 'single', 'valid.spot.json'));
      run.done();
      assert.deepStrictEqual(run.ui.shown[0].buttons, ['Update Credentials', 'Show Log']);
      assert.strictEqual(await services.profiles.state(profile), 'rejected');
      assert.strictEqual(counters(sandbox).imports, before);
    } finally {
      await services.credentials.set(profile.id, TEST_CLIENT);
    }
  });

  it('renews an expired token once and imports', async () => {
    const { sandbox } = await useTestProfile();
    sandbox.expireAllTokens();
    const run = await installScriptedUi([{ kind: 'info', match: /"it-single-valid"/ }]);
    restore = run.restore;
    const result = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot', fixtureUri('import', 'single', 'valid.spot.json'));
    run.done();
    assert.ok(result.spotId > 0);
  });

  it('sends the text in the editor as it stands, unsaved edits included, byte for byte', async () => {
    const capture = await useCaptureProfile('IT capture');
    const sourceId = `it-unsaved-${Date.now().toString(36)}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-unsaved-'));
    const uri = vscode.Uri.file(path.join(dir, 'unsaved.spot.json'));
    fs.writeFileSync(
      uri.fsPath,
      JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 47.07, longitude: 15.44 } } }, null, 2),
    );
    try {
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const at = editor.document.getText().indexOf('"latitude": 47.07');
      await editor.edit((edit) => edit.replace(new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + 17)), '"latitude" :\t47.0700'));
      assert.ok(editor.document.isDirty);
      const run = await installScriptedUi([{ kind: 'info', match: `Imported "${sourceId}" as new spot` }]);
      restore = run.restore;
      await vscode.commands.executeCommand('spotImport.importSpot', uri);
      run.done();
      assert.strictEqual(capture.proxy.imports.length, 1);
      assert.strictEqual(capture.proxy.imports[0].toString('utf8'), editor.document.getText(), 'the unsaved text, not the file and not a re-serialisation');
      assert.ok(editor.document.getText().includes('"latitude" :\t47.0700'));
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await capture.close();
    }
  });

  describe('cancelled', () => {
    function pendingSpotFile(sourceId: string): vscode.Uri {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-import-cancel-'));
      const file = path.join(dir, `${sourceId}.spot.json`);
      const attributes = { topic_id: 1, source_id: sourceId, latitude: 47.07, longitude: 15.44, state: 2, fld_1_7: null };
      fs.writeFileSync(file, JSON.stringify({ data: { type: 'spots', attributes } }, null, 2));
      return vscode.Uri.file(file);
    }

    it('while the request is on its way: says the spot may exist and records nothing', async () => {
      const { services, sandbox, profile } = await useTestProfile();
      const sourceId = `it-cancel-spot-${Date.now().toString(36)}`;
      const known = services.galleries.list(profile.id).length;
      const imports = counters(sandbox).imports;
      sandbox.setFaults({ latencyMs: 3000, appliesTo: ['import'] });
      const run = await installScriptedUi([
        {
          kind: 'warning',
          match: `Import of "${sourceId}" cancelled. If the request had already reached Integration sandbox, the spot exists anyway; importing again updates it.`,
        },
      ]);
      restore = run.restore;
      try {
        // Cancel as the notification's Cancel button would, once the import is in flight.
        const cancel = new AbortController();
        const pending = runImportSpot(services, pendingSpotFile(sourceId), { signal: cancel.signal });
        // The client and its token are cached by earlier tests: half a second puts the request in
        // the sandbox's added latency.
        await new Promise((resolve) => setTimeout(resolve, 500));
        cancel.abort();
        const started = Date.now();
        assert.strictEqual(await pending, undefined);
        assert.ok(Date.now() - started < 1000, 'the cancel ended the command without waiting for the reply');
        run.done();
        assert.strictEqual(services.galleries.list(profile.id).length, known, 'no pending gallery was recorded');
        // The request sits out the sandbox's latency and is then handled, client gone or not (the
        // spot may exist, as the warning says): waited for here, or it lands in a later test's
        // count of imports (it did: "Import Spot with Media ... sends nothing" saw one import more).
        await waitFor('the cancelled request handled by the sandbox', () => counters(sandbox).imports > imports, 10_000);
      } finally {
        sandbox.setFaults({});
      }
    });

    it('before anything was sent: says so, and the sandbox saw nothing', async () => {
      const { services, sandbox } = await useTestProfile();
      const sourceId = `it-cancel-early-${Date.now().toString(36)}`;
      const before = counters(sandbox);
      const run = await installScriptedUi([{ kind: 'warning', match: `Import of "${sourceId}" cancelled before anything was sent.` }]);
      restore = run.restore;
      assert.strictEqual(await runImportSpot(services, pendingSpotFile(sourceId), { signal: AbortSignal.abort() }), undefined);
      run.done();
      assert.strictEqual(counters(sandbox).imports, before.imports);
      assert.ok(!sandbox.spotBySourceId(sourceId));
    });
  });
});
