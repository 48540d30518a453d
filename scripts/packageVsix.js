#!/usr/bin/env node
// npm run package (and npm run test:e2e): artifacts/spot-import.vsix with the README for users.
//
// README.md serves two readers. The repository's copy opens with a block for people working on the
// project (the two commands), between the markers below; the .vsix leaves it out. And VS Code's
// Details page of an installed .vsix shows its README in a webview whose images must be https: or
// data: (its Content-Security-Policy is `img-src https: data:`, with no base address), while this
// package has no public repository that vsce could point relative images to. So the README for
// the .vsix is written to artifacts/readme/README.md with every relative image inlined as a data:
// URI (the image then ships inside the .vsix, in readme.md) and every relative link, which would
// lead nowhere there, turned into its plain path. vsce packs that file as the extension's readme
// (--readme-path); .vscodeignore leaves the repository's README.md out. The Changelog tab shows
// CHANGELOG.md the same way, so its copy for users, artifacts/readme/CHANGELOG.md, has its relative
// links turned into plain paths and its repository-only blocks left out by the same rules
// (--changelog-path; .vscodeignore lets that copy in and leaves the repository's CHANGELOG.md out,
// so one changelog ships).
//
// package.json has no repository on purpose (the project has no public address): vsce warns about
// that and, on a terminal, stops at "Do you want to continue? [y/N]", so it is told
// --allow-missing-repository.
//
// Newer VS Code (1.139 seen; not 1.100) also passes the README through a sanitizer that keeps a
// picture only when its source is http: or https: (the Details page asks for no other media
// protocol, and relative sources are removed too): there data: pictures show broken. The one form
// both show is an https: address. SPOT_README_IMAGES_URL=https://…/ (the folder that holds the
// repository's files, images at their README paths) makes every relative picture that address
// instead of a data: URI; the pictures must be published there.
//
// The inlined images have a budget (IMAGE_BUDGET_BYTES, with the walkthrough pictures), and the
// .vsix one of its own (VSIX_BUDGET_BYTES, under 1 MB): scripts/readmeImages.js makes the pictures
// small. Each inlined picture costs about 12 KB of the .vsix (base64 of a PNG compresses no
// further). The README's pictures also ship as the files they are (docs/readme/, .vscodeignore),
// for SPOT_README_IMAGES_URL's address and for anyone who unpacks the .vsix.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const START = '<!-- repository-only -->';
const END = '<!-- /repository-only -->';
const USER_README = path.join('artifacts', 'readme', 'README.md');
const USER_CHANGELOG = path.join('artifacts', 'readme', 'CHANGELOG.md');
const DEFAULT_VSIX = path.join(root, 'artifacts', 'spot-import.vsix');
/** README images plus media/walkthrough/**: everything pictorial the .vsix carries. */
const IMAGE_BUDGET_BYTES = 160 * 1024;
/** The whole .vsix. */
const VSIX_BUDGET_BYTES = 1000 * 1000;
const MIME = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };

const isRelative = (link) => !/^[a-z][\w+.-]*:/i.test(link) && !link.startsWith('#') && !link.startsWith('/');
const IMAGE = /!\[([^\]]*)\]\(([^)\s]+)\)/g;

/** Every relative link (not a picture) as its plain path: on the Details and Changelog tabs it would lead nowhere. */
function plainRelativeLinks(text) {
  return text.replace(/(?<!!)\[([^\]]+)\]\(([^)\s]+)\)/g, (all, label, link) => {
    if (!isRelative(link)) return all;
    const plain = label.replace(/^`|`$/g, '');
    return plain === link ? `\`${link}\`` : `${label} (\`${link}\`)`;
  });
}

/** The text without its repository-only blocks (as many as there are); `name` is for the errors. */
function withoutRepositoryOnly(text, name) {
  let out = text;
  for (;;) {
    const start = out.indexOf(START);
    if (start < 0) break;
    const end = out.indexOf(END, start);
    if (end < 0) throw new Error(`${name}: "${START}" without "${END}"`);
    out = out.slice(0, start) + out.slice(end + END.length).replace(/^\r?\n/, '');
  }
  if (out.includes(END)) throw new Error(`${name}: "${END}" without "${START}"`);
  return out;
}

/**
 * The README for users: no repository-only block, images inlined (or, with imagesUrl, at that
 * https: address), relative links as plain paths.
 */
function userReadme(text, baseDir = root, { imagesUrl } = {}) {
  if (imagesUrl !== undefined && !/^https:\/\/[^/]+\/(.*\/)?$/.test(imagesUrl))
    throw new Error(`README images address "${imagesUrl}": give an https:// address that ends with /`);
  const images = [];
  const out = withoutRepositoryOnly(text, 'README.md').replace(IMAGE, (all, alt, link) => {
    if (!isRelative(link)) return all;
    const file = path.join(baseDir, decodeURI(link));
    const mime = MIME[path.extname(file).toLowerCase()];
    if (!mime) throw new Error(`README.md: image ${link} is not PNG, JPEG, GIF or WebP (vsce refuses SVG images)`);
    if (!fs.existsSync(file)) throw new Error(`README.md: image ${link} does not exist`);
    if (imagesUrl !== undefined) {
      images.push({ link, bytes: 0 });
      return `![${alt}](${new URL(link, imagesUrl).href})`;
    }
    const bytes = fs.readFileSync(file);
    images.push({ link, bytes: bytes.length });
    return `![${alt}](data:${mime};base64,${bytes.toString('base64')})`;
  });
  return { text: plainRelativeLinks(out), images };
}

/**
 * The changelog for users: no repository-only block (the README's markers), relative links as
 * plain paths. A relative picture is refused (nothing would show it).
 */
function userChangelog(text) {
  const out = withoutRepositoryOnly(text, 'CHANGELOG.md');
  for (const [, , link] of out.matchAll(IMAGE)) {
    if (isRelative(link)) throw new Error(`CHANGELOG.md: picture ${link} is relative and would not show on the Changelog tab; use an https: address`);
  }
  return plainRelativeLinks(out);
}

/** Bytes of the walkthrough's pictures (media/walkthrough/**: each language's, de/ for German). */
function walkthroughImageBytes(dir = path.join(root, 'media', 'walkthrough')) {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const file = path.join(dir, entry.name);
    return sum + (entry.isDirectory() ? walkthroughImageBytes(file) : fs.statSync(file).size);
  }, 0);
}

/** Writes artifacts/readme/README.md; throws when the images are over budget. Returns its path (relative to the root). */
function writeUserReadme() {
  const imagesUrl = process.env.SPOT_README_IMAGES_URL || undefined;
  const { text, images } = userReadme(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), root, { imagesUrl });
  const readmeBytes = images.reduce((sum, image) => sum + image.bytes, 0);
  const total = readmeBytes + walkthroughImageBytes();
  if (total > IMAGE_BUDGET_BYTES) {
    const list = images.map((image) => `${image.link} ${image.bytes} B`).join(', ');
    throw new Error(
      `images: ${total} B (README ${readmeBytes} B: ${list}; walkthrough ${total - readmeBytes} B) is over the ${IMAGE_BUDGET_BYTES} B budget; see scripts/readmeImages.js`,
    );
  }
  fs.mkdirSync(path.join(root, path.dirname(USER_README)), { recursive: true });
  fs.writeFileSync(path.join(root, USER_README), text);
  return { readme: USER_README, images, imageBytes: total };
}

/** Writes artifacts/readme/CHANGELOG.md from CHANGELOG.md. Returns its path (relative to the root). */
function writeUserChangelog() {
  const text = userChangelog(fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'));
  fs.mkdirSync(path.join(root, path.dirname(USER_CHANGELOG)), { recursive: true });
  fs.writeFileSync(path.join(root, USER_CHANGELOG), text);
  return USER_CHANGELOG;
}

const posix = (file) => file.split(path.sep).join('/');

/** vsce's arguments for `vsce package` (the user README and changelog must have been written). */
function vsceArgs(out) {
  const args = [
    'package',
    '--no-dependencies',
    '--no-rewrite-relative-links',
    '--allow-missing-repository',
    '--readme-path',
    posix(USER_README),
    '--changelog-path',
    posix(USER_CHANGELOG),
    '--out',
    out,
  ];
  if (!fs.existsSync(path.join(root, 'LICENSE')) && !fs.existsSync(path.join(root, 'LICENSE.md'))) args.push('--skip-license');
  return args;
}

function main() {
  const out = process.argv[2] ? path.resolve(process.argv[2]) : DEFAULT_VSIX;
  const { readme, images, imageBytes } = writeUserReadme();
  const where = process.env.SPOT_README_IMAGES_URL ? `linked at ${process.env.SPOT_README_IMAGES_URL}` : 'inlined';
  console.log(`[package] ${readme}: ${images.length} images ${where}; images in all ${(imageBytes / 1024).toFixed(1)} KB`);
  console.log(`[package] ${writeUserChangelog()}: relative links as plain paths`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.rmSync(out, { force: true });
  const vsce = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
  const result = spawnSync(vsce, vsceArgs(out), { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) return result.status ?? 1;
  const size = fs.statSync(out).size;
  console.log(`[package] ${path.relative(root, out)}: ${(size / 1024).toFixed(0)} KB`);
  if (size >= VSIX_BUDGET_BYTES) {
    console.error(`[package] ${path.relative(root, out)} is ${size} B, over its ${VSIX_BUDGET_BYTES} B budget: see docs/performance.md for what it holds`);
    return 1;
  }
  return 0;
}

module.exports = { userReadme, userChangelog, writeUserReadme, writeUserChangelog, vsceArgs, IMAGE_BUDGET_BYTES };

if (require.main === module) process.exit(main());
