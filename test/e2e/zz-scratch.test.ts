// TEMPORARY experiment (removed before hand-off).
import * as path from 'path';
import { clickRowAction, contextMenuAction, expandRow, openViewContainer, page, quickInputRow, runCommandByKeyboard, shot, sidebarRow, waitForToast } from './workbench';

async function count(label: string) {
  const rows = await page().locator('.part.sidebar .monaco-list-row[role="treeitem"]').allTextContents();
  console.log(`      [${label}] rows: ${JSON.stringify(rows)}`);
}

describe('zz scratch', function () {
  this.timeout(120_000);
  it('scratch refresh behaviour', async () => {
    const p = page();
    await openViewContainer('Spot Galleries');
    const gallery = sidebarRow(/fld_1_7/);
    await expandRow(gallery);
    await p.waitForTimeout(1500);
    await count('start');
    await clickRowAction(gallery, 'Refresh Gallery');
    await p.waitForTimeout(3000);
    await count('after visible refresh');
    await shot('scratch-a');
    await openViewContainer('Explorer');
    await runCommandByKeyboard('Spot Import: Refresh Galleries');
    await p.waitForTimeout(1500);
    await openViewContainer('Spot Galleries');
    await p.waitForTimeout(3000);
    await count('after hidden refreshAll');
    await shot('scratch-b');
    await openViewContainer('Explorer');
    const file = p.locator('.explorer-folders-view .monaco-list-row[role="treeitem"]', { hasText: 'trail-sign.jpg' }).first();
    await expandRow(p.locator('.explorer-folders-view .monaco-list-row[role="treeitem"]', { hasText: 'photos' }).first());
    await contextMenuAction(file, 'Upload to Spot Gallery…');
    await quickInputRow(/gallery 200001/).click();
    await waitForToast(/Uploaded 1 file/);
    await p.waitForTimeout(1000);
    await openViewContainer('Spot Galleries');
    await p.waitForTimeout(3000);
    await count('after hidden upload');
    await shot('scratch-c');
    const g = sidebarRow(/fld_1_7/);
    await g.locator('.monaco-tl-twistie').click();
    await p.waitForTimeout(1000);
    await g.locator('.monaco-tl-twistie').click();
    await p.waitForTimeout(2000);
    await count('after collapse+expand');
    // Upload while visible, from the gallery's inline button.
    void path;
  });
});
