// E2E: the Galleries view as a keyboard user meets it (issue 20), with the packaged extension and
// the built-in "Local (sandbox)" profile, on the gallery of three pictures of galleryHelpers.ts:
//   1. At the default sidebar width a hovered gallery row shows its inline action and its whole
//      text ("Photos  3 media · gallery N").
// Screenshots: artifacts/e2e/28-*.png. This file runs after workflowsGalleries.test.ts (same
// gallery).
import * as assert from 'assert';
import { closeAllEditors, galleryRow, importWithPictures } from './galleryHelpers';
import { dismissOverlays, expandRow, openViewContainer, page, setSidebarWidth, shot } from './workbench';
import { galleriesContainer, plainTitle } from './workflowHelpers';

describe('e2e galleries by keyboard (Local sandbox profile)', function () {
  this.timeout(150_000);

  after(async () => {
    await dismissOverlays().catch(() => undefined);
    await closeAllEditors().catch(() => undefined);
  });

  it('shows the gallery row\'s whole text beside its inline action at the default sidebar width', async () => {
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
    const cut = await gallery.locator('.monaco-icon-label-container').first().evaluate((element) => {
      const description = element.querySelector('.label-description');
      const right = element.getBoundingClientRect().right;
      return element.scrollWidth > element.clientWidth + 1 || (!!description && description.getBoundingClientRect().right > right + 1);
    });
    await shot('28-gallery-row-hovered');
    assert.ok(!cut, `the row's text is cut beside its inline actions (${inline.join(', ')})`);
    assert.deepStrictEqual(inline, [plainTitle('spotImport.gallery.openGrid')], 'one inline action on a gallery with media');
  });
});
