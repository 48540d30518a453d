// E2E: the extension in German, as a user whose VS Code speaks German sees it. Runs last (zzz): it
// replaces the run's workbench with one started with `--locale de` and the test-only language
// pack that declares German (test/fixtures/languagePackDe). VS Code's own words stay English there
// (the pack translates none of them); everything of the extension's is German: the walkthrough,
// an import's result, the Galleries view. Every expected text is taken from the shipped
// translation files by its English, so a string that is not translated fails the test.
// Screenshots: artifacts/e2e*/5x-de-*.png.
import * as assert from 'assert';
import { de, deCommandTitle, deGalleriesContainer, dePattern, deWalkthroughStep } from './german';
import {
  extensionLog,
  openFile,
  openViewContainer,
  page,
  quickInput,
  quickInputRow,
  runCommandByKeyboard,
  settledShot,
  sidebarTitle,
  startWorkbench,
  stopWorkbench,
  waitForToast,
} from './workbench';
import { profileStatus } from './workflowHelpers';

const SPOT = 'import/lakeside-viewpoint.spot.json';
const SOURCE_ID = 'e2e-lakeside-viewpoint';

describe('e2e in German (VS Code display language de)', function () {
  this.timeout(300_000);

  before(async function () {
    this.timeout(20 * 60 * 1000);
    await stopWorkbench();
    await startWorkbench({ locale: 'de' });
  });

  it('runs with German as the display language, with the extension\'s German bundle loaded', async () => {
    let line: string | undefined;
    for (let waited = 0; waited < 30_000 && !line; waited += 500) {
      line = /activated in .*$/m.exec(extensionLog())?.[0];
      if (!line) await page().waitForTimeout(500);
    }
    assert.ok(line, 'the extension logged its activation');
    assert.match(line, /display language de[;)]/, line);
    assert.ok(!line.includes('no bundle'), `the German bundle is loaded: ${line}`);
  });

  it('shows the walkthrough in German', async () => {
    await runCommandByKeyboard(deCommandTitle('spotImport.walkthrough.open'));
    const walkthrough = page().locator('.part.editor .gettingStartedContainer').first();
    await walkthrough.waitFor({ state: 'visible', timeout: 20_000 });
    const sandboxStep = deWalkthroughStep('sandbox');
    await walkthrough.locator('.getting-started-step', { hasText: sandboxStep.title }).first().waitFor({ state: 'visible', timeout: 20_000 });
    await settledShot('50-de-walkthrough');
  });

  it('imports a spot into the sandbox and says so in German', async () => {
    await runCommandByKeyboard(deCommandTitle('spotImport.switchProfile'));
    const sandbox = de('Local (sandbox)');
    await quickInputRow(sandbox).waitFor({ state: 'visible', timeout: 15_000 });
    await quickInputRow(sandbox).click();
    await quickInput().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
    await profileStatus(sandbox).waitFor({ state: 'visible', timeout: 15_000 });
    await openFile(SPOT);
    await runCommandByKeyboard(deCommandTitle('spotImport.importSpot'));
    const message = await waitForToast(dePattern('Imported "{0}" as new spot {1} to {2}', { 0: SOURCE_ID, 1: /\d+/ }), 45_000);
    assert.match(message, dePattern('Imported "{0}" as new spot {1} to {2}', { 0: SOURCE_ID, 1: /\d+/, 2: sandbox }), message);
    await page().waitForTimeout(800);
    await settledShot('51-de-import-result');
  });

  it('shows the Galleries view in German', async () => {
    await openViewContainer(deGalleriesContainer());
    const title = (await sidebarTitle().textContent()) ?? '';
    assert.ok(title.toLowerCase().includes(deGalleriesContainer().toLowerCase()), `the side bar is titled in German: ${title}`);
    await settledShot('52-de-galleries');
  });
});
