#!/usr/bin/env node
// Renders media/source/icon.svg into media/icon.png (256x256; the Marketplace wants a PNG of at
// least 128x128) with the Debian Chromium the tests use. Run it after changing the SVG:
//   node scripts/renderIcon.js media/source/icon.svg media/icon.png
const { chromium } = require('playwright-core');
(async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 256, height: 256 }, deviceScaleFactor: 1 });
  const svg = require('fs').readFileSync(process.argv[2], 'utf8');
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.screenshot({ path: process.argv[3], omitBackground: true, clip: { x: 0, y: 0, width: 256, height: 256 } });
  await browser.close();
})();
