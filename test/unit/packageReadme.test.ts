// The README and changelog for users that scripts/packageVsix.js makes for the .vsix: without the
// repository-only blocks, pictures inlined as data: URIs (VS Code's Details page shows no relative
// image), relative links as plain paths, and the repository's README.md packaged as it is.
import * as assert from 'assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const root = join(__dirname, '../../..');
const { userReadme, userChangelog } = require(join(root, 'scripts', 'packageVsix.js')) as {
  userReadme(text: string, baseDir?: string, options?: { imagesUrl?: string }): { text: string; images: Array<{ link: string; bytes: number }> };
  userChangelog(text: string): string;
};

describe('README for users (scripts/packageVsix.js)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readme-'));
    writeFileSync(join(dir, 'shot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves out every repository-only block and inlines relative pictures as data: URIs', () => {
    const text = [
      '# Title',
      '<!-- repository-only -->',
      'npm install && npm test',
      '<!-- /repository-only -->',
      'For users. ![A shot](shot.png) ![Remote](https://example.org/a.png)',
      '<!-- repository-only -->',
      'More for contributors',
      '<!-- /repository-only -->',
      'End.',
    ].join('\n');
    const { text: out, images } = userReadme(text, dir);
    assert.ok(!out.includes('npm install') && !out.includes('contributors') && !out.includes('repository-only'), out);
    assert.ok(out.includes(`![A shot](data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).toString('base64')})`), out);
    assert.ok(out.includes('![Remote](https://example.org/a.png)'), 'an https picture stays as it is');
    assert.deepStrictEqual(images, [{ link: 'shot.png', bytes: 7 }]);
    assert.match(out, /For users\.[\s\S]*End\./);
  });

  it('turns relative links into plain paths and keeps web links and anchors', () => {
    const { text: out } = userReadme('[docs/cli.md](docs/cli.md), [the guide](CONTRIBUTING.md), [web](https://example.org), [top](#title)', dir);
    assert.strictEqual(out, '`docs/cli.md`, the guide (`CONTRIBUTING.md`), [web](https://example.org), [top](#title)');
  });

  it('with an images address, makes relative pictures https: addresses there instead of inlining them', () => {
    const { text: out, images } = userReadme('![A shot](shot.png) ![Remote](https://example.org/a.png)', dir, {
      imagesUrl: 'https://example.org/spot-import/',
    });
    assert.strictEqual(out, '![A shot](https://example.org/spot-import/shot.png) ![Remote](https://example.org/a.png)');
    assert.deepStrictEqual(images, [{ link: 'shot.png', bytes: 0 }], 'nothing inlined: the .vsix carries no picture bytes');
    assert.throws(() => userReadme('![x](shot.png)', dir, { imagesUrl: 'http://example.org/' }), /https:\/\/ address/);
    assert.throws(() => userReadme('![x](shot.png)', dir, { imagesUrl: 'https://example.org/folder' }), /ends with \//);
  });

  it("makes the changelog for users by the README's rules (relative links as plain paths, no repository-only block) and refuses a relative picture in it", () => {
    const links =
      '## [Unreleased]\n- See [docs/cli.md](docs/cli.md) and [the guide](CONTRIBUTING.md); [Keep a Changelog](https://keepachangelog.com/), [top](#changelog).';
    assert.strictEqual(userChangelog(links), userReadme(links, dir).text);
    assert.strictEqual(
      userChangelog(links),
      '## [Unreleased]\n- See `docs/cli.md` and the guide (`CONTRIBUTING.md`); [Keep a Changelog](https://keepachangelog.com/), [top](#changelog).',
    );
    assert.throws(() => userChangelog('![x](shot.png)'), /CHANGELOG\.md: picture shot\.png/);
    const blocks = '## 0.1.0\n- For users.\n<!-- repository-only -->\n- `npm run bench` for contributors.\n<!-- /repository-only -->\n- Also for users.\n';
    assert.strictEqual(userChangelog(blocks), '## 0.1.0\n- For users.\n- Also for users.\n', 'repository-only blocks are left out, as in the README');
    assert.throws(() => userChangelog('<!-- repository-only -->\nno end'), /CHANGELOG\.md: .* without/);
  });

  it('refuses a missing picture, an SVG picture and an unclosed block', () => {
    assert.throws(() => userReadme('![x](missing.png)', dir), /missing\.png does not exist/);
    assert.throws(() => userReadme('![x](media/icon.svg)', dir), /not PNG, JPEG, GIF or WebP/);
    assert.throws(() => userReadme('<!-- repository-only -->\nno end', dir), /without/);
  });

  it('makes the repository README into one that opens with its title and has every picture inlined', () => {
    const { text: out, images } = userReadme(readFileSync(join(root, 'README.md'), 'utf8'), root);
    assert.ok(images.length > 0, 'the README has pictures');
    assert.ok(!/\]\((?!data:|https?:|#)[^)]+\)/.test(out), 'no relative link or picture is left');
    assert.ok(!out.includes('npm install && npm'), 'the two commands are for the repository only');
    assert.match(out, /^# Spot Import & Galleries/);
  });

  it('ships no text for people working on the project: no npm commands, benches, goals or build settings', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const { text: out } = userReadme(readme, root);
    assert.match(readme, /npx spot-import import --sandbox/, "the repository's README keeps the try-it line");
    for (const contributorOnly of [/\bnpx\b/, /npm (run|test|start)\b/, /npm install(?! -g)/, /SPOT_README_IMAGES_URL/, /\bbench/i, /\bgoal\b/i, /\b0\.85\b/]) {
      const line = out.split('\n').find((candidate) => contributorOnly.test(candidate));
      assert.strictEqual(line, undefined, `for contributors (${contributorOnly}): ${line}`);
    }
    // The command line is not in the .vsix: the README for users says where it comes from.
    assert.match(out, /npm pack/);
    assert.match(out, /npm install -g/);
  });
});
