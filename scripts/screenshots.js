#!/usr/bin/env node
// npm run screenshots: the documented screenshots (docs/screenshots/, shown by docs/screenshots.md)
// refreshed from the shots of the last end-to-end run on the oldest VS Code (artifacts/e2e/, which
// `npm run test:e2e` empties and fills). Tests never write docs/ themselves, so a test run leaves
// the working tree as it was (test/unit/screenshots.test.ts); refreshing these tracked files is a
// decision, made with this command. A shot the run did not take (a filtered or failed run) leaves
// its screenshot as it was; one with the same bytes is not rewritten. Says what it did, file by file.
// The README's cuts of some of them (docs/readme/) are remade by scripts/readmeImages.js afterwards.
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');

/** Each documented screenshot and the e2e shot it is (test/e2e: shot('…') / settledShot('…')). */
const SCREENSHOTS = [
  { shot: '32-walkthrough', doc: 'walkthrough.png' },
  { shot: '33-details-page', doc: 'details-page.png' },
  { shot: '19-import-with-media-result', doc: 'import-with-media.png' },
  { shot: '20-gallery-after-media-import', doc: 'gallery-after-media-import.png' },
  { shot: '24-gallery-grid', doc: 'gallery-grid.png' },
  { shot: '23-media-opened', doc: 'media-opened.png' },
  { shot: '22-tooltip-thumbnail', doc: 'tooltip-thumbnail.png' },
  { shot: '26-reordered-gallery', doc: 'reordered-gallery.png' },
  { shot: 'topics-inlay-hints', doc: 'topics-inlay-hints.png' },
  { shot: 'topics-category-completion', doc: 'topics-category-completion.png' },
  { shot: '20-explorer-menu-upload-to-gallery', doc: 'explorer-upload-menu.png' },
  { shot: '16-invalid-document-diagnostics', doc: 'diagnostics.png' },
  { shot: '11-import-result-notification', doc: 'import-result.png' },
  { shot: '15-explorer-upload-done', doc: 'galleries-with-media.png' },
  { shot: '21-gallery-row-default-width', doc: 'gallery-row-default-width.png' },
  { shot: 'rows-1-problems', doc: 'rows-problems.png' },
  { shot: 'rows-3-hover', doc: 'rows-hover.png' },
  { shot: 'rows-4-preview', doc: 'rows-preview.png' },
  { shot: 'rows-5-import-pick', doc: 'rows-import-pick.png' },
  { shot: '40-restricted-mode-import', doc: 'restricted-mode-import.png' },
];

/**
 * Copies `from`/<shot>.png over `to`/<doc> for each entry. Returns the documented names updated,
 * unchanged (same bytes, not rewritten) and missing (no such shot in `from`: left as they were).
 */
function refreshScreenshots({ from, to, log }) {
  const result = { updated: [], unchanged: [], missing: [] };
  fs.mkdirSync(to, { recursive: true });
  for (const { shot, doc } of SCREENSHOTS) {
    const source = path.join(from, `${shot}.png`);
    const target = path.join(to, doc);
    if (!fs.existsSync(source)) {
      result.missing.push(doc);
      log(`  ${shown(target)}: kept as it was; ${shown(source)} is missing (the run did not take it)`);
      continue;
    }
    const bytes = fs.readFileSync(source);
    const current = fs.existsSync(target) ? fs.readFileSync(target) : undefined;
    if (current && current.equals(bytes)) {
      result.unchanged.push(doc);
      log(`  ${shown(target)}: unchanged`);
      continue;
    }
    fs.writeFileSync(target, bytes);
    result.updated.push(doc);
    log(`  ${shown(target)}: updated from ${shown(source)}${current ? '' : ' (new)'}`);
  }
  return result;
}

function shown(file) {
  const inside = path.relative(root, file);
  return inside.startsWith('..') || path.isAbsolute(inside) ? file : inside;
}

function main() {
  const from = path.join(root, 'artifacts', 'e2e');
  const to = path.join(root, 'docs', 'screenshots');
  if (!fs.existsSync(from)) {
    console.error(`[screenshots] ${shown(from)}/ does not exist: run npm run test:e2e first (its shots on the oldest VS Code go there).`);
    return 1;
  }
  console.log(`[screenshots] ${shown(to)}/ from the shots of the last end-to-end run (${shown(from)}/):`);
  const { updated, unchanged, missing } = refreshScreenshots({ from, to, log: (line) => console.log(line) });
  console.log(`[screenshots] ${updated.length} updated, ${unchanged.length} unchanged, ${missing.length} missing.`);
  if (updated.length === 0 && unchanged.length === 0) {
    console.error('[screenshots] the last end-to-end run took none of them: run npm run test:e2e (without SPOT_TEST_GREP).');
    return 1;
  }
  if (updated.length > 0) {
    console.log(
      "[screenshots] Review them (git diff --stat docs/screenshots) before committing; the README's pictures (docs/readme/) are cut from some of them by node scripts/readmeImages.js.",
    );
  }
  return 0;
}

if (require.main === module) process.exitCode = main();

module.exports = { SCREENSHOTS, refreshScreenshots };
