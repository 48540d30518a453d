// The Galleries view as a keyboard user meets it (issue 20), inside a real extension host:
// - Alt+Up / Alt+Down act on the row the focus outline is on, not on the selected one. The keys
//   are pressed as VS Code runs a keybinding: through the workbench's command service, with the
//   arguments package.json's keybinding gives (runCommands takes that path too).
// - On a row that is no media row (a gallery, a spot), the keys move nothing and say nothing.
// - A media row opens through VS Code's own vscode.open, so VS Code treats a click, a double click
//   and Enter as it does for a file in the Explorer (a single click previews and leaves the keyboard
//   in the view). What the person sees of it: test/e2e/workflowsGalleriesKeyboard.test.ts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { Row } from './galleriesSupport';
import { JPG, PNG, fixtureFile, galleryRow, importSpot, rows, uniqueSourceId, useScriptedSandbox, waitFor, writeSpotDocument } from './galleriesSupport';

interface Keybinding {
  command: string;
  key: string;
  when?: string;
  args?: unknown;
}

/** The keybinding package.json contributes for `command`. */
function keybinding(command: string): Keybinding {
  const extension = vscode.extensions.getExtension('spot-tools.spot-import');
  assert.ok(extension, 'the extension is installed');
  const found = (extension.packageJSON.contributes.keybindings as Keybinding[]).find((binding) => binding.command === command);
  assert.ok(found, `package.json binds a key to ${command}`);
  return found;
}

/** Runs the keybinding's command as VS Code does when its key is pressed. */
async function press(command: string): Promise<void> {
  const binding = keybinding(command);
  await vscode.commands.executeCommand('runCommands', { commands: [{ command: binding.command, args: binding.args }] });
}

describe('Galleries view: keys and clicks', function () {
  this.timeout(60_000);
  const t = useScriptedSandbox();

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** A gallery of the sandbox profile with files a.png, b.png, … in that order, expanded in the view. */
  async function galleryWith(names: string[]): Promise<{ galleryId: number; gallery: Row }> {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('keys'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const { client } = await t.services.clients.client();
    for (const name of names) await client.uploadMedia(galleryId, fixtureFile(PNG).fsPath, { fileName: name });
    t.services.galleriesView.refreshGallery(galleryId);
    const gallery = await galleryRow(t.services, galleryId);
    await t.services.galleriesView.treeView.reveal(gallery.node, { select: false, focus: false, expand: true });
    return { galleryId, gallery };
  }

  async function mediaRows(galleryId: number): Promise<Row[]> {
    return rows(t.services, (await galleryRow(t.services, galleryId)).node);
  }

  async function serviceNames(galleryId: number): Promise<string[]> {
    const { client } = await t.services.clients.client();
    return (await client.getGallery(galleryId)).media.map((media) => media.file.split('/').at(-1) ?? media.file);
  }

  it('Alt+Up and Alt+Down move the row the focus outline is on, not the selected one', async () => {
    const { galleryId } = await galleryWith(['a.png', 'b.png', 'c.png']);
    const view = t.services.galleriesView.treeView;
    const [a, , c] = await mediaRows(galleryId);
    // a is selected (a click); the keyboard then walks the focus outline down to c.
    await view.reveal(a.node, { select: true, focus: true });
    await view.reveal(c.node, { select: false, focus: true });
    assert.deepStrictEqual(
      view.selection.map((node) => node.id),
      [a.node.id],
      'a stays selected',
    );

    await press('spotImport.media.moveUp');
    assert.deepStrictEqual(await serviceNames(galleryId), ['a.png', 'c.png', 'b.png'], 'Alt+Up moved c, the focused row');
    // The outline is put on c again before Alt+Down: after a move the view redraws the gallery
    // twice (the new order at once, then the service's read back), and a key that VS Code resolves
    // to its row while it redraws was seen to name another row (once in CI, under load). Which row
    // VS Code names then is VS Code's; what is tested here is that the key moves the row it names.
    const moved = (await mediaRows(galleryId)).find((row) => row.label === 'c.png');
    assert.ok(moved, 'c is listed after the move');
    await view.reveal(moved.node, { select: false, focus: true });
    await press('spotImport.media.moveDown');
    assert.deepStrictEqual(await serviceNames(galleryId), ['a.png', 'b.png', 'c.png'], 'Alt+Down moved c back');
    assert.deepStrictEqual(
      (await mediaRows(galleryId)).map((row) => row.label),
      ['a.png', 'b.png', 'c.png'],
    );
    t.done();
  });

  it('Alt+Up on a gallery row moves nothing and says nothing, even with a media row selected', async () => {
    const { galleryId, gallery } = await galleryWith(['a.png', 'b.png']);
    const view = t.services.galleriesView.treeView;
    const [, b] = await mediaRows(galleryId);
    await view.reveal(b.node, { select: true, focus: true });
    await view.reveal(gallery.node, { select: false, focus: true });
    await press('spotImport.media.moveUp');
    assert.deepStrictEqual(await serviceNames(galleryId), ['a.png', 'b.png'], 'Alt+Up did not move the selected b');
    await press('spotImport.media.moveDown');
    assert.deepStrictEqual(await serviceNames(galleryId), ['a.png', 'b.png'], 'Alt+Down did not move it either');
    t.done(); // fails on any message shown
  });

  it("opens a media row with VS Code's vscode.open on its spot-media: address, as a file of the Explorer opens", async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('click'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const { client } = await t.services.clients.client();
    await client.uploadMedia(galleryId, fixtureFile(JPG).fsPath);
    t.services.galleriesView.refreshGallery(galleryId);
    const [row] = await mediaRows(galleryId);
    const command = row.item.command;
    assert.ok(command, 'a media row opens on click');
    // vscode.open is the command VS Code hands the click's own options (preview, keep the focus),
    // as it does for the Explorer's files; a command of ours would get none of them.
    assert.strictEqual(command.command, 'vscode.open');
    const [uri, ...rest] = command.arguments ?? [];
    assert.deepStrictEqual(rest, [], 'no options of our own: VS Code decides by the gesture');
    assert.ok(uri instanceof vscode.Uri && uri.scheme === 'spot-media', String(uri));
    assert.ok(uri.path.endsWith(`/${galleryId}/${(row.node as unknown as { mediaId: number }).mediaId}/${JPG}`), uri.path);
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    await waitFor('the image editor tab', () =>
      vscode.window.tabGroups.all.some((group) =>
        group.tabs.some((tab) => tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === uri.toString()),
      ),
    );
    assert.ok(Buffer.from(await vscode.workspace.fs.readFile(uri)).equals(fs.readFileSync(fixtureFile(JPG).fsPath)), 'the bytes are the uploaded file');
    t.done();
  });
});
