// Headless Debian Chromium through playwright-core (no browser download), one fresh profile per run.
// Its old headless shell (Debian chromium-headless-shell) by default: the same engine without the
// browser's own user interface, which measured 8 to 9 % less CPU and wall time for an integration
// run (docs/performance.md); the full browser where only it is installed.
import * as fs from 'fs';
import * as path from 'path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { ensureDir } from './paths';
import { adoptGroup, childGroupLeaders, onCleanup, withTimeout } from './processes';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const CHROMIUM = process.env.SPOT_CHROMIUM ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Opens Chromium with profileDir; the page is ready for exposeFunction before any goto. */
export async function launchBrowser(profileDir: string, viewport = { width: 1400, height: 900 }): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM} (install the Debian package chromium-headless-shell)`);
  ensureDir(profileDir);
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    timeout: 60_000,
    // The harness's own signal handlers stop the browser (SIGKILL of its process group, adopted
    // below) together with the server; playwright's would exit the process before that cleanup.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    // Only loopback: no background connections the closed network would refuse anyway.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  // playwright starts Chromium as the leader of its own process group, with this profile folder on
  // its command line: track that group, so a signal or an unplanned exit kills it at once.
  const forgetGroups = childGroupLeaders(path.resolve(profileDir)).map((leader) => adoptGroup(leader));
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  let gone = false; // the browser went away by itself (crash, killed)
  context.once('close', () => (gone = true));
  const close = async () => {
    if (closed) return;
    closed = true;
    unregister();
    const done =
      gone ||
      (await withTimeout(context.close(), 15_000, 'browser close').then(
        () => true,
        (error) => {
          console.error(`[harness] ${String(error)}`);
          return false;
        },
      ));
    // Still tracked when closing failed: stopAll() and the exit handler SIGKILL the group.
    if (done) for (const forget of forgetGroups) forget();
  };
  const unregister = onCleanup(close);
  return { context, page, close };
}

/** Saves a full-page screenshot; never throws (a failing screenshot must not hide the real failure). */
export async function screenshot(page: Page, file: string): Promise<string | undefined> {
  try {
    ensureDir(path.dirname(file));
    await withTimeout(page.screenshot({ path: file, timeout: 15_000 }), 20_000, 'screenshot');
    return file;
  } catch (error) {
    console.error(`[harness] screenshot ${file} failed: ${String(error)}`);
    return undefined;
  }
}
