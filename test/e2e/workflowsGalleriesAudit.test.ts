// E2E: an automated accessibility audit (axe-core, from npm) of what the extension draws: the
// Galleries view's tree with a gallery expanded, and the gallery grid (a webview). The audit runs
// inside the page (injected through the browser's debugging protocol, so the workbench's Content
// Security Policy is not in the way), on our part of the page only: the rest of the workbench is
// VS Code's. A violation of impact "serious" or "critical" fails the test; the lesser ones are
// listed in the test's output. Screenshot: artifacts/e2e/2b-audit-*.png.
import * as assert from 'assert';
import { audit, serious } from './audit';
import { closeAllEditors, galleryRow, importWithPictures, openGalleryGrid, PICTURES } from './galleryHelpers';
import { expandRow, openViewContainer, page, settledShot, sidebarRow } from './workbench';
import { galleriesContainer } from './workflowHelpers';

describe('e2e accessibility audit of the galleries (axe-core)', function () {
  this.timeout(150_000);

  it('finds no serious violation in the Galleries view with a gallery expanded', async () => {
    const found = await importWithPictures();
    await closeAllEditors();
    await openViewContainer(galleriesContainer());
    const gallery = await galleryRow(found);
    await expandRow(gallery);
    await sidebarRow(PICTURES[0].name).waitFor({ state: 'visible', timeout: 20_000 });
    // The view's pane: its tree and its title bar.
    const pane = await gallery.evaluate((row) => {
      const body = row.closest('.pane');
      if (!body) return undefined;
      body.setAttribute('data-audit', 'galleries');
      return true;
    });
    assert.ok(pane, "the Galleries view's pane");
    // Not label-content-name-mismatch here: VS Code's tree row puts the label and the description in
    // adjacent elements with no space between, so axe reads "lake-shore.pngimage/png" as the row's
    // visible text, which no accessible name can hold as words. The rule runs on the grid below,
    // whose markup is ours; the rows' sentences are checked by the integration tests.
    const violations = serious(await audit(page().mainFrame(), '[data-audit="galleries"]', ['label-content-name-mismatch']));
    await settledShot('2b-audit-galleries-view');
    assert.deepStrictEqual(violations, [], 'no serious or critical violation in the Galleries view');
  });

  it('finds no serious violation in the gallery grid', async () => {
    const grid = await openGalleryGrid(await importWithPictures());
    const violations = serious(await audit(grid, 'body'));
    await settledShot('2b-audit-gallery-grid');
    assert.deepStrictEqual(violations, [], 'no serious or critical violation in the grid');
  });
});
