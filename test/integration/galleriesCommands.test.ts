// Gallery node commands inside a real extension host, against the built-in sandbox: Open Gallery
// JSON (read-only document), Copy Id, Refresh and reveal. Media files: galleriesMedia.test.ts.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { JPG, fixtureFile, galleryRow, importSpot, rows, uniqueSourceId, useScriptedSandbox, waitFor, writeSpotDocument } from './galleriesSupport';

describe('Gallery commands', function () {
  this.timeout(60_000);
  const t = useScriptedSandbox();

  it('opens the gallery JSON read-only, copies ids, and refreshes from the service', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('json'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const row = await galleryRow(t.services, galleryId);

    await vscode.commands.executeCommand('spotImport.gallery.openJson', row.node);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.strictEqual(editor.document.uri.scheme, 'spot-gallery');
    assert.strictEqual(editor.document.languageId, 'json');
    const shown = JSON.parse(editor.document.getText()) as { id: number; media: unknown[] };
    assert.strictEqual(shown.id, galleryId);
    assert.deepStrictEqual(shown.media, []);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await vscode.commands.executeCommand('spotImport.gallery.copyId', row.node);
    assert.strictEqual(await vscode.env.clipboard.readText(), String(galleryId));

    // Loaded once and cached; after a refresh the next expand reads the gallery again.
    assert.strictEqual((await rows(t.services, row.node))[0].label, 'No media yet');
    const { client } = await t.services.clients.client();
    await client.uploadMedia(galleryId, fixtureFile(JPG).fsPath);
    assert.strictEqual((await rows(t.services, row.node))[0].label, 'No media yet', 'cached until refreshed');
    await vscode.commands.executeCommand('spotImport.galleries.refresh');
    const media = await rows(t.services, (await galleryRow(t.services, galleryId)).node);
    assert.deepStrictEqual(
      media.map((child) => child.label),
      [JPG],
    );

    await vscode.commands.executeCommand('spotImport.media.copyId', media[0].node);
    assert.match(await vscode.env.clipboard.readText(), /^\d+$/);
    t.done();
  });

  it('reveals a gallery by id', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('reveal'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const revealed = await vscode.commands.executeCommand<boolean>('spotImport.galleries.reveal', { galleryId });
    assert.strictEqual(revealed, true);
    const view = t.services.galleriesView.treeView;
    const expected = (await galleryRow(t.services, galleryId)).node.id;
    // Visibility and selection come back from the workbench asynchronously.
    await waitFor('the gallery to be selected', () => view.visible && view.selection.some((node) => node.id === expected));
    t.done();
  });
});
