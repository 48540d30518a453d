// A gallery that is slow to load, in the real extension host against the test's own sandbox (with
// latency injected): collapsing the node stops the request, a refresh replaces it, and read-only
// gallery documents name their profile and forget their text when closed.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { CommandServices } from '../../src/extension/commands/commandTable';
import type { Profile } from '../../src/extension/platform/domain';
import type { RunningSandbox } from '../../src/sandbox/types';
import type { GalleriesTreeProvider } from '../../src/extension/galleries/galleriesTreeProvider';
import { galleryRow, rows, uniqueSourceId, waitFor, type Row } from './galleriesSupport';
import { installScriptedUi } from './helpers/scriptedUi';
import { useTestProfile } from './helpers/testEnv';

describe('Galleries view: slow loads', function () {
  this.timeout(60_000);
  let done: () => void;
  let restore: () => void;
  let services: CommandServices;
  let sandbox: RunningSandbox;
  let profile: Profile;
  let galleryId: number;

  beforeEach(async () => {
    ({ done, restore } = await installScriptedUi());
    ({ services, sandbox, profile } = await useTestProfile());
    const { client } = await services.clients.clientFor(profile.id);
    const attributes = { topic_id: 37, source_id: uniqueSourceId('slow'), latitude: 47.07, longitude: 15.44, state: 2, fld_37_12: null };
    galleryId = (await client.importSpot({ data: { type: 'spots', attributes } })).pendingGalleries[0].galleryId;
    await services.galleries.add(profile.id, [{ galleryId, pending: true }]);
  });

  afterEach(async () => {
    restore();
    sandbox.setFaults({});
    for (const known of services.galleries.list(profile.id)) await services.galleries.remove(profile.id, known.galleryId);
  });

  /**
   * Makes the sandbox answer gallery requests only after 30 s, expands the gallery's row and waits
   * until its load is under way. `children` settles with the rows the expand finally shows.
   */
  async function startSlowLoad(): Promise<{ provider: GalleriesTreeProvider; row: Row; started: number; children: Promise<Row[]> }> {
    const provider = services.galleriesView.provider;
    sandbox.setFaults({ latencyMs: 30_000, appliesTo: ['gallery'] });
    const row = await galleryRow(services, galleryId);
    const started = Date.now();
    const children = rows(services, row.node);
    await waitFor('the load to start', () => provider.cache.isLoading(profile.id, galleryId));
    return { provider, row, started, children };
  }

  it('stops loading a gallery when its node is collapsed, and offers to retry', async () => {
    const { provider, row, started, children } = await startSlowLoad();
    assert.strictEqual(provider.cancelLoad(row.node), true);

    const [message, retry] = await children;
    assert.ok(Date.now() - started < 10_000, 'the cancel did not wait for the slow reply');
    assert.strictEqual(message.label, 'Loading was cancelled');
    assert.deepStrictEqual([retry.label, retry.item.command?.command], ['Retry', 'spotImport.gallery.refresh']);
    assert.strictEqual(provider.cache.peek(profile.id, galleryId), undefined, 'a cancelled load is not kept');

    sandbox.setFaults({});
    await vscode.commands.executeCommand(retry.item.command!.command, ...(retry.item.command!.arguments ?? []));
    const reloaded = await rows(services, (await galleryRow(services, galleryId)).node);
    assert.deepStrictEqual(
      reloaded.map((child) => child.label),
      ['No media yet'],
    );
    done();
  });

  it('replaces a slow load with a fresh one on Refresh', async () => {
    const { row, started, children } = await startSlowLoad();

    // The service is fast again; the refresh cancels the slow request and the expand gets the new answer.
    sandbox.setFaults({});
    await vscode.commands.executeCommand('spotImport.gallery.refresh', row.node);
    assert.deepStrictEqual(
      (await children).map((child) => child.label),
      ['No media yet'],
    );
    assert.ok(Date.now() - started < 10_000, 'the refresh did not wait for the slow reply');
    done();
  });

  it('Add Gallery by Id and Open Gallery JSON wait for a slow service under a progress that can be cancelled', async () => {
    // A gallery the view does not know yet, for Add Gallery by Id.
    const { client } = await services.clients.clientFor(profile.id);
    const attributes = { topic_id: 37, source_id: uniqueSourceId('slow-add'), latitude: 47.07, longitude: 15.44, state: 2, fld_37_12: null };
    const unknownId = (await client.importSpot({ data: { type: 'spots', attributes } })).pendingGalleries[0].galleryId;
    sandbox.setFaults({ latencyMs: 30_000, appliesTo: ['gallery'] });
    // The notification's Cancel button, pressed once the request is under way; { signal } is how a test presses it.
    const cancelSoon = () => AbortSignal.timeout(500);

    let started = Date.now();
    await vscode.commands.executeCommand('spotImport.gallery.addById', { galleryId: unknownId, signal: cancelSoon() });
    assert.ok(Date.now() - started < 10_000, 'Add Gallery by Id waited for the slow reply instead of stopping');
    assert.ok(!services.galleries.list(profile.id).some((known) => known.galleryId === unknownId), 'a cancelled check adds nothing');

    started = Date.now();
    await vscode.commands.executeCommand('spotImport.gallery.openJson', { galleryId, profileId: profile.id, signal: cancelSoon() });
    assert.ok(Date.now() - started < 10_000, 'Open Gallery JSON waited for the slow reply instead of stopping');
    assert.notStrictEqual(vscode.window.activeTextEditor?.document.uri.scheme, 'spot-gallery', 'a cancelled load opens no document');
    done();
  });

  it("opens gallery JSON under the profile's own address and forgets its text when closed", async () => {
    await vscode.commands.executeCommand('spotImport.gallery.openJson', (await galleryRow(services, galleryId)).node);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    const uri = editor.document.uri;
    assert.strictEqual(uri.scheme, 'spot-gallery');
    assert.strictEqual(uri.path, `/${encodeURIComponent(profile.id)}/gallery-${galleryId}.json`);
    assert.strictEqual((JSON.parse(editor.document.getText()) as { id: number }).id, galleryId);
    const documents = services.galleriesView.documents;
    assert.ok(documents.size > 0);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Dropped once no tab shows it (VS Code reports the document itself closed only minutes later).
    await waitFor('its text to be dropped', () => documents.size === 0);
    done();
  });

  it('reads a tab restored from the earlier address format (no profile) as a gallery of the active profile', async () => {
    const earlier = vscode.Uri.from({ scheme: 'spot-gallery', path: `/gallery-${galleryId}.json` });
    const document = await vscode.workspace.openTextDocument(earlier);
    assert.strictEqual((JSON.parse(document.getText()) as { id: number }).id, galleryId);
    done();
  });

  it('says how to get a gallery back when an earlier-format tab is restored with no profile active, and loads it once one is', async () => {
    // Another gallery, so no document VS Code still holds for the previous test is reused.
    const { client } = await services.clients.clientFor(profile.id);
    const attributes = { topic_id: 37, source_id: uniqueSourceId('earlier'), latitude: 47.07, longitude: 15.44, state: 2, fld_37_12: null };
    const otherId = (await client.importSpot({ data: { type: 'spots', attributes } })).pendingGalleries[0].galleryId;
    await services.profiles.setActive(undefined);
    try {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'spot-gallery', path: `/gallery-${otherId}.json` }));
      const text = document.getText();
      assert.match(text, new RegExp(`^// Gallery ${otherId}: this tab was opened by an earlier version of Spot Import`));
      assert.ok(text.includes('Spot Import: Switch Profile') && text.includes('Open Gallery JSON'), text);

      await services.profiles.setActive(profile.id);
      await waitFor('the gallery to load once a profile is active', () => !document.getText().startsWith('//'));
      assert.strictEqual((JSON.parse(document.getText()) as { id: number }).id, otherId);
    } finally {
      await services.profiles.setActive(profile.id);
    }
    done();
  });
});
