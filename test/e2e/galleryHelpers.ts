// The galleries e2e tests' common ground: a topic-7 spot imported with the built-in "Local
// (sandbox)" profile and three pictures uploaded into its gallery from the Explorer, once per run
// (whichever test needs it first), and readers of the tree, the tabs and the webviews.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Frame } from 'playwright-core';
import { PALETTES, writeLandscape } from './pictures';
import {
  activeEditorTab,
  clearNotifications,
  clickRowAction,
  contextMenuAction,
  expandRow,
  openFile,
  openViewContainer,
  page,
  quickInputRow,
  runCommand,
  runCommandByKeyboard,
  shot,
  sidebarRow,
  sidebarTitle,
  waitForToast,
  workspaceDir,
} from './workbench';
import { explorerRow, galleriesContainer, plainTitle, title, useSandboxProfile } from './workflowHelpers';

const SPOT = 'import/trail-photos.spot.json';
export const SOURCE_ID = 'e2e-trail-photos';
const FIELD = 'fld_7_3';
export const LABEL = 'Photos';
export const PICTURES = [
  { name: 'dawn-ridge.png', palette: PALETTES.dawn },
  { name: 'lake-shore.png', palette: PALETTES.lake },
  { name: 'meadow-path.png', palette: PALETTES.meadow },
];

/** The topic definition, the spot document and the pictures, written into the open workspace copy. */
function writeWorkspaceFiles(): void {
  const root = workspaceDir();
  fs.mkdirSync(path.join(root, 'spot-topics'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'spot-topics', '7.topic.json'),
    JSON.stringify(
      { topic_id: 7, name: 'Trail observations', fields: { fld_7_1: { label: 'Species', type: 'integer' }, [FIELD]: { label: LABEL, type: 'gallery' } } },
      null,
      2,
    ) + '\n',
  );
  fs.writeFileSync(
    path.join(root, SPOT),
    JSON.stringify(
      {
        data: { type: 'spots', attributes: { topic_id: 7, source_id: SOURCE_ID, latitude: 47.2692, longitude: 11.4041, state: 2, fld_7_1: 3, [FIELD]: null } },
      },
      null,
      2,
    ) + '\n',
  );
  fs.mkdirSync(path.join(root, 'pictures'), { recursive: true });
  for (const picture of PICTURES) writeLandscape(path.join(root, 'pictures', picture.name), picture.palette);
}

/** The rows' texts of the sidebar's tree. */
export async function sidebarTexts(): Promise<string[]> {
  return (await page().locator('.part.sidebar .monaco-list-row[role="treeitem"]').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
}

/**
 * The frame of a webview whose document has `selector` (webviews nest two iframes deep; the
 * workbench's own page is never one), and not `unless`.
 */
export async function webviewFrame(selector: string, unless?: string, timeoutMs = 20_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Newest first: a webview shown again gets a new frame, and the old one may linger a moment.
    for (const frame of [...page().frames()].reverse()) {
      if (frame === page().mainFrame() || frame.isDetached()) continue;
      const found = await frame.$(selector).catch(() => null);
      if (found && (await found.isVisible().catch(() => false)) && !(unless && (await frame.$(unless).catch(() => null)))) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no webview shows ${selector}`);
    await page().waitForTimeout(250);
  }
}

/**
 * The image preview once it shows its picture for good, and the picture's natural size. The
 * preview renders again (a new frame; the old one is detached) when the media file system says
 * the file changed, which it does once a download is in so that the preview's size entry in the
 * status bar is right: so the size entry must show the file's size (not 0 B), and the frame with
 * the loaded picture must be the newest for a quiet half second (no frame attached meanwhile).
 * Every look is at the frames there are now; the size is read in the same look as the frame.
 */
export async function imagePreviewShown(timeoutMs = 30_000): Promise<{ frame: Frame; size: [number, number] }> {
  const deadline = Date.now() + timeoutMs;
  await page()
    .locator('.part.statusbar .statusbar-item', { hasText: /^(?!0\s?B$)\d+(\.\d+)?\s?(B|KB|MB|GB)$/ })
    .first()
    .waitFor({ state: 'visible', timeout: timeoutMs });
  let lastAttached = Date.now();
  const attached = () => (lastAttached = Date.now());
  page().on('frameattached', attached);
  try {
    for (;;) {
      const found = await newestLoadedPreview();
      if (found && Date.now() - lastAttached >= 500 && !found.frame.isDetached()) return found;
      if (Date.now() > deadline) throw new Error('no image preview showed its picture for good');
      await page().waitForTimeout(100);
    }
  } finally {
    page().off('frameattached', attached);
  }
}

/** The newest frame (not the grid) whose images have all loaded, with the first one's natural size. */
async function newestLoadedPreview(): Promise<{ frame: Frame; size: [number, number] } | undefined> {
  for (const frame of [...page().frames()].reverse()) {
    if (frame === page().mainFrame() || frame.isDetached()) continue;
    const size = await frame
      .evaluate((): [number, number] | undefined => {
        if (document.querySelector('#grid')) return undefined;
        const images = Array.from(document.querySelectorAll('img'));
        const loaded = images.length > 0 && images.every((image) => image.complete && image.naturalWidth > 0 && image.getBoundingClientRect().width > 0);
        return loaded ? [images[0].naturalWidth, images[0].naturalHeight] : undefined;
      })
      .catch(() => undefined);
    if (size) return { frame, size };
  }
  return undefined;
}

/** Waits until every image of the frame matching `selector` has loaded (naturalWidth > 0). */
export async function imagesLoaded(frame: Frame, selector: string, count: number): Promise<void> {
  await frame.waitForFunction(
    ({ selector, count }) => {
      const images = Array.from(document.querySelectorAll<HTMLImageElement>(selector));
      return images.length >= count && images.every((image) => image.complete && image.naturalWidth > 0);
    },
    { selector, count },
    { timeout: 20_000 },
  );
}

/**
 * Closes every editor; an unsaved one left by an earlier test (New Spot Document) is closed
 * without saving.
 */
export async function closeAllEditors(): Promise<void> {
  await runCommand('View: Close All Editors');
  const dontSave = page().locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Save" }).first();
  // Each unsaved editor asks in a dialog of its own; done when no tab is left. Waiting for whichever
  // comes first, not for a dialog that may never come (1.5 s each time, 20 s a run).
  for (let asked = 0; asked < 5; asked++) {
    const outcome = await page()
      .waitForFunction(
        () => {
          const buttons = Array.from(document.querySelectorAll('.monaco-dialog-box .monaco-button'));
          if (buttons.some((button) => button.textContent?.includes("Don't Save"))) return 'ask';
          return document.querySelector('.part.editor .tab') ? false : 'closed';
        },
        undefined,
        { timeout: 10_000 },
      )
      .then(
        (handle) => handle.jsonValue(),
        () => 'still open',
      );
    if (outcome === 'closed') return;
    if (outcome !== 'ask') throw new Error('Close All Editors left a tab open, with no dialog asking about unsaved changes');
    await dontSave.click();
  }
  await page().locator('.part.editor .tab').first().waitFor({ state: 'hidden', timeout: 10_000 });
}

export interface Imported {
  galleryId: number;
}

let imported: Promise<Imported> | undefined;

/** Import the spot, upload the three pictures from the Explorer (once per run, even when it failed). */
export function importWithPictures(): Promise<Imported> {
  imported ??= importAndUpload();
  return imported;
}

async function importAndUpload(): Promise<Imported> {
  writeWorkspaceFiles();
  await useSandboxProfile();
  await clearNotifications();
  // Opened as a person who wrote it would have it: the editor's own events tell the extension
  // (a file written from outside is noticed only when the file watcher gets to it).
  await openFile('spot-topics/7.topic.json');
  await openFile(SPOT);
  await runCommandByKeyboard(title('spotImport.importSpot'));
  const message = await waitForToast(`Imported "${SOURCE_ID}"`, 45_000);
  const galleryId = Number(new RegExp(`${FIELD} → gallery (\\d+)`).exec(message)?.[1]);
  assert.ok(Number.isInteger(galleryId) && galleryId > 0, message);
  await clearNotifications();

  // The three pictures, one after the other, with the Explorer's context menu.
  await openViewContainer('Explorer');
  await expandRow(explorerRow('pictures'));
  for (const [index, picture] of PICTURES.entries()) {
    await contextMenuAction(explorerRow(picture.name), plainTitle('spotImport.uploadToGallery'), async () => {
      if (index > 0) return;
      // Where the entry sits: beside VS Code's own Download…/Upload… entries, not last in the menu.
      const labels = (await page().locator('.context-view .monaco-menu .action-item .action-label').allTextContents())
        .map((label) => label.trim())
        .filter(Boolean);
      const at = labels.indexOf(plainTitle('spotImport.uploadToGallery'));
      assert.ok(at >= 0 && at < labels.length - 3, `the upload entry is not at the bottom: ${labels.join(' | ')}`);
      await shot('20-explorer-menu-upload-to-gallery');
    });
    const pick = quickInputRow(new RegExp(`gallery ${galleryId}(?!\\d)`));
    await pick.waitFor({ state: 'visible', timeout: 15_000 });
    await pick.click();
    const done = await waitForToast(new RegExp(`Uploaded 1 file .* to gallery ${galleryId}\\.`), 30_000);
    assert.match(done, /Uploaded 1 file/, done);
    await clearNotifications();
  }
  await clearNotifications();
  await closeAllEditors();
  return { galleryId };
}

/** The gallery's row in the Spot Galleries view (its spot expanded). */
export async function galleryRow(found: Imported) {
  await openViewContainer(galleriesContainer());
  await sidebarTitle().waitFor({ state: 'visible', timeout: 20_000 });
  await expandRow(sidebarRow(SOURCE_ID));
  const row = sidebarRow(new RegExp(`^${LABEL}.*gallery ${found.galleryId}(?!\\d)`));
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  return row;
}

/** The pictures' names in the order the tree shows them. */
export async function shownOrder(): Promise<string[]> {
  return (await sidebarTexts()).map((text) => PICTURES.find((picture) => text.startsWith(picture.name))?.name).filter((name): name is string => !!name);
}

/** Waits (15 s at most) until the tree shows the pictures in `expected` order; returns the order last seen. */
export async function waitForOrder(expected: string[]): Promise<string[]> {
  let order: string[] = [];
  for (const until = Date.now() + 15_000; Date.now() < until; await page().waitForTimeout(250)) {
    order = await shownOrder();
    if (order.join() === expected.join()) break;
  }
  return order;
}

/**
 * Which part of the workbench has the keyboard: the side bar, an editor (the image preview is a
 * webview, which VS Code lays over the editor area from outside it), or another.
 */
export function keyboardIn(): Promise<'sidebar' | 'editor' | 'other'> {
  return page().evaluate(() => {
    const active = document.activeElement;
    if (active?.closest('.part.sidebar')) return 'sidebar';
    if (active?.closest('.part.editor')) return 'editor';
    if (active?.tagName === 'IFRAME' && active.closest('.webview')) return 'editor';
    return 'other';
  });
}

/** The label of the side bar's row that has the focus outline (the row keys act on). */
export async function focusedRowText(): Promise<string> {
  return ((await page().locator('.part.sidebar .monaco-list-row.focused').first().textContent()) ?? '').replace(/\u00a0/g, ' ');
}

/** Whether the active tab is a preview (VS Code shows its label in italics until it is kept). */
export async function activeTabIsPreview(): Promise<boolean> {
  return page()
    .locator('.part.editor .editor-group-container.active .tab.active .monaco-icon-label.italic')
    .count()
    .then((count) => count > 0);
}

/**
 * Opens the gallery of `found` as a grid from its row's inline action (every editor closed first)
 * and waits until its three pictures have loaded; the grid's frame.
 */
export async function openGalleryGrid(found: Imported): Promise<Frame> {
  await closeAllEditors();
  const gallery = await galleryRow(found);
  await clickRowAction(gallery, plainTitle('spotImport.gallery.openGrid'));
  await activeEditorTab(`Gallery: ${LABEL}`).waitFor({ state: 'visible', timeout: 20_000 });
  const grid = await webviewFrame('#grid .tile');
  await imagesLoaded(grid, '#grid .tile img', PICTURES.length);
  return grid;
}
