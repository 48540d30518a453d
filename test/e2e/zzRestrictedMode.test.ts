// E2E: Restricted Mode, as a user who opened a folder without trusting it sees it. Runs last
// (zz): it replaces the run's workbench with one whose folder is not trusted (Workspace Trust on,
// no prompt at start). A broken spot document is still checked (its problems underlined); Import
// Spot says it is off there and offers VS Code's Manage Workspace Trust, and nothing is sent.
// Screenshot: artifacts/e2e/40-restricted-mode-import.png.
import * as assert from 'assert';
import { commandTitle, openFile, page, runCommand, settledShot, startWorkbench, stopWorkbench, toastButtons, waitForToast } from './workbench';

describe('e2e Restricted Mode (an untrusted folder)', function () {
  this.timeout(300_000);

  before(async function () {
    this.timeout(20 * 60 * 1000);
    await stopWorkbench();
    await startWorkbench({ untrusted: true });
  });

  it('checks a spot document, and Import Spot says it is off and offers Manage Workspace Trust', async () => {
    const p = page();
    await openFile('import/broken-trailhead.spot.json');
    await p.locator('.part.editor .editor-group-container.active .monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 30_000 });
    await openFile('import/lakeside-viewpoint.spot.json');
    const title = commandTitle('spotImport.importSpot');
    assert.ok(title);
    await runCommand(title);
    const text = await waitForToast(/off in Restricted Mode/);
    assert.match(text, /^Import Spot is off in Restricted Mode: this folder is not trusted\. Trust the folder to turn it on\./);
    assert.deepStrictEqual(await toastButtons(/off in Restricted Mode/), ['Manage Workspace Trust']);
    await settledShot('40-restricted-mode-import');
  });
});
