// E2E workflows: what a person does with the packaged extension in the browser, with the built-in
// "Local (sandbox)" profile (the sandbox starts inside the extension host, on loopback).
//   1. Import Spot from the command palette -> the result names the spot id and its pending gallery.
//   2. Upload to that gallery from its node, then the Galleries view expanded down to the media.
//   3. Upload from the Explorer context menu, gallery picked in the quick pick -> new media in the view.
//   4. An invalid document: squiggles and Problems entries; Import Spot sends nothing.
//   5. Refresh Gallery on an expanded gallery keeps its media listed.
//   6. Import Spot with Media from the palette -> the result names the gallery and its media; the
//      Galleries view lists both pictures.
// Screenshots: artifacts/e2e/1x-*.png. Tests 2-5 bring their own prerequisites (see importLakeside),
// so each can also run alone with SPOT_TEST_GREP.
import * as assert from 'assert';
import * as path from 'path';
import {
  activeEditorTab,
  answerFileDialog,
  clearNotifications,
  clickRowAction,
  consoleErrors,
  contextMenuAction,
  dismissOverlays,
  expandToast,
  expandRow,
  openFile,
  openViewContainer,
  page,
  quickInputRow,
  runCommandByKeyboard,
  sandboxCounters,
  setSidebarWidth,
  settledShot,
  shot,
  sidebarRow,
  sidebarTitle,
  toast,
  toastButtons,
  waitForToast,
  workspaceDir,
} from './workbench';
import { explorerRow, galleriesContainer, plainTitle, SANDBOX_LABEL, title, useSandboxProfile } from './workflowHelpers';

const VALID_SPOT = 'import/lakeside-viewpoint.spot.json';
const VALID_SOURCE_ID = 'e2e-lakeside-viewpoint';
const PENDING_FIELD = 'fld_1_7';
const INVALID_SPOT = 'import/broken-trailhead.spot.json';
const NODE_UPLOAD = 'photos/summit-view.png';
const EXPLORER_UPLOAD = 'photos/trail-sign.jpg';
const MEDIA_SPOT = 'media/forest-trail.spot.json';
const MEDIA_SOURCE_ID = 'e2e-forest-trail';
const MEDIA_FIELD = 'fld_1_10';
const MEDIA_FILES = ['01-bark.png', '02-leaves.png'];

interface Imported {
  spotId: number;
  galleryId: number;
  message: string;
}

let imported: Imported | undefined;

/** Opens the valid document and runs Import Spot from the palette (once per run). */
async function importLakeside(): Promise<Imported> {
  if (imported) return imported;
  await useSandboxProfile();
  await openFile(VALID_SPOT);
  await runCommandByKeyboard(title('spotImport.importSpot'), () => shot('10-palette-import-spot'));
  // The first import starts the sandbox inside the extension host first.
  const message = await waitForToast(`Imported "${VALID_SOURCE_ID}"`, 45_000);
  // The progress notification closes as the result appears; let both animations finish.
  await toast(`Importing "${VALID_SOURCE_ID}"`).waitFor({ state: 'hidden', timeout: 15_000 });
  await page().waitForTimeout(500);
  const spotId = Number(/as new spot (\d+)/.exec(message)?.[1]);
  const galleryId = Number(new RegExp(`${PENDING_FIELD} → gallery (\\d+)`).exec(message)?.[1]);
  assert.ok(Number.isInteger(spotId) && spotId > 0, `the result names the spot id: ${message}`);
  assert.ok(Number.isInteger(galleryId) && galleryId > 0, `the result names the pending gallery ${PENDING_FIELD}: ${message}`);
  imported = { spotId, galleryId, message };
  return imported;
}

/** Opens the Spot Galleries view; returns the gallery row of the imported spot (spot row expanded). */
async function showGallery(found: Imported) {
  await openViewContainer(galleriesContainer());
  await sidebarTitle().waitFor({ state: 'visible', timeout: 20_000 });
  await setSidebarWidth(480); // room for the rows' descriptions (spot id, gallery state, media count)
  const spot = sidebarRow(VALID_SOURCE_ID);
  await expandRow(spot);
  assert.match((await spot.textContent()) ?? '', new RegExp(`spot ${found.spotId}(?!\\d)`), 'the spot row shows the spot id');
  const gallery = sidebarRow(new RegExp(`${PENDING_FIELD}.*gallery ${found.galleryId}(?!\\d)`));
  await gallery.waitFor({ state: 'visible', timeout: 20_000 });
  return gallery;
}

let nodeUploaded = false;

/** Upload Media on the gallery node (its inline button), answering the file dialog. */
async function uploadFromGalleryNode(found: Imported): Promise<void> {
  if (nodeUploaded) return;
  const gallery = await showGallery(found);
  await clickRowAction(gallery, plainTitle('spotImport.gallery.upload'));
  await answerFileDialog(path.join(workspaceDir(), NODE_UPLOAD));
  const done = await waitForToast(new RegExp(`Uploaded 1 file .* to gallery ${found.galleryId}\\.`), 30_000);
  assert.match(done, /Uploaded 1 file/);
  nodeUploaded = true;
}

/** The labels of every row the sidebar's tree shows now. */
async function sidebarRows(): Promise<string[]> {
  return (await page().locator('.part.sidebar .monaco-list-row[role="treeitem"]').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
}

/** Waits until the Galleries view lists a media row for each name; fails naming what it shows instead. */
async function expectMediaRows(names: string[], timeout = 15_000): Promise<void> {
  const missing = async () => {
    const rows = await sidebarRows();
    return names.filter((name) => !rows.some((row) => row.startsWith(name)));
  };
  const deadline = Date.now() + timeout;
  while ((await missing()).length > 0 && Date.now() < deadline) await page().waitForTimeout(250);
  const absent = await missing();
  if (absent.length === 0) return;
  const treeErrors = consoleErrors.filter((error) => /already registered|tree/i.test(error));
  assert.fail(
    `the gallery shows no row for ${absent.join(', ')}; the view shows ${JSON.stringify(await sidebarRows())}` +
      (treeErrors.length ? `; the workbench logged: ${[...new Set(treeErrors)].join(' | ')}` : ''),
  );
}

describe('e2e workflows (Local sandbox profile)', function () {
  this.timeout(120_000);

  after(async () => {
    await dismissOverlays().catch(() => undefined);
  });

  it('imports the open spot document from the command palette and names the spot and its pending gallery', async () => {
    await clearNotifications();
    // Another file (walkthrough.test.ts) may have started the sandbox and imported into it already.
    const before = await sandboxCounters(1_000).catch(() => ({ imports: 0 }));
    const found = await importLakeside();
    // The notification offers the next steps of the import.
    const buttons = await toastButtons(`Imported "${VALID_SOURCE_ID}"`);
    assert.ok(buttons.includes('Upload Media') && buttons.includes('Show in Galleries'), `buttons: ${buttons.join(' | ')}`);
    assert.match(found.message, new RegExp(`to ${SANDBOX_LABEL.replace(/[()]/g, '\\$&')}`), 'the result names the sandbox profile');
    assert.ok(await activeEditorTab(path.basename(VALID_SPOT)).isVisible(), 'the imported document stays open');
    const counters = await sandboxCounters();
    assert.strictEqual(counters.imports - before.imports, 1, 'the sandbox received exactly one import');
    await settledShot('11-import-result-notification');
  });

  it('shows the gallery expanded with the uploaded media in the Spot Galleries view', async () => {
    const found = await importLakeside();
    await clearNotifications();
    await uploadFromGalleryNode(found);
    await clearNotifications();
    const gallery = await showGallery(found);
    await expandRow(gallery);
    const media = sidebarRow(path.basename(NODE_UPLOAD));
    await media.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match((await media.textContent()) ?? '', /image\/png/, 'the media row shows its MIME type');
    // The gallery row now shows what its GET answered: state and media count.
    await page().waitForFunction((element) => /1 media/.test(element?.textContent ?? ''), await gallery.elementHandle(), { timeout: 15_000 });
    await settledShot('12-galleries-view-with-media');
  });

  it('uploads an image from the Explorer context menu into the picked gallery', async () => {
    const found = await importLakeside();
    await uploadFromGalleryNode(found); // test 2's media, so the gallery already has one
    await clearNotifications();
    await openViewContainer('Explorer');
    await expandRow(explorerRow(path.dirname(EXPLORER_UPLOAD)));
    const file = explorerRow(path.basename(EXPLORER_UPLOAD));
    await file.click(); // select it first, as a person does before right-clicking
    await contextMenuAction(file, plainTitle('spotImport.uploadToGallery'), () => shot('13-explorer-context-menu-upload'));
    // The gallery picker: known galleries with spot and field names, plus "Enter Gallery Id…".
    const pick = quickInputRow(new RegExp(`gallery ${found.galleryId}(?!\\d)`));
    await pick.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match((await pick.textContent()) ?? '', new RegExp(PENDING_FIELD), 'the pick names the gallery field');
    assert.match((await pick.textContent()) ?? '', new RegExp(VALID_SOURCE_ID), 'the pick names the spot');
    await shot('14-explorer-upload-pick-gallery');
    await pick.click();
    const done = await waitForToast(new RegExp(`Uploaded 1 file .* to gallery ${found.galleryId}\\.`), 30_000);
    assert.match(done, /Uploaded 1 file/);
    // The gallery node refreshed itself: both media are listed.
    const gallery = await showGallery(found);
    await expandRow(gallery);
    await expectMediaRows([path.basename(NODE_UPLOAD), path.basename(EXPLORER_UPLOAD)]);
    assert.match((await sidebarRow(path.basename(EXPLORER_UPLOAD)).textContent()) ?? '', /image\/jpeg/);
    await page().waitForFunction((element) => /2 media/.test(element?.textContent ?? ''), await gallery.elementHandle(), { timeout: 15_000 });
    await settledShot('15-explorer-upload-done');
  });

  it('shows diagnostics for an invalid document, and Import Spot sends nothing', async () => {
    await useSandboxProfile();
    await importLakeside(); // the sandbox runs: its counters show whether anything is sent
    await clearNotifications();
    await openViewContainer('Explorer');
    await openFile(INVALID_SPOT);
    const p = page();
    // Squiggles: the extension's own rule (a pending gallery needs state 2) as an error, the schema's
    // range of latitude from the JSON language service (as a warning, VS Code's default for schemas).
    const squiggles = p.locator('.part.editor .editor-group-container.active .monaco-editor :is(.squiggly-error, .squiggly-warning)');
    await p.locator('.part.editor .editor-group-container.active .monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 20_000 });
    await p.waitForFunction(
      () => document.querySelectorAll('.part.editor .editor-group-container.active .monaco-editor :is(.squiggly-error, .squiggly-warning)').length >= 2,
      undefined,
      { timeout: 20_000 },
    );
    assert.ok((await squiggles.count()) >= 2, 'both problems are underlined');
    // The Problems panel lists them under the file.
    await p.locator('.part.statusbar .statusbar-item#status\\.problems').click();
    const problems = p.locator('.part.panel .markers-panel .monaco-list-row');
    await problems
      .filter({ hasText: /latitude must be between -90 and 90|maximum of 90/ })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await problems
      .filter({ hasText: /fld_1_7 is pending \(null\).*"state": 2/ })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    const before = await sandboxCounters();
    await p.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first().click();
    await runCommandByKeyboard(title('spotImport.importSpot'));
    const message = await waitForToast('nothing was sent', 20_000);
    assert.match(message, /Not imported, nothing was sent/);
    assert.match(message, /broken-trailhead\.spot\.json/);
    const after = await sandboxCounters();
    assert.strictEqual(after.imports, before.imports, 'the sandbox received no import');
    await expandToast('nothing was sent');
    await settledShot('16-invalid-document-diagnostics', { x: 1000, y: 420 });
  });

  it('keeps the media listed when an expanded gallery is refreshed from its node', async () => {
    const found = await importLakeside();
    await uploadFromGalleryNode(found);
    await clearNotifications();
    const gallery = await showGallery(found);
    // Start from a fresh tree (the view's Refresh), the gallery expanded with its media.
    await page()
      .locator(`.part.sidebar .title-actions .action-label[aria-label="${plainTitle('spotImport.galleries.refresh')}"]`)
      .click();
    await expandRow(gallery);
    await expectMediaRows([path.basename(NODE_UPLOAD)]);
    // The gallery's own Refresh (its context menu) reloads it: its media stay listed.
    await contextMenuAction(gallery, plainTitle('spotImport.gallery.refresh'));
    await page().waitForTimeout(1_000);
    await expectMediaRows([path.basename(NODE_UPLOAD)]);
    assert.strictEqual(await gallery.getAttribute('aria-expanded'), 'true', 'the gallery stays expanded');
    await settledShot('17-gallery-refreshed-keeps-media');
  });

  it('imports a spot with its media folder from the palette, and the Galleries view lists the media', async () => {
    await useSandboxProfile();
    await clearNotifications();
    await openFile(MEDIA_SPOT);
    await runCommandByKeyboard(title('spotImport.importSpotWithMedia'), () => shot('18-palette-import-with-media'));
    const message = await waitForToast(new RegExp(`Imported "${MEDIA_SOURCE_ID}" as new spot \\d+`), 45_000);
    await toast(`Importing "${MEDIA_SOURCE_ID}"`).waitFor({ state: 'hidden', timeout: 15_000 });
    await page().waitForTimeout(500);
    const galleryId = Number(new RegExp(`${MEDIA_FIELD} → gallery (\\d+) \\(2 of 2 media: 2 uploaded\\)`).exec(message)?.[1]);
    assert.ok(Number.isInteger(galleryId) && galleryId > 0, `the result names the gallery and its media: ${message}`);
    assert.ok((await toastButtons(`Imported "${MEDIA_SOURCE_ID}"`)).includes('Show in Galleries'));
    await settledShot('19-import-with-media-result');

    await clearNotifications();
    await openViewContainer(galleriesContainer());
    await sidebarTitle().waitFor({ state: 'visible', timeout: 20_000 });
    await setSidebarWidth(480);
    const spot = sidebarRow(MEDIA_SOURCE_ID);
    await expandRow(spot);
    const gallery = sidebarRow(new RegExp(`${MEDIA_FIELD}.*gallery ${galleryId}(?!\\d)`));
    await gallery.waitFor({ state: 'visible', timeout: 20_000 });
    await expandRow(gallery);
    await expectMediaRows(MEDIA_FILES);
    await settledShot('20-gallery-after-media-import');
  });
});
