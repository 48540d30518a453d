#!/usr/bin/env node
// Renders media/source/icon.svg into media/icon.png (256x256; the Marketplace wants a PNG of at
// least 128x128) with the Debian Chromium the tests use, then quantizes it with pngquant (Debian
// package pngquant: 27 KB of RGBA become 6 KB that look the same, and the .vsix has a 450 KB
// budget). Run it after changing the SVG:
//   node scripts/renderIcon.js media/source/icon.svg media/icon.png
const { chromium } = require('playwright-core');
const fs = require('fs');
(async () => {
  const browser = await chromium.launch({
    executablePath: fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const page = await browser.newPage({ viewport: { width: 256, height: 256 }, deviceScaleFactor: 1 });
  const svg = fs.readFileSync(process.argv[2], 'utf8');
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.screenshot({ path: process.argv[3], omitBackground: true, clip: { x: 0, y: 0, width: 256, height: 256 } });
  await browser.close();
  const quantized = require('child_process').spawnSync(
    'pngquant',
    ['--quality', '80-95', '--speed', '1', '--strip', '--force', '--output', process.argv[3], process.argv[3]],
    { stdio: 'inherit' },
  );
  if (quantized.error || quantized.status !== 0)
    console.warn('pngquant did not run (apt-get install pngquant): the icon is left unquantized, about 20 KB larger');
})();
