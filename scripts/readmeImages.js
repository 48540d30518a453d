#!/usr/bin/env node
// node scripts/readmeImages.js: the README's pictures (docs/readme/*.png), cut from the end-to-end
// tests' screenshots (docs/screenshots/*.png, full size, copied there from artifacts/e2e/ by
// `npm run screenshots`) and made small enough to ship inside the .vsix (scripts/packageVsix.js
// inlines them and holds them to a budget): a crop of the part that matters, scaled down, framed,
// reduced to a small palette, and the PNG packed as tightly as zopflipng packs it (the same pixels,
// about 5 % fewer bytes than pngquant writes). The .vsix carries them (inlined in its README),
// within its 450 KB: 65 % and 12 to 16 colours keep the text readable at about 11 KB a picture.
// Fewer colours were tried: with pngquant's dithering the pictures do not get smaller, and without
// it the syntax colours of the editor go (the strings' red becomes the keys' blue).
//
// Needs ImageMagick (`convert`) and pngquant, and should have zopflipng, from Debian: `apt-get
// install imagemagick pngquant zopfli` (without zopflipng the pictures are pngquant's, about 2 KB
// more in the .vsix, and the script says so). Only this script needs them, and only when the
// screenshots change; the results are committed, so building, packaging and testing do not.
const fs = require('fs');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');

/** from: a screenshot; crop: ImageMagick geometry (WxH+X+Y) of the 1400x900 workbench; colors: palette size. */
const PICTURES = [
  { from: 'docs/screenshots/walkthrough.png', crop: '770x720+505+175', scale: '65%', colors: 12, to: 'docs/readme/walkthrough.png' },
  { from: 'docs/screenshots/import-with-media.png', crop: '940x360+0+35', scale: '65%', colors: 12, to: 'docs/readme/import-with-media.png' },
  { from: 'docs/screenshots/gallery-grid.png', crop: '1000x330+0+35', scale: '65%', colors: 16, to: 'docs/readme/gallery-grid.png' },
  { from: 'docs/screenshots/rows-hover.png', crop: '1060x190+345+35', scale: '65%', colors: 16, to: 'docs/readme/rows-hover.png' },
];

/** Whether zopflipng is installed. */
const zopflipng = spawnSync('zopflipng', ['-h'], { stdio: 'ignore' }).error === undefined;

function main() {
  if (!zopflipng) console.warn('[readme-images] zopflipng is missing (apt-get install zopfli): the pictures stay as pngquant writes them, about 5 % larger');
  for (const picture of PICTURES) {
    const from = path.join(root, picture.from);
    const to = path.join(root, picture.to);
    if (!fs.existsSync(from)) {
      console.error(`[readme-images] ${picture.from} is missing (npm run test:e2e takes the screenshots, npm run screenshots copies them into docs/)`);
      return 1;
    }
    fs.mkdirSync(path.dirname(to), { recursive: true });
    // A thin grey frame, so a picture of VS Code does not melt into the page that shows it.
    const cut = execFileSync(
      'convert',
      [from, '-crop', picture.crop, '+repage', '-resize', picture.scale, '-bordercolor', '#c8c8c8', '-border', '1', 'png:-'],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    execFileSync('pngquant', ['--force', '--speed', '1', '--strip', String(picture.colors), '--output', to, '-'], { input: cut });
    if (zopflipng) {
      // -m: more iterations. Lossless: zopflipng changes no pixel unless told --lossy_*.
      execFileSync('zopflipng', ['-y', '-m', to, to], { stdio: 'ignore' });
    }
    console.log(`[readme-images] ${picture.to}: ${fs.statSync(to).size} B`);
  }
  return 0;
}

process.exit(main());
