// E2E: the Galleries view as a keyboard user meets it (issue 20), with the packaged extension and
// the built-in "Local (sandbox)" profile, on the gallery of three pictures of galleryHelpers.ts:
//   1. At the default sidebar width a hovered gallery row shows its inline action and its whole
//      text ("Photos  3 media · gallery N").
//   2. A single click on a media row previews the picture (an italic tab) and leaves the keyboard
//      in the view, as a click on a file in the Explorer does.
//   3. Alt+Up moves the row the focus outline is on, not the selected one.
//   4. The context menu of a right-clicked row shows Alt+UpArrow; after Escape the key moves that row.
//   5. Enter and a double click open the picture for real (a kept tab, the keyboard in the editor),
//      as they open a file in the Explorer.
// Screenshots: artifacts/e2e/28-*.png to 2c-*.png. This file runs after workflowsGalleries.test.ts
// (same gallery), so it reads the order it starts from instead of assuming one.
import * as assert from 'assert';
import {
  activeTabIsPreview,
  closeAllEditors,
  focusedRowText,
  galleryRow,
  imagePreviewShown,
  importWithPictures,
  keyboardIn,
  PICTURES,
  shownOrder,
  waitForOrder,
} from './galleryHelpers';
import { activeEditorTab, dismissOverlays, expandRow, openViewContainer, page, setSidebarWidth, settledShot, shot, sidebarRow, toast } from './workbench';
import { galleriesContainer, plainTitle } from './workflowHelpers';

/** The gallery expanded with its three pictures listed; their names in the tree's order. */
async function expandedGallery(): Promise<string[]> {
  const gallery = await galleryRow(await importWithPictures());
  await expandRow(gallery);
  let order: string[] = [];
  for (const until = Date.now() + 20_000; Date.now() < until; await page().waitForTimeout(250)) {
    order = await shownOrder();
    if (order.length === PICTURES.length) break;
  }
  assert.strictEqual(order.length, PICTURES.length, `the gallery lists its three pictures: ${order.join(', ')}`);
  return order;
}

/** Waits until the active tab shows `name` and its picture has loaded (the download is over). */
async function pictureShown(name: string): Promise<void> {
  await activeEditorTab(name).waitFor({ state: 'visible', timeout: 30_000 });
  await imagePreviewShown();
  await toast(/Downloading/)
    .waitFor({ state: 'hidden', timeout: 15_000 })
    .catch(() => undefined);
}

/**
 * Clicks a media row, then gives the view the keyboard whatever the click did with it (the test of
 * the click itself is separate): the row is selected and has the focus outline.
 */
async function selectWithClick(name: string): Promise<void> {
  await sidebarRow(name).click();
  await pictureShown(name);
  // The click leaves the keyboard in the view (the test of a single click shows it). No palette
  // hop to "Focus on Galleries View" here: when the palette closes, VS Code gives the keyboard back
  // to what had it before, at no fixed moment against the command's own focus, and an arrow key
  // pressed meanwhile was lost (CI once: the focus outline stayed on the first row).
  await page().waitForFunction(() => !!document.activeElement?.closest('.part.sidebar .monaco-list'), undefined, { timeout: 10_000 });
  await focusOn(name);
}

/** Waits until the focus outline is on the row of `name`: a key pressed before the tree has settled is lost. */
async function focusOn(name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!new RegExp(`^${escapeRegExp(name)}`).test(await focusedRowText())) {
    if (Date.now() > deadline) {
      const active = await page().evaluate(() => {
        const element = document.activeElement;
        return element ? `${element.tagName}.${Array.from(element.classList).join('.')} in ${element.closest('.part')?.className ?? 'no part'}` : 'none';
      });
      assert.fail(`the focus outline is on "${await focusedRowText()}", not on ${name} (the keyboard is in ${active})`);
    }
    await page().waitForTimeout(50);
  }
}

/** Moves the focus outline one row down, and waits until it is on `name`. */
async function arrowDownTo(name: string): Promise<void> {
  await page().keyboard.press('ArrowDown');
  await focusOn(name);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('e2e galleries by keyboard (Local sandbox profile)', function () {
  this.timeout(150_000);

  after(async () => {
    await dismissOverlays().catch(() => undefined);
    await closeAllEditors().catch(() => undefined);
  });

  it("shows the gallery row's whole text beside its inline action at the default sidebar width", async () => {
    const found = await importWithPictures();
    await openViewContainer(galleriesContainer());
    await setSidebarWidth(300);
    const gallery = await galleryRow(found);
    await expandRow(gallery);
    await page().waitForFunction((element) => /3 media/.test(element?.textContent ?? ''), await gallery.elementHandle(), { timeout: 15_000 });
    await gallery.hover();
    const actions = gallery.locator('.actions .action-label');
    await actions.first().waitFor({ state: 'visible', timeout: 10_000 });
    const inline = await actions.evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label') ?? ''));
    // Cut: the text runs past the label's box (VS Code then ends it with "…").
    const cut = await gallery
      .locator('.monaco-icon-label-container')
      .first()
      .evaluate((element) => {
        const description = element.querySelector('.label-description');
        const right = element.getBoundingClientRect().right;
        return element.scrollWidth > element.clientWidth + 1 || (!!description && description.getBoundingClientRect().right > right + 1);
      });
    await shot('28-gallery-row-hovered');
    assert.ok(!cut, `the row's text is cut beside its inline actions (${inline.join(', ')})`);
    assert.deepStrictEqual(inline, [plainTitle('spotImport.gallery.openGrid')], 'one inline action on a gallery with media');
  });

  it('previews a picture on a single click and leaves the keyboard in the view', async () => {
    await closeAllEditors();
    const [first] = await expandedGallery();
    await sidebarRow(first).click();
    await pictureShown(first);
    await settledShot('29-media-click-preview');
    assert.strictEqual(await keyboardIn(), 'sidebar', 'the keyboard stays in the Galleries view');
    assert.match(await focusedRowText(), new RegExp(`^${escapeRegExp(first)}`), 'on the row clicked');
    assert.ok(await activeTabIsPreview(), 'a preview (an italic tab), which the next click replaces');
  });

  it('moves the row the focus outline is on with Alt+Up, not the selected one', async () => {
    const before = await expandedGallery();
    await selectWithClick(before[0]);
    await arrowDownTo(before[1]);
    await arrowDownTo(before[2]); // the focus outline is on the third picture, the first is selected
    await page().keyboard.press('Alt+ArrowUp');
    const expected = [before[0], before[2], before[1]];
    const after = await waitForOrder(expected);
    await settledShot('2a-alt-up-moved-focused-row');
    assert.deepStrictEqual(after, expected, 'the focused row moved up, the selected (first) one stayed');
  });

  it('shows Alt+UpArrow in the context menu of the row right-clicked, and the key then moves that row', async () => {
    const before = await expandedGallery();
    await selectWithClick(before[0]);
    await sidebarRow(before[2]).click({ button: 'right' });
    const moveUp = page()
      .locator('.context-view .monaco-menu .action-item', { has: page().locator('.action-label', { hasText: plainTitle('spotImport.media.moveUp') }) })
      .first();
    await moveUp.waitFor({ state: 'visible', timeout: 10_000 });
    await page().waitForTimeout(300); // the menu fades in
    const key = (
      (await moveUp
        .locator('.keybinding')
        .textContent()
        .catch(() => '')) ?? ''
    ).trim();
    await shot('2b-media-context-menu-key');
    assert.match(key, /^Alt\+Up/i, 'the menu names the key');
    await page().keyboard.press('Escape');
    await page()
      .locator('.context-view .monaco-menu')
      .first()
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
    assert.strictEqual(await keyboardIn(), 'sidebar', 'Escape gives the keyboard back to the view');
    await page().keyboard.press('Alt+ArrowUp');
    const expected = [before[0], before[2], before[1]];
    assert.deepStrictEqual(await waitForOrder(expected), expected, 'the right-clicked row moved up, the selected (first) one stayed');
  });

  it('opens a picture for real on Enter and on a double click (a kept tab, the keyboard in the editor), as the Explorer opens a file', async () => {
    await closeAllEditors();
    const before = await expandedGallery();
    await selectWithClick(before[0]);
    await arrowDownTo(before[1]);
    await page().keyboard.press('Enter');
    await pictureShown(before[1]);
    assert.ok(!(await activeTabIsPreview()), 'Enter keeps the tab (no italic label)');
    assert.strictEqual(await keyboardIn(), 'editor', 'Enter takes the keyboard into the picture');

    await closeAllEditors();
    await sidebarRow(before[2]).dblclick();
    await pictureShown(before[2]);
    await settledShot('2c-media-double-click-opened');
    assert.ok(!(await activeTabIsPreview()), 'a double click keeps the tab');
    assert.strictEqual(await keyboardIn(), 'editor', 'a double click takes the keyboard into the picture');
  });
});
