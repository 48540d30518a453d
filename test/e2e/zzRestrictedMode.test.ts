// E2E: Restricted Mode, as a user who opened a folder without trusting it sees it. Runs last
// (zz): it replaces the run's workbench with one whose folder is not trusted (Workspace Trust on,
// no prompt at start). A broken spot document is still checked (its problems underlined); Import
// Spot (a valid one's CodeLens) says it is off there and offers VS Code's Manage Workspace
// Trust, and nothing is sent.
// Screenshot: artifacts/e2e/40-restricted-mode-import.png.
import * as assert from 'assert';
import { page, settledShot, startWorkbench, stopWorkbench, toastButtons, waitForToast } from './workbench';

/**
 * VS Code shows its Workspace Trust editor in an untrusted folder on its own, when something of
 * its own asks for trust (1.139: as a modal over the workbench, some seconds after start; 1.100:
 * as an editor, not in every run). While this test runs it is closed whenever it shows, as a user
 * would; the steps below are clicks, which wait while it covers what they click.
 */
function keepClosingTrustEditor(): () => void {
  const p = page();
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const shown = await p
        .getByText('You are in Restricted Mode')
        .first()
        .isVisible()
        .catch(() => false);
      if (shown) {
        await p.keyboard.press('Escape').catch(() => undefined);
        const tab = p.locator('.part.editor .tab', { hasText: 'Workspace Trust' }).first();
        if (await tab.isVisible().catch(() => false))
          await tab
            .locator('.tab-actions .action-label')
            .first()
            .click({ force: true, timeout: 2_000 })
            .catch(() => undefined);
        console.log('      (closed the Workspace Trust editor VS Code showed)');
      }
      await p.waitForTimeout(200).catch(() => undefined);
    }
  })();
  return () => {
    stopped = true;
  };
}

describe('e2e Restricted Mode (an untrusted folder)', function () {
  this.timeout(300_000);
  let stopClosing: (() => void) | undefined;

  before(async function () {
    this.timeout(20 * 60 * 1000);
    await stopWorkbench();
    await startWorkbench({ untrusted: true });
    stopClosing = keepClosingTrustEditor();
  });

  after(() => stopClosing?.());

  it('checks a spot document, and Import Spot says it is off and offers Manage Workspace Trust', async () => {
    const p = page();
    const explorerRow = (name: string) => p.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
    await explorerRow('import').click();
    // Kept open (a double click pins it), so its problems stay counted while the next one shows.
    await explorerRow('broken-trailhead.spot.json').dblclick();
    await p.locator('.part.editor .editor-group-container.active .monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 30_000 });
    // From the document's CodeLens, as a user who just opened it would. Not from the Explorer's
    // context menu: on 1.139 under load the workbench closed that menu within 300 ms of opening it
    // with no dialog, editor or focus change the test could wait for (CI, 2 of 3 full runs), and
    // not from the palette: it lists Import Spot only while a spot document is the active editor,
    // which the Workspace Trust editor may take over. A CodeLens is a link that stays put.
    await explorerRow('lakeside-viewpoint.spot.json').click();
    await p.locator('.part.editor .tab.active', { hasText: 'lakeside-viewpoint.spot.json' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const lens = p.locator('.part.editor .editor-group-container.active .monaco-editor .codelens-decoration a', { hasText: /^\s*Import Spot\s*$/ }).first();
    await lens.waitFor({ state: 'visible', timeout: 30_000 });
    await lens.click();
    const text = await waitForToast(/off in Restricted Mode/);
    assert.match(text, /^Import Spot is off in Restricted Mode: this folder is not trusted\. Trust the folder to turn it on\./);
    assert.deepStrictEqual(await toastButtons(/off in Restricted Mode/), ['Manage Workspace Trust']);
    await settledShot('40-restricted-mode-import');
  });
});
