// Mark Spot Active against the in-process test sandbox: import a pending spot from a temp file,
// upload its media, then the opt-in step edits the document to "state": 1 (each pending gallery
// field to its gallery id), saves it and imports it again. A spot with a gallery still pending
// asks first, in a modal warning; an entry with no known document says what to do by hand.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { uploadWithProgress } from '../../src/extension/galleries/commands/uploadMedia';
import type { CommandServices } from '../../src/extension/commands/commandTable';
import type { Profile } from '../../src/extension/platform/domain';
import type { RunningSandbox } from '../../src/sandbox/types';
import { PNG, fixtureFile, importSpot, rows, uniqueSourceId, writeSpotDocument } from './galleriesSupport';
import { installScriptedUi, type ScriptedUi } from './helpers/scriptedUi';
import { closeAllEditors, useTestProfile, waitFor } from './helpers/testEnv';

describe('Mark Spot Active', function () {
  this.timeout(60_000);
  let ui: ScriptedUi;
  let services: CommandServices;
  let sandbox: RunningSandbox;
  let profile: Profile;
  let restore: () => void = () => undefined;

  beforeEach(async () => {
    ({ services, sandbox, profile } = await useTestProfile());
    for (const known of services.galleries.list(profile.id)) await services.galleries.remove(profile.id, known.galleryId);
    const run = await installScriptedUi();
    ui = run.ui;
    restore = run.restore;
  });

  afterEach(async () => {
    restore();
    await closeAllEditors();
  });

  async function spotRow(sourceId: string) {
    return waitFor(`the spot ${sourceId} in the tree`, async () => (await rows(services)).find((row) => row.label === sourceId));
  }

  async function upload(galleryId: number): Promise<string[]> {
    ui.expect({ kind: 'info', match: `to gallery ${galleryId}` });
    await uploadWithProgress(services, galleryId, [fixtureFile(PNG)], { profileId: profile.id });
    return (await waitFor('the upload message', () => ui.shown.find((prompt) => prompt.text.includes(`to gallery ${galleryId}`)))).buttons ?? [];
  }

  it('offers the step after the last upload, then imports the document with "state": 1', async () => {
    const sourceId = uniqueSourceId('activate');
    const uri = writeSpotDocument(sourceId, ['fld_37_12']);
    const result = await importSpot(ui, uri);
    const galleryId = result.pendingGalleries[0].galleryId;
    assert.strictEqual(sandbox.spotBySourceId(sourceId)?.attributes.state, 2);

    assert.deepStrictEqual(await upload(galleryId), ['Show in Galleries', 'Mark Spot Active'], 'offered, never run on its own');
    assert.strictEqual(sandbox.spotBySourceId(sourceId)?.attributes.state, 2, 'nothing happens without a click');

    const row = await spotRow(sourceId);
    assert.strictEqual(row.contextValue, 'spot');
    ui.expect({ kind: 'info', match: new RegExp(`^Updated spot ${result.spotId} \\("${sourceId}"\\) on `) });
    const again = await vscode.commands.executeCommand<{ spotId: number } | undefined>('spotImport.spot.markActive', row.node);
    assert.strictEqual(again?.spotId, result.spotId, 'the same spot, updated');

    const saved = JSON.parse(fs.readFileSync(uri.fsPath, 'utf8'));
    assert.strictEqual(saved.data.attributes.state, 1);
    assert.strictEqual(saved.data.attributes.fld_37_12, galleryId, 'the pending field now names its gallery');
    const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri.toString());
    assert.ok(document && !document.isDirty, 'the document was opened and saved');
    assert.strictEqual(sandbox.spotBySourceId(sourceId)?.attributes.state, 1);
    assert.strictEqual(sandbox.spotBySourceId(sourceId)?.attributes.fld_37_12, galleryId);
    assert.ok(services.galleries.list(profile.id).every((known) => !known.pending));
    ui.assertDone();
  });

  it('warns in a modal naming the galleries still pending, and changes nothing when cancelled', async () => {
    const sourceId = uniqueSourceId('half');
    const uri = writeSpotDocument(sourceId, ['fld_37_12', 'fld_37_13']);
    const result = await importSpot(ui, uri);
    const [first, second] = result.pendingGalleries;
    assert.deepStrictEqual(await upload(first.galleryId), ['Show in Galleries'], 'not offered while a gallery is pending');
    const before = fs.readFileSync(uri.fsPath, 'utf8');

    ui.expect({ kind: 'warning', match: `${second.field} (gallery ${second.galleryId}) of "${sourceId}" has no upload recorded` });
    await vscode.commands.executeCommand('spotImport.spot.markActive', (await spotRow(sourceId)).node);
    const warning = ui.shown.at(-1)!;
    assert.ok(!warning.text.includes(first.field), 'the uploaded gallery is not named');
    assert.deepStrictEqual(warning.buttons, ['Mark Active Anyway']);
    assert.strictEqual(fs.readFileSync(uri.fsPath, 'utf8'), before, 'cancelled: the document is unchanged');
    assert.strictEqual(sandbox.spotBySourceId(sourceId)?.attributes.state, 2);

    ui.expect(
      { kind: 'warning', match: 'has no upload recorded', button: 'Mark Active Anyway' },
      { kind: 'info', match: new RegExp(`^Updated spot \\d+ \\("${sourceId}"\\)`) },
    );
    await vscode.commands.executeCommand('spotImport.spot.markActive', (await spotRow(sourceId)).node);
    assert.strictEqual(sandbox.spotBySourceId(sourceId)?.attributes.state, 1);
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(uri.fsPath, 'utf8')).data.attributes.fld_37_13, second.galleryId);
    ui.assertDone();
  });

  it('says to import the document by hand when it does not know the document', async () => {
    await services.galleries.add(profile.id, [{ galleryId: 987_654, field: 'fld_37_12', spot: { spotId: 123_456, sourceId: 'no-document' }, pending: false }]);
    ui.expect({ kind: 'error', match: /"no-document".*open the spot document.*"state": 1/i });
    await vscode.commands.executeCommand('spotImport.spot.markActive', (await spotRow('no-document')).node);
    ui.assertDone();
  });
});
