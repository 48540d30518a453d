// E2E: an automated accessibility audit (axe-core, from npm) of what the extension draws: the
// Galleries view's tree with a gallery expanded, and the gallery grid (a webview). The audit runs
// inside the page (injected through the browser's debugging protocol, so the workbench's Content
// Security Policy is not in the way), on our part of the page only: the rest of the workbench is
// VS Code's. A violation of impact "serious" or "critical" fails the test; the lesser ones are
// listed in the test's output. Screenshot: artifacts/e2e/2b-audit-*.png.
import * as assert from 'assert';
import { readFileSync } from 'fs';
import type { Frame } from 'playwright-core';
import { closeAllEditors, galleryRow, importWithPictures, openGalleryGrid, PICTURES } from './galleryHelpers';
import { expandRow, openViewContainer, page, settledShot, sidebarRow } from './workbench';
import { galleriesContainer } from './workflowHelpers';

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe on the element of `frame` that `selector` finds (WCAG 2.x A and AA rules), less `skip`. */
async function audit(frame: Frame, selector: string, skip: string[] = []): Promise<Violation[]> {
  const hasAxe = await frame.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!hasAxe) await frame.evaluate(AXE_SOURCE);
  return frame.evaluate(async ({ scope, skip }) => {
    const axe = (window as unknown as { axe: { run(context: Element, options: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const element = document.querySelector(scope);
    if (!element) throw new Error(`nothing matches ${scope}`);
    const rules = Object.fromEntries(skip.map((rule) => [rule, { enabled: false }]));
    const result = await axe.run(element, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, rules });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(' ')) }));
  }, { scope: selector, skip });
}

function serious(violations: Violation[]): Violation[] {
  for (const violation of violations) console.log(`      axe ${violation.impact ?? '?'}: ${violation.id} (${violation.help}) at ${violation.targets.slice(0, 3).join(', ')}`);
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

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
    assert.ok(pane, 'the Galleries view\'s pane');
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
