// Headless Debian Chromium through playwright-core (no browser download), one fresh profile per run.
import * as fs from 'fs';
import * as path from 'path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { ensureDir } from './paths';
import { onCleanup, withTimeout } from './processes';

export const CHROMIUM = process.env.SPOT_CHROMIUM ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Opens Chromium with profileDir; the page is ready for exposeFunction before any goto. */
export async function launchBrowser(profileDir: string, viewport = { width: 1400, height: 900 }): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM} (install the Debian package chromium)`);
  ensureDir(profileDir);
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    timeout: 60_000,
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
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    unregister();
    await withTimeout(context.close(), 15_000, 'browser close').catch((error) =>
      console.error(`[harness] ${String(error)}`),
    );
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
