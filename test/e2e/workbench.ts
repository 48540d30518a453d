// The end-to-end workbench: code-server with the packaged .vsix installed, open in headless Chromium
// on a fresh copy of test/fixtures/e2e-workspace, plus small helpers to drive the real UI (palette,
// quick open, views, menus, notifications, the simple file dialog).
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Page } from 'playwright-core';
import { Browser, launchBrowser, screenshot } from '../integration/launchers/harness/browser';
import {
  ensureCodeServer,
  ensureSystemDeps,
  installVsix,
  packFixtureExtension,
  removeRunDir,
  removeStaleRunDirs,
  resolveCodeServerVersion,
  runDirs,
  RunningCodeServer,
  startCodeServer,
  VSCODE_VERSIONS,
  workbenchUrl,
} from '../integration/launchers/harness/codeServer';
import { artifactsRoot, cacheRoot, ensureDir, freshDir, repoRoot } from '../integration/launchers/harness/paths';
import { freePort, onCleanup } from '../integration/launchers/harness/processes';

/**
 * Screenshots and the server log: artifacts/e2e/ for the oldest VS Code (the default run, whose
 * pictures the README shows), artifacts/e2e-vscode-<version>/ for another, so a run on both keeps both.
 */
export let e2eArtifacts = path.join(artifactsRoot, 'e2e');
/** The code-server version the workbench runs (set by startWorkbench). */
export let runningCodeServer: string | undefined;
export const vsixPath = process.env.SPOT_E2E_VSIX ?? path.join(artifactsRoot, 'spot-import.vsix');
/** The e2e fixture folder; each run opens a copy of it (workspaceDir()), so the tests never change it. */
export const e2eFixtureWorkspace = path.join(repoRoot, 'test', 'fixtures', 'e2e-workspace');

export interface Manifest {
  displayName: string;
  contributes?: {
    commands?: Array<{ command: string; title: string; category?: string }>;
    viewsContainers?: { activitybar?: Array<{ id: string; title: string }> };
    views?: Record<string, Array<{ id: string; name: string }>>;
    menus?: Record<string, Array<{ command: string; when?: string }>>;
  };
}

const { readManifest } = require(path.join(repoRoot, 'scripts', 'manifestText.js')) as { readManifest(root: string, language?: string): unknown };

/** package.json as the workbench shows it in English: its "%key%" texts filled in from package.nls.json. */
export const manifest = readManifest(repoRoot) as Manifest;

interface State {
  server: RunningCodeServer;
  browser: Browser;
  runDir: string;
  workspace: string;
  forgetRunDir: () => void;
}

let state: State | undefined;

/** Errors the workbench logged to the browser console (extension host errors surface here too). */
export const consoleErrors: string[] = [];

export function page(): Page {
  if (!state) throw new Error('the e2e workbench is not running (test/e2e/hooks.ts starts it)');
  return state.browser.page;
}

/**
 * Installs the .vsix into a fresh code-server, opens the workbench and waits until it is usable.
 * `untrusted`: Workspace Trust on and the folder not trusted (Restricted Mode), no prompt at start.
 * `locale`: VS Code's display language (`--locale`), with the test-only language pack that
 * declares it (test/fixtures/languagePackDe: no language pack can be downloaded here, and without
 * one VS Code falls back to English and never loads the extension's German bundle).
 */
export async function startWorkbench(options: { untrusted?: boolean; locale?: 'de' } = {}): Promise<void> {
  if (!fs.existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: run npm run test:e2e (it packages the extension)`);
  ensureSystemDeps('browser');
  removeStaleRunDirs();
  const install = await ensureCodeServer(await resolveCodeServerVersion());
  runningCodeServer = install.version;
  e2eArtifacts = path.join(artifactsRoot, install.version === VSCODE_VERSIONS.oldest ? 'e2e' : `e2e-vscode-${install.vscodeVersion}`);
  const variant = options.untrusted ? '-untrusted' : options.locale ? `-${options.locale}` : '';
  const runDir = path.join(cacheRoot, 'runs', `e2e${variant}-${process.pid}`);
  removeRunDir(runDir);
  freshDir(runDir);
  // Registered first, so on Ctrl-C it runs after the browser and the server are gone.
  const forgetRunDir = onCleanup(() => {
    forgetRunDir();
    if (!process.env.SPOT_KEEP_RUN) removeRunDir(runDir);
  });
  if (!variant) freshDir(e2eArtifacts); // a second workbench of the run keeps the first one's pictures
  const extensionsDir = ensureDir(path.join(runDir, 'extensions'));
  const workspace = path.join(runDir, 'e2e-workspace');
  fs.cpSync(e2eFixtureWorkspace, workspace, { recursive: true });
  await installVsix(install, vsixPath, runDir, extensionsDir);
  if (options.locale) {
    await installVsix(install, await packFixtureExtension(`languagePack${options.locale === 'de' ? 'De' : options.locale}`, runDir), runDir, extensionsDir);
    registerLanguagePack(options.locale, runDir, extensionsDir);
  }
  const server = await startCodeServer(install, {
    runDir,
    port: await freePort(),
    extensionsDir,
    logFile: path.join(e2eArtifacts, `code-server${variant}.log`),
    locale: options.locale,
    userSettings: {
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoUpdate': false,
      'extensions.autoCheckUpdates': false,
      'security.workspace.trust.enabled': options.untrusted === true,
      ...(options.untrusted ? { 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false } : {}),
      // Newer workbenches (1.139) open the Chat view in a secondary side bar on first start; it takes
      // a quarter of the window from what the tests show. (Unknown to 1.100, which ignores it.)
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      // The run's folder lies inside this repository's checkout, and the git extension asks, some
      // seconds after start, whether to open that repository: a toast that covered parts of the
      // pictures and came at no fixed moment. The fixture workspace is no repository of its own.
      'git.openRepositoryInParentFolders': 'never',
    },
    // No payload to read (the .vsix is installed), so no smoke-test driver: with it, newer
    // workbenches (1.139) show no notification toasts, which the workflow tests read.
    smokeTestDriver: false,
    workspaceTrust: options.untrusted === true,
    // No SPOT_IMPORT_TEST: the packaged extension runs as a user gets it, without the test-only
    // commands (spotImport.test.*), which no e2e test uses (they drive the UI only).
  });
  const browser = await launchBrowser(path.join(runDir, 'browser-profile')).catch(async (error) => {
    await server.stop();
    throw error;
  });
  state = { server, browser, runDir, workspace, forgetRunDir };
  console.log(
    `    [e2e] VS Code ${install.vscodeVersion} (code-server ${install.version}) on ${server.baseUrl}; screenshots in ${path.relative(repoRoot, e2eArtifacts)}/`,
  );
  const p = browser.page;
  consoleErrors.length = 0;
  p.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  // Every later wait fails at once with "Target crashed"; say plainly why.
  p.once('crash', () => console.error("    [e2e] Chromium crashed: the workbench page's renderer died; the remaining tests fail"));
  await p.goto(workbenchUrl(server, { folder: workspace }), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await p.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
  await p.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
  // Explorer rows appear once the remote file system answers: the workbench is usable.
  await p.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60_000 });
  // The extension's contributions are registered once its activity bar entry shows: before that the
  // palette does not list its commands yet (a test run alone with SPOT_TEST_GREP would start too early).
  const shown = options.locale ? (readManifest(repoRoot, options.locale) as Manifest) : manifest;
  const container = shown.contributes?.viewsContainers?.activitybar?.[0]?.title;
  if (container) {
    await p.locator(`.part.activitybar a.action-label[aria-label^="${container}"]`).first().waitFor({ state: 'visible', timeout: 60_000 });
  }
}

/**
 * Lists the installed language pack in the user data's languagepacks.json, as VS Code's server
 * does once it has scanned its extensions. The server resolves the display language from that
 * file when it starts, before that scan has written it on a first start: without it, the first
 * start falls back to English (seen: `vscode.env.language` read "en").
 */
function registerLanguagePack(locale: 'de', runDir: string, extensionsDir: string): void {
  const installed = JSON.parse(fs.readFileSync(path.join(extensionsDir, 'extensions.json'), 'utf8')) as Array<{
    identifier: { id: string };
    version: string;
    location: { fsPath: string };
  }>;
  const pack = installed.find((entry) => entry.identifier.id.endsWith(`.test-language-pack-${locale}`));
  if (!pack) throw new Error(`the ${locale} language pack is not in ${extensionsDir}/extensions.json`);
  const packManifest = JSON.parse(fs.readFileSync(path.join(pack.location.fsPath, 'package.json'), 'utf8')) as {
    contributes: {
      localizations: Array<{ languageId: string; languageName: string; localizedLanguageName?: string; translations: Array<{ id: string; path: string }> }>;
    };
  };
  const localization = packManifest.contributes.localizations.find((entry) => entry.languageId === locale);
  if (!localization) throw new Error(`the language pack does not declare ${locale}`);
  const entry = {
    hash: createHash('md5').update(pack.identifier.id).update(pack.version).digest('hex'),
    extensions: [{ extensionIdentifier: pack.identifier, version: pack.version }],
    translations: Object.fromEntries(localization.translations.map((translation) => [translation.id, path.join(pack.location.fsPath, translation.path)])),
    label: localization.localizedLanguageName ?? localization.languageName,
  };
  const userData = runDirs(runDir).userDataDir;
  fs.mkdirSync(userData, { recursive: true });
  fs.writeFileSync(path.join(userData, 'languagepacks.json'), JSON.stringify({ [locale]: entry }));
}

export async function stopWorkbench(): Promise<void> {
  if (!state) return;
  const { browser, server, runDir, forgetRunDir } = state;
  state = undefined;
  await browser.close();
  await server.stop();
  forgetRunDir();
  if (!process.env.SPOT_KEEP_RUN) removeRunDir(runDir);
}

/** Saves <e2eArtifacts>/<name>.png. */
export async function shot(name: string): Promise<string | undefined> {
  if (!state) return undefined;
  return screenshot(state.browser.page, path.join(e2eArtifacts, `${name.replace(/[^\w.-]+/g, '-')}.png`));
}

/** Opens the command palette (F1), runs the command shown with `title`, waits for the palette to close. */
export async function runCommand(title: string): Promise<void> {
  await chooseInPalette(title);
  await page()
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}

/**
 * Runs a command that asks in the palette itself (Go to Line/Column: its input starts with `prefix`);
 * resolves once the palette shows that question, so what is typed next answers it.
 */
export async function runCommandAsking(title: string, prefix: string): Promise<void> {
  await chooseInPalette(title);
  await page().waitForFunction(
    (expected) => {
      const input = document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input');
      return !!input && input.value.startsWith(expected) && !input.value.startsWith('>');
    },
    prefix,
    { timeout: 10_000 },
  );
}

/** F1, the command's title typed, its row clicked. */
async function chooseInPalette(title: string): Promise<void> {
  await openPalette();
  await quickInput().fill(`>${title}`);
  const row = page().locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await row.click();
}

/** Palette title of a contributed command ("Category: Title"), or undefined when not contributed. */
export function commandTitle(id: string): string | undefined {
  const command = manifest.contributes?.commands?.find((c) => c.command === id);
  if (!command) return undefined;
  return command.category ? `${command.category}: ${command.title}` : command.title;
}

/** Clicks the activity bar entry of a view container (by its title). */
export async function openViewContainer(title: string): Promise<void> {
  const p = page();
  // Click the entry itself, not its label: a badge (e.g. "1 unsaved file") covers the label's centre.
  const item = p.locator('.part.activitybar li.action-item', { has: p.locator(`a.action-label[aria-label^="${title}"]`) }).first();
  await item.waitFor({ state: 'visible', timeout: 20_000 });
  // Clicking the entry of the container already shown would close the sidebar: only open it.
  const shown = (await item.getAttribute('class'))?.split(/\s+/).includes('checked') && (await p.locator('.part.sidebar').isVisible());
  if (!shown) await item.click();
  await p.locator('.part.sidebar').waitFor({ state: 'visible', timeout: 20_000 });
}

/** The sidebar's title (e.g. "SPOT GALLERIES: GALLERIES" when the container has one view). */
export function sidebarTitle() {
  return page().locator('.part.sidebar .composite.title .title-label').first();
}

/** Right-clicks the Explorer row labelled `name` and returns the context menu's item labels. */
export async function explorerContextMenu(name: string): Promise<string[]> {
  const p = page();
  const row = p.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  await row.click({ button: 'right' });
  const menu = p.locator('.context-view .monaco-menu');
  await menu.first().waitFor({ state: 'visible', timeout: 10_000 });
  await p.waitForTimeout(300); // the menu fades in; let screenshots show it settled
  return (await p.locator('.context-view .monaco-menu .action-item .action-label').allTextContents()).map((label) => label.trim()).filter(Boolean);
}

/** Presses Escape until no quick input or context menu is open. */
export async function dismissOverlays(): Promise<void> {
  const p = page();
  for (let i = 0; i < 3; i++) await p.keyboard.press('Escape');
}

// ---------------------------------------------------------------------------------------------
// Helpers for the workflow tests: every wait is bounded, every selector is what a person sees
// (labels, roles, the workbench's own part classes).

/** The copy of test/fixtures/e2e-workspace that the workbench has open. */
export function workspaceDir(): string {
  if (!state) throw new Error('the e2e workbench is not running');
  return state.workspace;
}

/** The quick input's text box (palette, quick open, quick picks, the simple file dialog). */
export function quickInput() {
  return page().locator('.quick-input-widget .quick-input-box input');
}

/** The row of the quick input list that holds `text`. */
export function quickInputRow(text: string | RegExp) {
  return page().locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: text }).first();
}

/** Opens the command palette with F1 after giving the workbench (not an overlay) the keyboard. */
/**
 * Makes the workbench take the keys (not a webview or an input): a click on the title bar's empty
 * stretch left of the navigation arrows. At (600, 5) it hit the command center's top edge, which
 * opens Quick Open itself: now and then that arrived after the keys and closed the palette.
 */
export async function focusWorkbench(): Promise<void> {
  await page()
    .locator('.monaco-workbench')
    .click({ position: { x: 200, y: 10 } })
    .catch(() => undefined);
}

async function openPalette(): Promise<void> {
  const p = page();
  await focusWorkbench();
  await p.keyboard.press('F1');
  await quickInput().waitFor({ state: 'visible', timeout: 10_000 });
}

/**
 * Runs a command the way a person does: F1, type its palette title, Enter. Checks that the row
 * Enter acts on (the focused one) is that command, so a similar title cannot run instead.
 */
export async function runCommandByKeyboard(title: string, beforeEnter?: () => Promise<unknown>): Promise<void> {
  const p = page();
  await openPalette();
  await quickInput().fill(`>${title}`);
  const focused = p.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused').first();
  await focused.waitFor({ state: 'visible', timeout: 15_000 });
  // The focused row must be exactly the command: a recently used one whose title starts the same
  // ("Import Spot with Media" for "Import Spot") may be listed first, so step down to it.
  const focusedTitle = () =>
    p.evaluate(() =>
      document
        .querySelector('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name')
        ?.textContent?.replace(/\u00a0/g, ' ')
        .trim(),
    );
  await p.waitForFunction(
    (expected) =>
      Array.from(document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row .label-name')).some(
        (label) => label.textContent?.replace(/\u00a0/g, ' ').trim() === expected,
      ),
    title,
    { timeout: 15_000 },
  );
  for (let step = 0; step < 10 && (await focusedTitle()) !== title; step++) await p.keyboard.press('ArrowDown');
  if ((await focusedTitle()) !== title) throw new Error(`the command palette does not offer "${title}" as a row of its own`);
  await beforeEnter?.();
  await p.keyboard.press('Enter');
  // The palette either closes, or (a command that asks something) is replaced at once by the
  // command's own quick pick: newer workbenches reuse the same widget without hiding it.
  await p.waitForFunction(
    (typed) => {
      const widget = document.querySelector<HTMLElement>('.quick-input-widget');
      const input = document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input');
      const hidden = !widget || widget.offsetParent === null || getComputedStyle(widget).display === 'none';
      return hidden || (input !== null && input.value !== typed);
    },
    `>${title}`,
    { timeout: 10_000 },
  );
}

/** Quick Open (F1, then the path without ">"), Enter: the file opens in the active editor group. */
export async function openFile(relativePath: string): Promise<void> {
  const p = page();
  const name = path.basename(relativePath);
  await openPalette();
  await quickInput().fill(relativePath);
  const row = quickInputRow(name);
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  await row.click();
  await p.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  await activeEditorTab(name).waitFor({ state: 'visible', timeout: 20_000 });
  await p.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first().waitFor({ state: 'visible', timeout: 20_000 });
}

/** The active tab of the active editor group, if it is the one labelled `name`. */
export function activeEditorTab(name: string) {
  return page().locator('.part.editor .editor-group-container.active .tab.active', { hasText: name }).first();
}

/** A notification toast (bottom right) whose message matches `text`. */
export function toast(text: string | RegExp) {
  return page()
    .locator('.notifications-toasts .notification-toast', { has: page().locator('.notification-list-item-message', { hasText: text }) })
    .first();
}

/** Waits for a toast and returns its message text (non-breaking spaces as spaces). */
export async function waitForToast(text: string | RegExp, timeout = 30_000): Promise<string> {
  const found = toast(text);
  await found.waitFor({ state: 'visible', timeout });
  // Toasts slide and fade in: wait for the end of it, so screenshots show them whole.
  await page()
    .waitForFunction(
      (element) => !!element && (!!element.closest('.notification-fade-in-done') || !!element.querySelector('.notification-fade-in-done')),
      await found.elementHandle(),
      { timeout: 3_000 },
    )
    .catch(() => undefined);
  return ((await found.locator('.notification-list-item-message').textContent()) ?? '').replace(/\u00a0/g, ' ');
}

/** The labels of a toast's buttons. */
export async function toastButtons(text: string | RegExp): Promise<string[]> {
  return (await toast(text).locator('.notification-list-item-buttons-container .monaco-button').allTextContents()).map((label) => label.trim());
}

/** Expands a toast whose message is cut to one line (long messages), so all of it shows. */
export async function expandToast(text: string | RegExp): Promise<void> {
  const found = toast(text);
  await found.hover();
  const expand = found.locator('.action-label.codicon-notifications-expand').first();
  if (await expand.isVisible()) {
    await expand.click();
    await page().waitForTimeout(300);
  }
}

/** Moves the mouse off every control (no hover, no tooltip) and saves <e2eArtifacts>/<name>.png. */
export async function settledShot(name: string, mouse = { x: 1000, y: 560 }): Promise<string | undefined> {
  await page().mouse.move(mouse.x, mouse.y);
  // Until no hover or tooltip shows (at most 2 s; most shots have none), not a fixed 700 ms each.
  await page()
    .waitForFunction(
      () =>
        !Array.from(document.querySelectorAll('.monaco-hover, .workbench-hover')).some((element) => {
          const box = element.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
        }),
      undefined,
      { timeout: 2_000, polling: 100 },
    )
    .catch(() => undefined);
  await page().waitForTimeout(150); // the frame after it is drawn
  return shot(name);
}

/** Closes every notification (Notifications: Clear All), so later screenshots and waits start clean. */
export async function clearNotifications(): Promise<void> {
  const p = page();
  await runCommand('Notifications: Clear All Notifications');
  await p
    .locator('.notifications-toasts .notification-toast')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}

/** A row of the sidebar's tree or list (Explorer, a custom view) whose text matches `text`. */
export function sidebarRow(text: string | RegExp) {
  return page().locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: text }).first();
}

/** Expands a collapsed tree row (clicking its twistie); a row already expanded stays as it is. */
export async function expandRow(row: ReturnType<typeof sidebarRow>): Promise<void> {
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.locator('.monaco-tl-twistie').click();
  await page().waitForFunction((element) => element?.getAttribute('aria-expanded') === 'true', await row.elementHandle(), { timeout: 20_000 });
}

/** Clicks an inline action (hover button) of a tree row by its accessible label. */
export async function clickRowAction(row: ReturnType<typeof sidebarRow>, label: string): Promise<void> {
  await row.hover();
  const action = row.locator(`.actions .action-label[aria-label="${label}"]`).first();
  await action.waitFor({ state: 'visible', timeout: 10_000 });
  await action.click();
}

/** Right-clicks a sidebar row and clicks the context menu item `item`. */
export async function contextMenuAction(row: ReturnType<typeof sidebarRow>, item: string, beforeClick?: () => Promise<unknown>): Promise<void> {
  const p = page();
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  await row.click({ button: 'right' });
  const entry = p.locator('.context-view .monaco-menu .action-item', { has: p.locator('.action-label', { hasText: item }) }).first();
  await entry.waitFor({ state: 'visible', timeout: 10_000 });
  await entry.hover();
  await p.waitForTimeout(300); // the menu fades in; let a screenshot show it settled
  await beforeClick?.();
  await entry.click();
  await p
    .locator('.context-view .monaco-menu')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}

/**
 * Answers VS Code's simple file dialog (the open dialog of code-server): types the absolute path of
 * the file and accepts it.
 */
export async function answerFileDialog(file: string): Promise<void> {
  const p = page();
  const input = quickInput();
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  // The dialog puts its start folder into the box and lists it asynchronously; text typed before
  // that ends up joined to its own ("<start folder>//path/typed/"). Wait until it has settled.
  await p.waitForFunction(
    () =>
      !!(document.querySelector('.quick-input-widget .quick-input-box input') as HTMLInputElement | null)?.value &&
      document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row').length > 0,
    undefined,
    { timeout: 15_000 },
  );
  // First the folder (the dialog lists it once it has read it), then click the file's row, as a
  // person picks from the list. Typing the whole path at once races the dialog's own listing.
  const folder = `${path.dirname(file)}/`;
  const row = quickInputRow(path.basename(file));
  for (let attempt = 1; ; attempt++) {
    await input.fill(folder);
    const listed = await row.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (listed) break;
    // Still not listed: the dialog may have rewritten the box meanwhile. Type the folder again.
    if (attempt === 3) throw new Error(`the file dialog does not list ${path.basename(file)} (its box holds "${await input.inputValue()}")`);
  }
  await row.click();
  const widget = p.locator('.quick-input-widget');
  if (
    !(await widget.waitFor({ state: 'hidden', timeout: 3_000 }).then(
      () => true,
      () => false,
    ))
  ) {
    // The click only filled the file into the box: accept it.
    await p.waitForFunction(
      (name) => (document.querySelector('.quick-input-widget .quick-input-box input') as HTMLInputElement | null)?.value.endsWith(name),
      path.basename(file),
      { timeout: 10_000 },
    );
    await input.press('Enter');
    await widget.waitFor({ state: 'hidden', timeout: 15_000 });
  }
}

/** Drags the sash at the sidebar's right edge so the sidebar is `width` pixels wide (tree labels and descriptions fit). */
export async function setSidebarWidth(width: number): Promise<void> {
  const p = page();
  const box = await p.locator('.part.sidebar').boundingBox();
  if (!box || Math.abs(box.width - width) < 4) return;
  const edge = box.x + box.width;
  // The sash between the sidebar and the editor: on the sidebar's edge in VS Code 1.100, a few
  // pixels right of it where the parts float apart with a gap between them (1.139).
  const sashX = await p.evaluate(
    ({ edge, top, bottom }) => {
      let best: { x: number; distance: number } | undefined;
      for (const sash of Array.from(document.querySelectorAll<HTMLElement>('.monaco-sash.vertical'))) {
        const rect = sash.getBoundingClientRect();
        const x = rect.left + rect.width / 2;
        const distance = Math.abs(x - edge);
        const spansSidebar = rect.width > 0 && rect.top <= top + 1 && rect.bottom >= bottom - 1;
        if (spansSidebar && distance <= 16 && (!best || distance < best.distance)) best = { x, distance };
      }
      return best?.x;
    },
    { edge, top: box.y + box.height / 2 - 10, bottom: box.y + box.height / 2 + 10 },
  );
  const from = sashX ?? edge - 1;
  const y = box.y + box.height / 2;
  await p.mouse.move(from, y);
  await p.mouse.down();
  await p.mouse.move(from + (width - box.width) / 2, y, { steps: 5 });
  await p.mouse.move(from + (width - box.width), y, { steps: 5 });
  await p.mouse.up();
}

/** The extension's logs (the "Spot Import" LogOutputChannel's files, one per extension host), '' until one exists. */
export function extensionLog(): string {
  if (!state) return '';
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('Spot Import.log')) files.push(full);
    }
  };
  const logs = path.join(state.runDir, 'user-data', 'logs');
  if (fs.existsSync(logs)) walk(logs);
  // Oldest first (a reloaded window writes a log of its own): the newest lines are last.
  return files
    .map((file) => ({ file, written: fs.statSync(file).mtimeMs }))
    .sort((a, b) => a.written - b.written)
    .map(({ file }) => fs.readFileSync(file, 'utf8'))
    .join('\n');
}

/**
 * The counters of the sandbox that the built-in "Local (sandbox)" profile started inside the
 * extension host (its address is in the extension's log). Read over loopback.
 */
export async function sandboxCounters(timeoutMs = 10_000): Promise<{ imports: number; uploads: number; galleryReads: number }> {
  const deadline = Date.now() + timeoutMs;
  let address: string | undefined;
  while (!address) {
    // The newest: a reloaded window's extension host starts a sandbox of its own.
    address = [...extensionLog().matchAll(/local sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/g)].at(-1)?.[1];
    if (address) break;
    if (Date.now() > deadline) throw new Error('the extension log does not name the local sandbox address');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const reply = await fetch(`${address}/__sandbox/counters`, { signal: AbortSignal.timeout(5_000) });
  if (!reply.ok) throw new Error(`GET ${address}/__sandbox/counters: HTTP ${reply.status}`);
  return (await reply.json()) as { imports: number; uploads: number; galleryReads: number };
}
