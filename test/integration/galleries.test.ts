// The Galleries view inside a real extension host, against the built-in sandbox: pending galleries
// after an import, media after an upload, add by id (and a 404 as a message node), paging, and the
// gallery commands. Prompts go through the scripted UI, so an unexpected one fails the test.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { validateGalleryId } from '../../src/extension/galleries/commands/galleryArgs';
import { SANDBOX_PROFILE_ID, profileLabel } from '../../src/extension/platform/domain';
import {
  JPG,
  PNG,
  fixtureFile,
  galleryRow,
  hoverTooltip,
  importSpot,
  rows,
  uniqueSourceId,
  useScriptedSandbox,
  waitFor,
  writeSpotDocument,
} from './galleriesSupport';

describe('Galleries view', function () {
  this.timeout(60_000);
  const t = useScriptedSandbox();

  it('shows the pending galleries of an import under their spot', async () => {
    const sourceId = uniqueSourceId('tree');
    const result = await importSpot(t.ui, writeSpotDocument(sourceId, ['fld_37_12', 'fld_37_13']));
    assert.strictEqual(result.pendingGalleries.length, 2);

    const spot = (await rows(t.services)).find((row) => row.label === sourceId);
    assert.ok(spot, 'the spot is a root');
    assert.strictEqual(spot.description, `spot ${result.spotId}`);
    assert.strictEqual(spot.contextValue, 'spot');
    // Screen readers hear sentences, not the row's bits (issue 24).
    assert.strictEqual(spot.item.accessibilityInformation?.label, `Spot ${sourceId}, spot id ${result.spotId}`);

    const galleries = await rows(t.services, spot.node);
    assert.deepStrictEqual(
      galleries.map((row) => row.label),
      ['fld_37_12', 'fld_37_13'],
    );
    for (const [index, row] of galleries.entries()) {
      assert.strictEqual(row.contextValue, 'galleryPending');
      assert.strictEqual(row.description, `waiting for media · gallery ${result.pendingGalleries[index].galleryId}`);
      assert.strictEqual(row.item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
      assert.strictEqual(
        row.item.accessibilityInformation?.label,
        `Gallery ${row.label}, not loaded yet, gallery ${result.pendingGalleries[index].galleryId}, waiting for media`,
      );
    }

    // Expanding loads the gallery: empty, so one hint row that offers the upload.
    const children = await rows(t.services, galleries[0].node);
    assert.deepStrictEqual(
      children.map((row) => [row.contextValue, row.label]),
      [['message', 'No media yet']],
    );
    assert.strictEqual(children[0].item.command?.command, 'spotImport.gallery.upload');
    const reloaded = await galleryRow(t.services, result.pendingGalleries[0].galleryId);
    assert.strictEqual(reloaded.description, `waiting for media · gallery ${result.pendingGalleries[0].galleryId}`);
    assert.strictEqual(reloaded.contextValue, 'galleryPending');
    const tooltip = (reloaded.item.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /0 media yet · gallery state \d+ \(as the service reports it\)/, 'the gallery\'s own state is in the tooltip, not beside "waiting"');
    assert.match(tooltip, /Waiting for media: the import left this gallery/);
    t.done();
  });

  it('shows the new media after an upload from the gallery node', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('media'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const before = await galleryRow(t.services, galleryId);
    await rows(t.services, before.node); // expanded once: the refresh after the upload must reload it

    t.ui.expect({ kind: 'openDialog', answer: [fixtureFile(PNG), fixtureFile(JPG)] }, { kind: 'info', match: `Uploaded 2 files` });
    await vscode.commands.executeCommand('spotImport.gallery.upload', before.node);

    const after = await galleryRow(t.services, galleryId);
    assert.strictEqual(after.contextValue, 'gallery', 'no longer pending once media arrived');
    const media = await rows(t.services, after.node);
    assert.deepStrictEqual(
      media.map((row) => [row.label, row.description, row.contextValue]),
      [
        [PNG, 'image/png', 'media'],
        [JPG, 'image/jpeg', 'media'],
      ],
    );
    assert.strictEqual((media[0].item.iconPath as vscode.ThemeIcon).id, 'file-media');
    assert.strictEqual(media[0].item.tooltip, undefined, "an image's tooltip waits for the hover (its picture is fetched only then)");
    assert.deepStrictEqual(
      media.map((row) => row.item.accessibilityInformation?.label),
      [`${PNG}, image/png, 1 of 2`, `${JPG}, image/jpeg, 2 of 2`],
    );
    const tooltip = await hoverTooltip(t.services, media[0]);
    assert.match(tooltip, /mimeType \| image\/png/);
    assert.match(tooltip, /\| id \| \d+ \|/, 'the media id is in the tooltip too');
    const loaded = await galleryRow(t.services, galleryId);
    assert.strictEqual(loaded.description, `2 media · gallery ${galleryId}`);
    assert.strictEqual(loaded.item.accessibilityInformation?.label, `Gallery fld_37_12, 2 media, gallery ${galleryId}`);
    t.done();
  });

  it('adds a gallery by id after checking it, and removes it from the view', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('byid'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const profileId = t.services.profiles.active()!.id;
    await vscode.commands.executeCommand('spotImport.gallery.remove', (await galleryRow(t.services, galleryId)).node);
    assert.ok(!t.services.galleries.list(profileId).some((known) => known.galleryId === galleryId));

    t.ui.expect({ kind: 'input', match: 'Add Gallery by Id', answer: String(galleryId) });
    await vscode.commands.executeCommand('spotImport.gallery.addById');
    const group = (await rows(t.services)).find((row) => row.label === 'Added by id');
    assert.ok(group, 'a gallery without a spot sits under "Added by id"');
    assert.strictEqual(group.contextValue, 'addedById');
    const added = await rows(t.services, group.node);
    assert.deepStrictEqual(
      added.map((row) => [row.label, row.contextValue]),
      [[`Gallery ${galleryId}`, 'gallery']],
    );
    t.done();
  });

  it('asks before adding a gallery the service does not know, then shows the 404 under it', async () => {
    assert.match(validateGalleryId('abc') ?? '', /positive whole number/);
    assert.match(validateGalleryId('0') ?? '', /positive whole number/);
    assert.strictEqual(validateGalleryId(' 12 '), undefined);

    const missing = 987_654_321;
    t.ui.expect(
      { kind: 'input', match: 'Add Gallery by Id', answer: String(missing) },
      { kind: 'warning', match: `Gallery ${missing} was not found (404)`, button: 'Add Anyway' },
    );
    await vscode.commands.executeCommand('spotImport.gallery.addById');
    const row = await galleryRow(t.services, missing);
    const children = await rows(t.services, row.node);
    assert.strictEqual(children.length, 2);
    assert.strictEqual(children[0].contextValue, 'message');
    assert.strictEqual(children[0].label, `Not found (404): Gallery ${missing} does not exist.`);
    assert.strictEqual(children[1].label, 'Remove from View');
    assert.strictEqual(children[1].item.command?.command, 'spotImport.gallery.remove');
    assert.match((await galleryRow(t.services, missing)).description, /not loaded/);

    // The hint's own command removes it.
    const hint = children[1].item.command!;
    await vscode.commands.executeCommand(hint.command, ...(hint.arguments ?? []));
    assert.ok(!(await rows(t.services)).some((root) => root.label === 'Added by id'));
    t.done();
  });

  it('shows missing or rejected credentials as message nodes under the gallery, with the fix', async () => {
    const sandboxUrl = t.services.profiles.get(SANDBOX_PROFILE_ID)!.baseUrl;
    const profile = await t.services.profiles.add({ name: uniqueSourceId('Rejected'), baseUrl: sandboxUrl, apiVersion: 'v2.4' });
    try {
      await t.services.profiles.setActive(profile.id);
      await t.services.galleries.add(profile.id, [{ galleryId: 1, pending: false }]);
      const [missing, addThem] = await rows(t.services, (await galleryRow(t.services, 1)).node);
      assert.strictEqual(missing.label, `Profile "${profile.name}" has no client credentials yet.`);
      assert.deepStrictEqual([addThem.label, addThem.item.command?.command], ['Set Client Credentials', 'spotImport.setCredentials']);

      // New (wrong) credentials make the view forget the failure and ask again.
      await t.services.credentials.set(profile.id, { clientId: 'topic_1_api', clientSecret: 'wrong-secret-for-the-view-test' });
      const [rejected, fix] = await waitFor('the rejection under the gallery', async () => {
        const children = await rows(t.services, (await galleryRow(t.services, 1)).node);
        return children[0]?.label.startsWith('Credentials rejected') ? children : undefined;
      });
      assert.strictEqual(rejected.contextValue, 'message');
      // The same button, in the same words, as the notifications offer.
      assert.deepStrictEqual([fix.label, fix.item.command?.command], ['Update Credentials', 'spotImport.setCredentials']);
      assert.strictEqual(await t.services.profiles.state(profile), 'rejected', 'the status bar and welcome view learn of it too');
    } finally {
      await t.services.galleries.remove(profile.id, 1);
      await t.services.profiles.setActive(SANDBOX_PROFILE_ID);
      await t.services.credentials.delete(profile.id);
      await t.services.profiles.remove(profile.id);
    }
    t.done(); // no prompt at all: failures in the tree never pop up
  });

  it('pages long media lists with a "Load more" node', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('paging'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const { client } = await t.services.clients.client();
    for (let i = 0; i < 55; i++) await client.uploadMedia(galleryId, fixtureFile(PNG).fsPath, { fileName: `page-${String(i).padStart(2, '0')}.png` });

    const gallery = await galleryRow(t.services, galleryId);
    const first = await rows(t.services, gallery.node);
    assert.strictEqual(first.length, 51);
    assert.strictEqual(first.filter((row) => row.contextValue === 'media').length, 50);
    const more = first[50];
    assert.strictEqual(more.contextValue, 'loadMore');
    assert.strictEqual(more.description, '50 of 55 shown');
    assert.strictEqual(more.item.command?.command, 'spotImport.gallery.loadMore');

    await vscode.commands.executeCommand(more.item.command.command, ...(more.item.command.arguments ?? []));
    const all = await rows(t.services, (await galleryRow(t.services, galleryId)).node);
    assert.strictEqual(all.length, 55);
    assert.ok(all.every((row) => row.contextValue === 'media'));
    assert.strictEqual(all[54].label, 'page-54.png');
    t.done();
  });

  it("names the sandbox profile as the sandbox in the view's subtitle", async () => {
    const sandbox = t.services.profiles.get(SANDBOX_PROFILE_ID)!;
    assert.strictEqual(t.services.galleriesView.treeView.description, profileLabel(sandbox));
    assert.match(String(t.services.galleriesView.treeView.description), /\(sandbox\)$/);
    t.done();
  });

  it('switches straight to the sandbox from the welcome button and from "Use Local Sandbox"', async () => {
    const extension = vscode.extensions.getExtension('spot-tools.spot-import');
    assert.ok(extension);
    const entries = (extension.packageJSON.contributes.viewsWelcome as { view: string; when: string; contents: string }[]).filter(
      (entry) => entry.view === 'spotImport.galleries' && entry.when.startsWith('!spotImport.hasProfile'),
    );
    assert.deepStrictEqual(
      entries.map((entry) => entry.when),
      ['!spotImport.hasProfile && !isWeb', '!spotImport.hasProfile && isWeb'],
      'one text for desktop, one for the browser',
    );
    assert.match(entries[0].contents, /operating system's keychain/);
    assert.match(entries[1].contents, /this browser's storage/);
    assert.ok(
      !entries[1].contents.includes('keychain') || entries[1].contents.includes('not in an operating system keychain'),
      'the browser text does not promise a keychain',
    );
    const welcome = entries[0];
    const link = /\[Use Local Sandbox\]\((command:[^)\s]+)\)/.exec(welcome.contents);
    assert.ok(link, welcome.contents);
    assert.ok(link[1].includes('local-sandbox'), link[1]);
    const uri = vscode.Uri.parse(link[1]);
    assert.strictEqual(uri.path, 'spotImport.switchProfile');
    const args = JSON.parse(uri.query) as unknown[];
    assert.deepStrictEqual(args, [SANDBOX_PROFILE_ID]);

    try {
      // As VS Code runs the link: the command with its arguments, and no quick pick in between.
      await t.services.profiles.setActive(undefined);
      await vscode.commands.executeCommand(uri.path, ...args);
      assert.strictEqual(t.services.profiles.active()?.id, SANDBOX_PROFILE_ID);

      // A gallery command without a profile offers the same direct switch.
      await t.services.profiles.setActive(undefined);
      t.ui.expect({ kind: 'error', match: 'No Spot Import profile is selected', button: 'Use Local Sandbox' });
      await vscode.commands.executeCommand('spotImport.gallery.remove');
      await waitFor('the switch to the sandbox', () => t.services.profiles.active()?.id === SANDBOX_PROFILE_ID);
    } finally {
      await t.services.profiles.setActive(SANDBOX_PROFILE_ID);
    }
    t.done();
  });
});
