// The end-to-end workbench: code-server with the packaged .vsix installed, open in headless Chromium
// on test/fixtures/workspace, plus small helpers to drive the real UI (palette, views, menus).
import * as fs from 'fs';
import * as path from 'path';
import { Page } from 'playwright-core';
import { Browser, launchBrowser, screenshot } from '../integration/launchers/harness/browser';
import {
  ensureCodeServer,
  ensureSystemDeps,
  installVsix,
  removeRunDir,
  resolveCodeServerVersion,
  RunningCodeServer,
  startCodeServer,
  workbenchUrl,
} from '../integration/launchers/harness/codeServer';
import { artifactsRoot, cacheRoot, ensureDir, fixtureWorkspace, freshDir, repoRoot } from '../integration/launchers/harness/paths';
import { freePort } from '../integration/launchers/harness/processes';

export const e2eArtifacts = path.join(artifactsRoot, 'e2e');
export const vsixPath = process.env.SPOT_E2E_VSIX ?? path.join(artifactsRoot, 'spot-import.vsix');

export interface Manifest {
  displayName: string;
  contributes?: {
    commands?: Array<{ command: string; title: string; category?: string }>;
    viewsContainers?: { activitybar?: Array<{ id: string; title: string }> };
    views?: Record<string, Array<{ id: string; name: string }>>;
    menus?: Record<string, Array<{ command: string; when?: string }>>;
  };
}

export const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;

interface State {
  server: RunningCodeServer;
  browser: Browser;
  runDir: string;
}

let state: State | undefined;

export function page(): Page {
  if (!state) throw new Error('the e2e workbench is not running (test/e2e/hooks.ts starts it)');
  return state.browser.page;
}

/** Installs the .vsix into a fresh code-server, opens the workbench and waits until it is usable. */
export async function startWorkbench(): Promise<void> {
  if (!fs.existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: run npm run test:e2e (it packages the extension)`);
  ensureSystemDeps('browser');
  const install = await ensureCodeServer(await resolveCodeServerVersion());
  const runDir = path.join(cacheRoot, 'runs', `e2e-${process.pid}`);
  removeRunDir(runDir);
  freshDir(runDir);
  freshDir(e2eArtifacts);
  const extensionsDir = ensureDir(path.join(runDir, 'extensions'));
  await installVsix(install, vsixPath, runDir, extensionsDir);
  const server = await startCodeServer(install, {
    runDir,
    port: await freePort(),
    extensionsDir,
    logFile: path.join(e2eArtifacts, 'code-server.log'),
    userSettings: {
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoUpdate': false,
      'extensions.autoCheckUpdates': false,
      'security.workspace.trust.enabled': false,
    },
    env: { SPOT_IMPORT_TEST: '1' },
  });
  const browser = await launchBrowser(path.join(runDir, 'browser-profile')).catch(async (error) => {
    await server.stop();
    throw error;
  });
  state = { server, browser, runDir };
  console.log(`    [e2e] VS Code ${install.vscodeVersion} (code-server ${install.version}) on ${server.baseUrl}`);
  const p = browser.page;
  await p.goto(workbenchUrl(server, { folder: fixtureWorkspace }), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await p.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
  await p.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
  // Explorer rows appear once the remote file system answers: the workbench is usable.
  await p.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60_000 });
}

export async function stopWorkbench(): Promise<void> {
  if (!state) return;
  const { browser, server, runDir } = state;
  state = undefined;
  await browser.close();
  await server.stop();
  if (!process.env.SPOT_KEEP_RUN) removeRunDir(runDir);
}

/** Saves artifacts/e2e/<name>.png. */
export async function shot(name: string): Promise<string | undefined> {
  if (!state) return undefined;
  return screenshot(state.browser.page, path.join(e2eArtifacts, `${name.replace(/[^\w.-]+/g, '-')}.png`));
}

/** Opens the command palette (F1), runs the command shown with `title`, waits for the palette to close. */
export async function runCommand(title: string): Promise<void> {
  const p = page();
  const input = p.locator('.quick-input-widget .quick-input-box input');
  await p.locator('.monaco-workbench').click({ position: { x: 600, y: 5 } }).catch(() => undefined);
  await p.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${title}`);
  const row = p.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await row.click();
  await p.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
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
  await item.click();
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
  return (await p.locator('.context-view .monaco-menu .action-item .action-label').allTextContents())
    .map((label) => label.trim())
    .filter(Boolean);
}

/** Presses Escape until no quick input or context menu is open. */
export async function dismissOverlays(): Promise<void> {
  const p = page();
  for (let i = 0; i < 3; i++) await p.keyboard.press('Escape');
}
