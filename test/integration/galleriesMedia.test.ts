// Media you can see, inside a real extension host: a media row opens in VS Code's image editor
// through the read-only spot-media: file system (bytes equal the uploaded file), the question
// before a large download, the advice (and the command) when a profile has no media URL template,
// tooltip pictures and the gallery grid. The rows themselves: galleriesRows.test.ts. Against the built-in sandbox, and the test sandbox for remote profiles.
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as vscode from 'vscode';
import type { Row } from './galleriesSupport';
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
import { addProfileAt, testSandbox } from './helpers/testEnv';

const IMAGE_EDITOR = 'imagePreview.previewEditor';

/** The tab that shows `uri`, once there is one. */
function tabShowing(uri: vscode.Uri): vscode.Tab | undefined {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input as { uri?: vscode.Uri } | undefined;
      if (input?.uri?.toString() === uri.toString()) return tab;
    }
  }
  return undefined;
}

describe('Galleries view: media files', function () {
  this.timeout(60_000);
  const t = useScriptedSandbox();
  const settings = () => vscode.workspace.getConfiguration('spotImport');

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** A gallery of the sandbox profile with the given fixture files uploaded (straight through the client). */
  async function galleryWith(names: string[], prefix = 'media'): Promise<{ galleryId: number; media: Row[] }> {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId(prefix), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const { client } = await t.services.clients.client();
    for (const name of names) await client.uploadMedia(galleryId, fixtureFile(name).fsPath);
    t.services.galleriesView.refreshGallery(galleryId);
    const media = await rows(t.services, (await galleryRow(t.services, galleryId)).node);
    return { galleryId, media };
  }

  /**
   * Runs the row's command as a click does. A row that can show its file has vscode.open on its
   * address (the editor then reads the file: the download, its question and its failures happen
   * there); a row without a media URL template has Open Media, which says how to set one. Answers
   * the address opened (Open Media's answer), or undefined. The image preview reads its file once
   * its page shows, which it may not do in this headless window: tests read the file as it would
   * (vscode.workspace.fs reaches the same readFile).
   */
  async function open(row: Row): Promise<vscode.Uri | undefined> {
    const command = row.item.command;
    assert.ok(command, 'a media row opens on click');
    if (command.command === 'vscode.open') {
      const [uri] = command.arguments ?? [];
      assert.ok(uri instanceof vscode.Uri && uri.scheme === 'spot-media', `vscode.open on the file's address: ${String(uri)}`);
      await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
      return uri;
    }
    assert.strictEqual(command.command, 'spotImport.media.openFile');
    return vscode.commands.executeCommand<vscode.Uri | undefined>(command.command, ...(command.arguments ?? []));
  }

  /** The prompts shown so far of one kind. */
  const shownOf = (kind: string) => t.ui.shown.filter((prompt) => prompt.kind === kind);

  /** How many file reads the built-in sandbox has served. */
  async function fileReads(): Promise<number> {
    const baseUrl = t.services.profiles.active()!.baseUrl;
    const reply = await fetch(`${baseUrl}/__sandbox/counters`, { signal: AbortSignal.timeout(5_000) });
    return ((await reply.json()) as { fileReads: number }).fileReads;
  }

  it('opens a media row in the image editor, read through the read-only media file system', async () => {
    const { galleryId, media } = await galleryWith([PNG]);
    const reads = await fileReads();
    const uri = await open(media[0]);
    assert.ok(uri, 'the row opens an address');
    assert.strictEqual(uri.scheme, 'spot-media');
    assert.ok(uri.path.endsWith(`/${galleryId}/${(media[0].node as unknown as { mediaId: number }).mediaId}/${PNG}`), uri.path);
    const tab = await waitFor('the image editor tab', () => tabShowing(uri));
    assert.ok(tab.input instanceof vscode.TabInputCustom, 'a custom editor, not a text document');
    assert.strictEqual(tab.input.viewType, IMAGE_EDITOR);
    assert.strictEqual(tab.input.uri.toString(), uri.toString(), "the tab's input is the file system's address");
    const bytes = await vscode.workspace.fs.readFile(uri);
    assert.ok(Buffer.from(bytes).equals(fs.readFileSync(fixtureFile(PNG).fsPath)), 'the bytes are the uploaded file');
    // The preview asks for the file with a query of its own: still the file downloaded once.
    assert.strictEqual(await fileReads(), reads + 1, 'downloaded once for the editor and this read');
    assert.ok(!vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString()), 'no text document was made of it');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, new Uint8Array([1]))), /NoPermissions|permission|read-only|readonly/i);
    t.done();
  });

  it('asks before downloading a file larger than spotImport.media.askBeforeDownloadMB (default 10)', async () => {
    const extension = vscode.extensions.getExtension('spot-tools.spot-import')!;
    const declared = extension.packageJSON.contributes.configuration.properties['spotImport.media.askBeforeDownloadMB'] as { default: number };
    assert.strictEqual(declared.default, 10);
    const { media } = await galleryWith([PNG], 'large');
    const size = fs.statSync(fixtureFile(PNG).fsPath).size;
    await settings().update('media.askBeforeDownloadMB', 0, vscode.ConfigurationTarget.Global);
    try {
      // No: the tab the click opened closes again, nothing is kept, and no error pops up. The
      // preview may read the file again after No, its tab open or closing (VS Code 1.139 does):
      // that read is not asked again. It is made here the moment after No, as the preview would.
      let readAgain: Promise<unknown> | undefined;
      const readAfterNo = (uri: vscode.Uri) =>
        setImmediate(() => {
          readAgain = Promise.resolve(vscode.workspace.fs.readFile(uri));
          readAgain.catch(() => undefined);
        });
      const address = media[0].item.command?.arguments?.[0] as vscode.Uri;
      t.ui.expect({ kind: 'warning', match: `${PNG} is ${size} bytes. Download it to show it here?`, beforeAnswer: async () => readAfterNo(address) });
      const declined = await open(media[0]);
      assert.strictEqual(declined?.toString(), address.toString());
      await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(declined)), 'the editor gets no file');
      await waitFor(
        'the tab to close',
        () => !vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => (tab.input as { uri?: vscode.Uri })?.uri?.scheme === 'spot-media')),
      );
      assert.ok(readAgain, 'the file was read again after No');
      await assert.rejects(readAgain, 'the read after No gets no file either');
      assert.strictEqual(shownOf('warning').length, 1, 'asked once');
      assert.ok(!t.services.galleriesView.mediaFiles.isHeld(declined));
      const asked = shownOf('warning')[0];
      assert.deepStrictEqual(asked.buttons, ['Download']);
      assert.match(asked.detail ?? '', /spotImport\.media\.askBeforeDownloadMB/);
      // Yes: it opens.
      t.ui.expect({ kind: 'warning', match: `${PNG} is ${size} bytes.`, button: 'Download' });
      const uri = await open(media[0]);
      assert.ok(uri);
      await waitFor('the image editor tab', () => tabShowing(uri));
      assert.ok(Buffer.from(await vscode.workspace.fs.readFile(uri)).equals(fs.readFileSync(fixtureFile(PNG).fsPath)));
      assert.ok(t.services.galleriesView.mediaFiles.isHeld(uri));
      assert.ok(tabShowing(uri), 'the tab stays');
    } finally {
      await settings().update('media.askBeforeDownloadMB', undefined, vscode.ConfigurationTarget.Global);
    }
    t.done();
  });

  it('shows an image in its tooltip: a small one as a data URI, an https one by its address', async () => {
    const { media } = await galleryWith([PNG, JPG], 'tooltip');
    const png = await hoverTooltip(t.services, media[0]);
    const base64 = fs.readFileSync(fixtureFile(PNG).fsPath).toString('base64');
    assert.ok(png.includes(`(data:image/png;base64,${base64}|height=160)`), png);
    assert.match(png, /1 of 2/);
    assert.match(png, /Click to open it here/);

    // A remote profile whose files host is https: the tooltip names the address, nothing is fetched here.
    const running = await testSandbox();
    const remote = await addProfileAt(uniqueSourceId('IT https files'), running.baseUrl);
    try {
      await t.services.profiles.setMediaUrlTemplate(remote.profile.id, 'https://files.example.org/img/{id}/{file}');
      await t.services.profiles.setActive(remote.profile.id);
      const { client } = await t.services.clients.clientFor(remote.profile.id);
      const attributes = { topic_id: 37, source_id: uniqueSourceId('https-files'), latitude: 47.07, longitude: 15.44, state: 2, fld_37_12: null };
      const galleryId = (await client.importSpot({ data: { type: 'spots', attributes } })).pendingGalleries[0].galleryId;
      const uploaded = await client.uploadMedia(galleryId, fixtureFile(PNG).fsPath);
      const mediaId = (uploaded.reply as { data: { id: number } }).data.id;
      await t.services.galleries.add(remote.profile.id, [{ galleryId, pending: false }]);
      const before = running.counters.fileReads;
      const [row] = await rows(t.services, (await galleryRow(t.services, galleryId)).node);
      const tooltip = await hoverTooltip(t.services, row);
      assert.ok(tooltip.includes(`(https://files.example.org/img/${mediaId}/${PNG}|height=160)`), tooltip);
      assert.strictEqual(running.counters.fileReads, before);
    } finally {
      await remote.remove();
    }
    t.done();
  });

  /** A profile of the test sandbox (no media URL template), made active, with a gallery of one JPG in the view. */
  async function remoteGalleryWithJpg(label: string) {
    const running = await testSandbox();
    const remote = await addProfileAt(uniqueSourceId(label), running.baseUrl);
    try {
      await t.services.profiles.setActive(remote.profile.id);
      const { client } = await t.services.clients.clientFor(remote.profile.id);
      const attributes = { topic_id: 37, source_id: uniqueSourceId(label), latitude: 47.07, longitude: 15.44, state: 2, fld_37_12: null };
      const galleryId = (await client.importSpot({ data: { type: 'spots', attributes } })).pendingGalleries[0].galleryId;
      await client.uploadMedia(galleryId, fixtureFile(JPG).fsPath);
      await t.services.galleries.add(remote.profile.id, [{ galleryId, pending: false }]);
      return { running, remote, galleryId };
    } catch (error) {
      await remote.remove();
      throw error;
    }
  }

  it('says how to set a media URL template when the profile has none, and the template set makes the file open', async () => {
    const { running, remote, galleryId } = await remoteGalleryWithJpg('IT no template');
    try {
      const [row] = await rows(t.services, (await galleryRow(t.services, galleryId)).node);
      assert.match(
        await hoverTooltip(t.services, row),
        /Set the profile's media URL template to see it here: \[Set Media URL Template…\]\(command:spotImport\.setMediaUrlTemplate\)/,
      );

      const before = running.counters.fileReads;
      t.ui.expect({
        kind: 'error',
        match: /has no media URL template .* e\.g\. https:\/\/files\.example\.org\/images\/\{file\}/,
        button: 'Set Media URL Template…',
      });
      const template = `${running.baseUrl}/files/{id}/{file}`;
      t.ui.expect({
        kind: 'input',
        match: 'Media URL template of',
        rejects: ['https://files.example.org/images/', 'http://files.example.org/{file}'],
        answer: template,
      });
      assert.strictEqual(await open(row), undefined);
      // The error's button runs Set Media URL Template… for this profile.
      await waitFor('the template to be set', () => t.services.profiles.get(remote.profile.id)?.mediaUrlTemplate === template);
      assert.strictEqual(running.counters.fileReads, before, 'nothing was fetched without a template');

      const [again] = await rows(t.services, (await galleryRow(t.services, galleryId)).node);
      const uri = await open(again);
      assert.ok(uri);
      const tab = await waitFor('the image editor tab', () => tabShowing(uri));
      assert.strictEqual((tab.input as vscode.TabInputCustom).viewType, IMAGE_EDITOR);
      assert.ok(Buffer.from(await vscode.workspace.fs.readFile(uri)).equals(fs.readFileSync(fixtureFile(JPG).fsPath)));

      // Without a template of its own, the profile uses the global setting (kept as the fallback).
      await t.services.profiles.setMediaUrlTemplate(remote.profile.id, '');
      await settings().update('mediaUrlTemplate', template, vscode.ConfigurationTarget.Global);
      try {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        const [fallback] = await rows(t.services, (await galleryRow(t.services, galleryId)).node);
        const viaSetting = await open(fallback);
        assert.ok(viaSetting);
        await waitFor('the image editor tab', () => tabShowing(viaSetting));
      } finally {
        await settings().update('mediaUrlTemplate', undefined, vscode.ConfigurationTarget.Global);
      }
    } finally {
      await remote.remove();
    }
    t.done();
  });

  it('a file host that answers 403 (it is sent no token) gets no Update Credentials: new credentials would not change its answer', async () => {
    const { remote, galleryId } = await remoteGalleryWithJpg('IT files 403');
    const files = http.createServer((request, response) => {
      request.resume();
      response.writeHead(403, { 'content-type': 'text/plain' });
      response.end('Forbidden');
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    try {
      await t.services.profiles.setMediaUrlTemplate(remote.profile.id, `http://127.0.0.1:${(files.address() as AddressInfo).port}/{file}`);
      const [row] = await rows(t.services, (await galleryRow(t.services, galleryId)).node);
      // The click opens the tab; the editor's read of the file fails, and that is reported once
      // (two readers of the file share one download).
      t.ui.expect({ kind: 'error', match: /403/ });
      const uri = await open(row);
      assert.ok(uri);
      const reads = [vscode.workspace.fs.readFile(uri), vscode.workspace.fs.readFile(uri)].map((read) => assert.rejects(Promise.resolve(read), /403/));
      await Promise.all(reads);
      // An editor that reads the file again while its tab is open (VS Code 1.139 does, with the
      // file host gone by then) is not told again: one failure, one message.
      files.closeAllConnections();
      await new Promise<void>((resolve) => files.close(() => resolve()));
      await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(uri)), /could not reach|refused/);
      assert.deepStrictEqual(
        shownOf('error').map((prompt) => prompt.buttons),
        [['Show Log']],
      );
    } finally {
      files.closeAllConnections();
      if (files.listening) await new Promise<void>((resolve) => files.close(() => resolve()));
      await remote.remove();
    }
    t.done();
  });

  it('opens the gallery as a grid of thumbnails with a strict policy, and follows the gallery', async () => {
    const { galleryId } = await galleryWith([PNG, JPG], 'grid');
    const profile = t.services.profiles.active()!;
    await vscode.commands.executeCommand('spotImport.gallery.openGrid', (await galleryRow(t.services, galleryId)).node);
    const grid = t.services.galleriesView.grids.find(profile.id, galleryId);
    assert.ok(grid, 'the grid is open');
    const state = await waitFor('the grid to show the gallery', () => (grid.lastState?.status === 'loaded' ? grid.lastState : undefined));
    assert.deepStrictEqual(
      state.tiles.map((tile) => [tile.name, tile.mimeType]),
      [
        [PNG, 'image/png'],
        [JPG, 'image/jpeg'],
      ],
    );
    const origin = new URL(profile.baseUrl || t.services.profiles.get(profile.id)!.baseUrl).origin;
    for (const tile of state.tiles) assert.ok(tile.src?.startsWith(`${origin}/files/${tile.id}/`), tile.src);
    const html = grid.panel.webview.html;
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, new RegExp(`img-src ${origin.replace(/[.]/g, '\\.')} data:;`));
    assert.match(policy, /script-src 'nonce-[A-Za-z0-9+/=]+'/);
    const nonce = /'nonce-([^']+)'/.exec(policy)![1];
    assert.ok(html.includes(`<script nonce="${nonce}" src=`), 'the one script carries the nonce');
    assert.ok(!/<script(?![^>]*nonce)/.test(html), 'no script without it');
    assert.strictEqual(grid.panel.title, 'Gallery: fld_37_12');

    // An upload and a refresh: the grid follows.
    const { client } = await t.services.clients.client();
    await client.uploadMedia(galleryId, fixtureFile(PNG).fsPath, { fileName: 'third.png' });
    t.services.galleriesView.refreshGallery(galleryId);
    await waitFor('the grid to show the third file', () => grid.lastState?.tiles.length === 3);
    // A reorder (from the tree or the grid): the grid shows it.
    const ids = grid.lastState!.tiles.map((tile) => tile.id);
    await t.services.galleriesView.reorder({ profileId: profile.id, galleryId, mediaIds: [ids[2]], place: 'top' });
    await waitFor('the grid to show the new order', () => grid.lastState?.tiles[0]?.id === ids[2]);
    // A tile opens its file the way a row does.
    const uri = await vscode.commands.executeCommand<vscode.Uri>('spotImport.media.openFile', { profileId: profile.id, galleryId, mediaId: ids[0] });
    await waitFor('the image editor tab', () => tabShowing(uri));
    grid.panel.dispose();
    assert.strictEqual(t.services.galleriesView.grids.find(profile.id, galleryId), undefined);
    t.done();
  });
});
