// E2E smoke: the packaged extension, installed from its .vsix, in the real workbench UI.
import * as assert from 'assert';
import { commandTitle, dismissOverlays, explorerContextMenu, manifest, openViewContainer, page, runCommand, shot, sidebarTitle } from './workbench';

describe('e2e smoke', function () {
  this.timeout(90_000);

  it('opens the fixture workspace in the workbench', async () => {
    await page().locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).first().waitFor({ timeout: 20_000 });
    await shot('01-workbench');
  });

  it('lists the packaged extension as installed', async () => {
    await openViewContainer('Extensions');
    const search = page().locator('.extensions-viewlet .suggest-input-container').first();
    await search.click();
    await page().keyboard.type('@installed spot');
    const entry = page().locator('.extensions-viewlet .extension-list-item', { hasText: manifest.displayName }).first();
    await entry.waitFor({ state: 'visible', timeout: 30_000 });
    await shot('02-installed-extension');
  });

  it('opens the Spot Import view container and its galleries view', async () => {
    const container = manifest.contributes?.viewsContainers?.activitybar?.find((c) => c.id === 'spotImport');
    const view = manifest.contributes?.views?.spotImport?.find((v) => v.id === 'spotImport.galleries');
    assert.ok(container, 'package.json contributes the activity bar container "spotImport"');
    assert.ok(view, 'package.json contributes the view "spotImport.galleries" in it');
    await openViewContainer(container.title);
    // One view in the container: the sidebar title reads "<container>: <view>" (no pane header).
    const title = sidebarTitle();
    await title.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match((await title.textContent()) ?? '', new RegExp(`${container.title}.*${view.name}`, 'i'));
    // The view renders its welcome content (no profile yet) or tree rows.
    const content = page().locator('.part.sidebar .pane-body .welcome-view-content, .part.sidebar .pane-body .monaco-list-row').first();
    await content.waitFor({ state: 'visible', timeout: 20_000 });
    await shot('03-galleries-view');
  });

  it('runs "New Spot Document" from the command palette', async () => {
    const title = commandTitle('spotImport.newSpotDocument');
    assert.ok(title, 'package.json contributes spotImport.newSpotDocument');
    await runCommand(title);
    // A new editor holding the spot template opens.
    const editor = page().locator('.part.editor .monaco-editor .view-lines').first();
    await editor.waitFor({ state: 'visible', timeout: 30_000 });
    await page().waitForFunction(() => document.querySelector('.part.editor .monaco-editor .view-lines')?.textContent?.includes('spots'), undefined, {
      timeout: 30_000,
    });
    const text = (await editor.textContent()) ?? '';
    assert.match(text.replace(/\u00a0/g, ' '), /"type"\s*:\s*"spots"/);
    await shot('04-new-spot-document');
    await dismissOverlays();
  });

  it('offers the import commands in the Explorer context menu', async () => {
    const importFolder = manifest.contributes?.commands?.find((c) => c.command === 'spotImport.importFolder');
    const importSpot = manifest.contributes?.commands?.find((c) => c.command === 'spotImport.importSpot');
    assert.ok(importFolder, 'package.json contributes spotImport.importFolder');
    assert.ok(importSpot, 'package.json contributes spotImport.importSpot');
    await openViewContainer('Explorer');
    // On a folder: "Import Folder…"
    const folderItems = await explorerContextMenu('import');
    await shot('05-explorer-folder-context-menu');
    await dismissOverlays();
    assert.ok(folderItems.includes(importFolder.title), `folder menu lists "${importFolder.title}": ${folderItems.join(' | ')}`);
    assert.ok(!folderItems.includes(importSpot.title), 'no "Import Spot" on a folder');
    // On a plain file (not *.spot.json): no "Import Spot".
    const fileItems = await explorerContextMenu('README.md');
    await dismissOverlays();
    assert.ok(!fileItems.includes(importSpot.title), `"${importSpot.title}" only on spot documents: ${fileItems.join(' | ')}`);
  });
});
