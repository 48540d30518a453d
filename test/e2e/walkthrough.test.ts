// E2E first run: the walkthrough "Get started with Spot Import", opened from the empty Galleries
// view, clicked through with its own buttons against the built-in sandbox (use the sandbox, open
// the example, import it, upload a photo, open the gallery); then the Extensions view's Details
// page of the installed .vsix, which must show the README for users with every picture loaded
// (where VS Code keeps data: pictures there: 1.100 does, 1.139 does not). Between the two, the
// Command Palette: "Import Spot" typed there offers Import Spot first, none of the walkthrough's
// own commands.
// Screenshots: artifacts/e2e*/3x-*.png (npm run screenshots copies two of them into the docs).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Frame } from 'playwright-core';
import { VSCODE_VERSIONS } from '../integration/launchers/harness/codeServer';
import { repoRoot } from '../integration/launchers/harness/paths';
import {
  focusWorkbench,
  runCommand,
  answerFileDialog,
  clearNotifications,
  commandTitle,
  dismissOverlays,
  manifest,
  openFile,
  openViewContainer,
  page,
  quickInput,
  quickInputRow,
  runCommandByKeyboard,
  runningCodeServer,
  settledShot,
  shot,
  waitForToast,
  workspaceDir,
} from './workbench';
import { profileStatus } from './workflowHelpers';

interface Walkthrough {
  id: string;
  title: string;
  steps: Array<{ id: string; title: string; description: string }>;
}

const walkthrough = (manifest.contributes as { walkthroughs?: Walkthrough[] } | undefined)?.walkthroughs?.[0];
const EXAMPLE_FILE = 'walkthrough-oak.spot.json';
const EXAMPLE_SOURCE_ID = 'walkthrough-oak-0001';
const PHOTO = 'photos/summit-view.png';
/** A spot document of the e2e workspace that no test changes. */
const PALETTE_SPOT = 'import/lakeside-viewpoint.spot.json';

function step(id: string) {
  const found = walkthrough?.steps.find((s) => s.id === id);
  assert.ok(found, `package.json's walkthrough has a step "${id}"`);
  return found;
}

/** The label of the step's first button (a command link on a line of its own in its description). */
function buttonLabel(id: string, index = 0): string {
  const labels = [...step(id).description.matchAll(/^\[([^\]]+)\]\(command:[^)]+\)$/gm)].map((match) => match[1]);
  assert.ok(labels[index], `step "${id}" has a button: ${step(id).description}`);
  return labels[index];
}

/** The walkthrough page (VS Code's Welcome editor showing our walkthrough). */
function walkthroughPage() {
  return page().locator('.part.editor .gettingStartedContainer').first();
}

/**
 * The walkthrough's tab: "Walkthrough: <extension's display name>" on VS Code 1.100; newer ones
 * (1.139) label every walkthrough page "Welcome".
 */
const WALKTHROUGH_TAB = new RegExp(`^\\s*(Walkthrough: ${manifest.displayName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|Welcome)\\s*$`);

/**
 * Waits for the walkthrough page showing this walkthrough. Its tab is never clicked: on VS Code
 * 1.139 that takes the page back to the Welcome overview (the editor reopened without the
 * walkthrough in its options resets it).
 */
async function showWalkthrough(): Promise<void> {
  await walkthroughPage().waitFor({ state: 'visible', timeout: 20_000 });
  await walkthroughPage()
    .locator('.getting-started-step', { hasText: step('sandbox').title })
    .first()
    .waitFor({ state: 'visible', timeout: 20_000 });
}

/** Expands the step (the whole step is a button) and returns it. */
async function expandStep(id: string) {
  await showWalkthrough();
  const element = walkthroughPage()
    .locator('.getting-started-step', { hasText: step(id).title })
    .first();
  await element.waitFor({ state: 'visible', timeout: 20_000 });
  if (!((await element.getAttribute('class')) ?? '').split(/\s+/).includes('expanded')) await element.click();
  return element;
}

/** Expands the step and clicks the button labelled `label` in it. */
async function clickStepButton(id: string, label: string): Promise<void> {
  const element = await expandStep(id);
  const button = element.locator('.monaco-button, a', { hasText: label }).first();
  await button.waitFor({ state: 'visible', timeout: 10_000 });
  await button.click();
}

/** Closes the editor tab labelled `label` with its own close button, if it is open. */
async function closeTab(label: string | RegExp): Promise<void> {
  const tab = page()
    .locator('.part.editor .tab', { has: page().locator('.tab-label', { hasText: label }) })
    .first();
  if (!(await tab.isVisible())) return;
  // Made the active tab first: right after another tab of its group closed, the strip is laid out
  // again and a click on this tab's close button (shown on hover) can land before that settles.
  await tab.click();
  await page().waitForFunction((element) => element?.classList.contains('active') === true, await tab.elementHandle(), { timeout: 10_000 });
  await tab.hover();
  await tab.locator('.tab-actions .action-label').first().click();
  await tab.waitFor({ state: 'hidden', timeout: 10_000 }).catch(async (error: Error) => {
    const state = await tab
      .evaluate((element) => `${element.className}; dialog: ${document.querySelector('.monaco-dialog-box') ? 'shown' : 'none'}`)
      .catch(() => 'gone');
    throw new Error(`the tab ${String(label)} stayed open after a click on its close button (${state}): ${error.message}`);
  });
}

/**
 * A shot the documentation shows (scripts/screenshots.js copies it there): it must be written.
 * Only into artifacts/: a test run that rewrote the tracked docs/screenshots/ left every working
 * tree changed.
 */
function assertWritten(shotFile: string | undefined): void {
  assert.ok(shotFile && fs.existsSync(shotFile), `the screenshot ${shotFile} was written`);
}

/** The frame of the Details page's webview (nested iframes) once it shows the README's title. */
async function detailsFrame(title: string, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page().frames()) {
      const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
      if (text.includes(title) && text.includes('Getting started')) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no webview shows the README (looked for "${title}")`);
    await page().waitForTimeout(300);
  }
}

/**
 * Picks the gallery's row in the gallery pick a step's button opened: the pick must still be open
 * once the walkthrough page has settled after the click (it moves to the next step).
 */
async function pickGalleryRow(galleryId: number, button: string): Promise<void> {
  const row = quickInputRow(new RegExp(`gallery ${galleryId}(?!\\d)`));
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await page().waitForTimeout(1_500); // the walkthrough page marks the step done and moves on
  const open = await row.isVisible();
  assert.ok(open, `${button}: the gallery pick stays open while the walkthrough moves on (gallery ${galleryId})`);
  await row.click({ timeout: 10_000 });
}

interface DetailsReadme {
  text: string;
  images: Array<{ alt: string; src: string | null; scheme: string; loaded: boolean }>;
}

/** The README on the Details page of the installed .vsix (Extensions view, "@installed spot"). */
async function detailsPageReadme(): Promise<DetailsReadme> {
  await dismissOverlays();
  await openViewContainer('Extensions');
  const search = page().locator('.extensions-viewlet .suggest-input-container').first();
  await search.click();
  await page().keyboard.press('ControlOrMeta+A');
  await page().keyboard.type('@installed spot');
  const entry = page().locator('.extensions-viewlet .extension-list-item', { hasText: manifest.displayName }).first();
  await entry.waitFor({ state: 'visible', timeout: 30_000 });
  await entry.click();
  await page().locator('.part.editor .extension-editor').first().waitFor({ state: 'visible', timeout: 20_000 });
  const frame = await detailsFrame(manifest.displayName);
  return frame.evaluate(async () => {
    const images = Array.from(document.querySelectorAll('img'));
    // Each picture decodes (a broken one rejects), so the check does not race the loading.
    const loaded = await Promise.all(
      images.map((img) =>
        img.decode().then(
          () => img.naturalWidth > 0,
          () => false,
        ),
      ),
    );
    return {
      text: document.body.innerText,
      images: images.map((img, i) => ({
        alt: img.alt,
        src: img.getAttribute('src'),
        scheme: (img.getAttribute('src') ?? '').split(':')[0],
        loaded: loaded[i],
      })),
    };
  });
}

/** The pictures of the README for users, as the packaging step makes it from README.md. */
function expectedPictures(): Array<{ alt: string }> {
  const { userReadme } = require(path.join(repoRoot, 'scripts', 'packageVsix.js')) as { userReadme(text: string): { text: string; images: unknown[] } };
  const { text, images } = userReadme(fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8'));
  assert.ok(images.length > 0, 'the README has pictures');
  return [...text.matchAll(/!\[([^\]]*)\]\([^)\s]+\)/g)].map((match) => ({ alt: match[1] }));
}

/** The file dialog is up: a quick input whose box the dialog has filled with its start folder. */
async function fileDialogShown(timeoutMs: number): Promise<boolean> {
  return page()
    .waitForFunction(
      () => {
        const widget = document.querySelector('.quick-input-widget') as HTMLElement | null;
        const input = widget?.querySelector('.quick-input-box input') as HTMLInputElement | null;
        return !!widget && widget.style.display !== 'none' && !!input?.value.startsWith('/');
      },
      undefined,
      { timeout: timeoutMs },
    )
    .then(
      () => true,
      () => false,
    );
}

/** VS Code asks before it clears the command history (a dialog with Clear): answered when it comes. */
async function confirmClearHistory(): Promise<void> {
  const clear = page()
    .locator('.monaco-dialog-box .monaco-button', { hasText: /^Clear$/ })
    .first();
  if (
    await clear.waitFor({ state: 'visible', timeout: 3_000 }).then(
      () => true,
      () => false,
    )
  )
    await clear.click();
}

describe('e2e walkthrough (first run) and the Details page', function () {
  this.timeout(180_000);

  after(async () => {
    await dismissOverlays().catch(() => undefined);
    // The next file starts without this file's editors (only these: others may hold unsaved text).
    for (const label of [WALKTHROUGH_TAB, 'Gallery: fld_1_10', `Extension: ${manifest.displayName}`, EXAMPLE_FILE]) {
      await closeTab(label).catch(() => undefined);
    }
  });

  it('opens the walkthrough from the empty Galleries view and clicks through its first steps against the sandbox', async () => {
    assert.ok(walkthrough, 'package.json contributes a walkthrough');
    await clearNotifications();
    // The Galleries view without a profile links to the walkthrough; with one (an earlier test
    // chose the sandbox), the walkthrough is opened from the palette, as a user would.
    const container = manifest.contributes?.viewsContainers?.activitybar?.find((c) => c.id === 'spotImport')?.title ?? 'Spot Galleries';
    await openViewContainer(container);
    const link = page()
      .locator('.part.sidebar .welcome-view-content', { hasText: 'Open the Walkthrough' })
      .locator('a, .monaco-button', { hasText: 'Open the Walkthrough' })
      .first();
    const ours = page().locator('.part.editor .gettingStartedContainer', { hasText: walkthrough.title }).first();
    if (
      await link.waitFor({ state: 'visible', timeout: 10_000 }).then(
        () => true,
        () => false,
      )
    ) {
      await link.click();
    } else {
      const openTitle = commandTitle('spotImport.walkthrough.open');
      assert.ok(openTitle, 'package.json contributes spotImport.walkthrough.open');
      await runCommandByKeyboard(openTitle);
    }
    // Offline, VS Code registers an extension's walkthroughs 5 s or more after its walkthroughs
    // service starts: VS Code 1.139 then shows ours by itself; on 1.100 the command asks again
    // (VS Code's own walkthrough shows meanwhile).
    await ours.waitFor({ state: 'visible', timeout: 60_000 });
    const shownSteps = await walkthroughPage().locator('.getting-started-step .step-title').allTextContents();
    for (const s of walkthrough.steps)
      assert.ok(
        shownSteps.some((t) => t.includes(s.title)),
        `the page lists the step "${s.title}": ${shownSteps.join(' | ')}`,
      );
    await settledShot('30-walkthrough-opened');

    // 1. Use the Local Sandbox: the status bar names the sandbox profile.
    await clickStepButton('sandbox', buttonLabel('sandbox'));
    await profileStatus('Spot: Local (sandbox)').waitFor({ state: 'visible', timeout: 15_000 });

    // 2. Open an Example: the example document opens beside the walkthrough.
    await clickStepButton('openExample', buttonLabel('openExample'));
    await page().locator('.part.editor .tab', { hasText: EXAMPLE_FILE }).first().waitFor({ state: 'visible', timeout: 20_000 });

    // 3. Import the Example: the sandbox answers with a new spot and its pending gallery.
    await clickStepButton('import', buttonLabel('import'));
    const imported = await waitForToast(`Imported "${EXAMPLE_SOURCE_ID}"`, 45_000);
    const galleryId = Number(/fld_1_10 → gallery (\d+)/.exec(imported)?.[1]);
    assert.ok(Number.isInteger(galleryId) && galleryId > 0, `the import names the example's new gallery: ${imported}`);
    await showWalkthrough();
    await settledShot('31-walkthrough-imported');

    // 4. Upload a Photo: pick the example's gallery, then a picture in the file dialog. Pressed
    // once: the pick stays open while the walkthrough page moves on to the next step (it takes the
    // focus as the button's command marks this step done). No Escape here: on the walkthrough
    // page, Escape goes back to the Welcome page and a second one closes it.
    await clearNotifications();
    await clickStepButton('upload', buttonLabel('upload'));
    await pickGalleryRow(galleryId, 'Upload a Photo');
    assert.ok(await fileDialogShown(15_000), `Upload a Photo: picking gallery ${galleryId} leads to the file dialog`);
    await answerFileDialog(path.join(workspaceDir(), PHOTO));
    await waitForToast(new RegExp(`Uploaded 1 file .* to gallery ${galleryId}\\.`), 30_000);

    // 5. Open the Gallery: the grid of that gallery with the uploaded picture (over the walkthrough).
    await clearNotifications();
    await clickStepButton('gallery', buttonLabel('gallery'));
    await pickGalleryRow(galleryId, 'Open the Gallery');
    await page().locator('.part.editor .tab', { hasText: 'Gallery: fld_1_10' }).first().waitFor({ state: 'visible', timeout: 20_000 });

    // The walkthrough again (the grid closed), its done steps ticked, the whole width (the example
    // closed), the last step open with its picture: for the README.
    await closeTab('Gallery: fld_1_10');
    await closeTab(EXAMPLE_FILE);
    await expandStep('profile');
    await page().waitForTimeout(1_000); // the step's picture fades in
    const done = await walkthroughPage().locator('.getting-started-step .codicon.complete').count();
    assert.strictEqual(done, 5, 'the five steps done are ticked; the last (a real profile) is not');
    assertWritten(await settledShot('32-walkthrough'));
  });

  it('offers Import Spot first when "Import Spot" is typed in the Command Palette: the walkthrough\'s own commands are not listed', async () => {
    // With a spot document open, as when Import Spot is wanted. The palette lists commands never run
    // from it in the order of their titles: "Import Example Spot Document" came first, and Enter ran it.
    await openFile(PALETTE_SPOT);
    // The palette lists recently used commands first (the tests before this one ran New Spot
    // Document, say): a new user's palette has no history, so this one has none either.
    await runCommand('Clear Command History');
    await confirmClearHistory();
    await focusWorkbench();
    await page().keyboard.press('F1');
    await quickInput().waitFor({ state: 'visible', timeout: 10_000 });
    await quickInput().fill('>Import Spot');
    const importSpot = commandTitle('spotImport.importSpot');
    assert.ok(importSpot, 'package.json contributes spotImport.importSpot');
    await quickInputRow(importSpot).waitFor({ state: 'visible', timeout: 15_000 });
    await page().waitForTimeout(500); // the list settles (similar commands are added a moment later)
    const labels = (await page().locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name').allTextContents()).map((label) =>
      label.replace(/\u00a0/g, ' ').trim(),
    );
    const focused = ((await page().locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first().textContent()) ?? '')
      .replace(/\u00a0/g, ' ')
      .trim();
    await shot('33-palette-import-spot');
    await page().keyboard.press('Escape');
    await closeTab(path.basename(PALETTE_SPOT));
    const walkthroughOnly = ['spotImport.walkthrough.openExample', 'spotImport.walkthrough.importExample'].map((id) => commandTitle(id));
    assert.deepStrictEqual(
      labels.filter((label) => walkthroughOnly.includes(label)),
      [],
      `the palette lists: ${labels.join(' | ')}`,
    );
    assert.strictEqual(focused, importSpot, 'Enter runs Import Spot');
  });

  it("shows the README for users on the installed extension's Details page", async () => {
    const readme = await detailsPageReadme();
    assert.ok(!readme.text.includes('npm install && npm test'), 'the repository-only block (the two commands) is not in the shipped README');
    const expected = expectedPictures();
    assert.strictEqual(readme.images.length, expected.length, `the Details page has every README picture: ${JSON.stringify(readme.images)}`);
    for (const [i, image] of readme.images.entries()) assert.strictEqual(image.alt, expected[i].alt, 'each picture keeps its alt text');
  });

  it('shows every README picture loaded on the Details page', async function () {
    const readme = await detailsPageReadme();
    // VS Code 1.139's Details page sanitizes the README so that a picture's src must be http: or
    // https: (its CSP then allows https: only): it removes data: sources, and relative ones too.
    // Offline, with no public host for the pictures, no form of them loads there. Told, not hidden;
    // on the oldest VS Code, which shows them, a removed source fails below.
    if (runningCodeServer !== VSCODE_VERSIONS.oldest && readme.images.length > 0 && readme.images.every((image) => image.src === null)) {
      console.log(
        `    [e2e] the Details page of code-server ${runningCodeServer} removed the source of every README picture (its sanitizer allows http: and https: pictures only): pictures not checked`,
      );
      this.skip();
    }
    for (const image of readme.images) assert.ok(image.loaded, `the picture "${image.alt}" is loaded, not broken (${image.scheme}:)`);
    await page().mouse.move(1000, 560);
    await page().waitForTimeout(700);
    assertWritten(await settledShot('33-details-page'));
  });

  it("shows the changelog for users on the installed extension's Changelog tab", async () => {
    await detailsPageReadme();
    await page()
      .locator('.part.editor .extension-editor .navbar .action-label', { hasText: /^changelog$/i })
      .first()
      .click({ timeout: 10_000 });
    const deadline = Date.now() + 20_000;
    let text = '';
    for (;;) {
      for (const frame of page().frames()) {
        const shown = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
        if (shown.includes('Unreleased') && shown.includes('Import Spot with Media')) text = shown;
      }
      if (text || Date.now() > deadline) break;
      await page().waitForTimeout(300);
    }
    assert.ok(text, 'a webview shows the changelog');
    // The packaged copy leaves the repository-only entries out (bench, npm scripts, CI).
    for (const word of ['npm run', 'bench:activation', 'SPOT_README_IMAGES_URL', 'install scripts'])
      assert.ok(!text.includes(word), `the changelog for users has no "${word}"`);
    await settledShot('34-changelog');
  });
});
