// The documented screenshots (docs/screenshots/) are tracked files: a test run must not rewrite
// them, or every `npm test` leaves the working tree changed. Tests write to artifacts/ only;
// `npm run screenshots` (scripts/screenshots.js) copies the e2e run's shots into docs/ when a
// person decides to. Checked here: no program that `npm test` runs names a path under docs/ (the
// e2e walkthrough test copied two shots there), but scripts/e2e.js, which fingerprints docs/ and
// fails a run that wrote into it; the refresh script's table covers every documented screenshot
// from a shot the e2e tests take; and the script copies what changed, says so, and keeps what the
// run did not take.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

const root = join(__dirname, '../../..');
interface ScreenshotsScript {
  SCREENSHOTS: ReadonlyArray<{ shot: string; doc: string }>;
  refreshScreenshots(options: { from: string; to: string; log(line: string): void }): { updated: string[]; unchanged: string[]; missing: string[] };
}
const script = (): ScreenshotsScript => require(join(root, 'scripts', 'screenshots.js')) as ScreenshotsScript;

/** Every file below `dir` whose name matches `pattern`. */
function filesBelow(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesBelow(path, pattern) : pattern.test(entry.name) ? [path] : [];
  });
}

/** String and template literals in the code (comments left out) that name a path in docs/. */
function docsPaths(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (!node.text.includes('://') && /(^|[\\/])docs([\\/]|$)/.test(node.text)) found.push(JSON.stringify(node.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Programs of the test run that name docs/ to read it, and why. */
const READ_ONLY = new Map([[join('scripts', 'e2e.js'), 'fingerprints docs/ before and after its tests, and fails a run that wrote into it']]);

/**
 * What `npm test` runs besides the unit tests (which read docs/cli-json.md, and write nothing in
 * the repository): the integration and e2e suites with their harness, and the scripts of its steps.
 * scripts/screenshots.js and scripts/readmeImages.js write docs/ on purpose, run by a person.
 */
function testRunPrograms(): string[] {
  const scripts = ['test.js', 'e2e.js', 'integration.js', 'compile.js', 'packageVsix.js', 'ensureSystemDeps.js', 'checkCommands.js'].map((name) =>
    join(root, 'scripts', name),
  );
  return [
    ...filesBelow(join(root, 'test', 'e2e'), /\.ts$/),
    ...filesBelow(join(root, 'test', 'integration'), /\.ts$/),
    ...scripts,
    ...filesBelow(join(root, 'scripts', 'lib'), /\.js$/),
  ];
}

describe('documented screenshots: written by npm run screenshots, never by a test run', () => {
  it('no program of the test run names a path under docs/', () => {
    // The check finds what it looks for (the copy the e2e walkthrough test made).
    assert.deepEqual(docsPaths('x.ts', "const target = path.join(repoRoot, 'docs', 'screenshots', name); // docs/ in a comment"), ['"docs"']);
    assert.deepEqual(docsPaths('x.js', 'copy(`${root}/docs/screenshots/${name}`, "https://example.org/docs/")'), ['"/docs/screenshots/"']);
    const programs = testRunPrograms();
    assert.ok(programs.some((file) => file.endsWith(join('test', 'e2e', 'walkthrough.test.ts'))) && programs.length > 40, `${programs.length} files`);
    const naming = programs
      .filter((file) => !READ_ONLY.has(relative(root, file)))
      .flatMap((file) => docsPaths(file, readFileSync(file, 'utf8')).map((literal) => `${relative(root, file)}: ${literal}`));
    assert.deepEqual(naming, []);
  });

  it('the e2e run fails when its tests wrote into docs/, also the same bytes again (scripts/lib/fileFingerprints.js)', () => {
    const { fingerprints, changedFiles } = require(join(root, 'scripts', 'lib', 'fileFingerprints.js')) as {
      fingerprints(dir: string): Map<string, string>;
      changedFiles(before: Map<string, string>, after: Map<string, string>): string[];
    };
    const dir = mkdtempSync(join(tmpdir(), 'fingerprints-'));
    try {
      mkdirSync(join(dir, 'screenshots'));
      for (const name of ['a.png', 'b.png', 'c.png']) {
        writeFileSync(join(dir, 'screenshots', name), name);
        utimesSync(join(dir, 'screenshots', name), new Date(2020, 0, 1), new Date(2020, 0, 1));
      }
      const before = fingerprints(dir);
      assert.equal(before.size, 3);
      assert.deepEqual(changedFiles(before, fingerprints(dir)), [], 'read, not written');
      writeFileSync(join(dir, 'screenshots', 'a.png'), 'a.png'); // the same bytes, as a copy of an unchanged shot
      rmSync(join(dir, 'screenshots', 'b.png'));
      writeFileSync(join(dir, 'new.md'), 'x');
      assert.deepEqual(changedFiles(before, fingerprints(dir)), ['new.md', join('screenshots', 'a.png'), join('screenshots', 'b.png')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the table of npm run screenshots covers every documented screenshot, each from a shot the e2e tests take', () => {
    const { SCREENSHOTS } = script();
    const documented = readdirSync(join(root, 'docs', 'screenshots'))
      .filter((name) => name.endsWith('.png'))
      .sort();
    assert.deepEqual(SCREENSHOTS.map((entry) => entry.doc).sort(), documented);
    const page = readFileSync(join(root, 'docs', 'screenshots.md'), 'utf8');
    const shown = [...page.matchAll(/\]\(screenshots\/([^)]+\.png)\)/g)].map((match) => match[1]).sort();
    assert.deepEqual(shown, documented, 'docs/screenshots.md shows each of them');
    const e2e = filesBelow(join(root, 'test', 'e2e'), /\.ts$/)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const taken = new Set([...e2e.matchAll(/\b(?:shot|settledShot)\('([\w.-]+)'/g)].map((match) => match[1]));
    for (const { shot } of SCREENSHOTS) assert.ok(taken.has(shot), `the e2e tests take the shot ${shot}`);
  });

  describe('scripts/screenshots.js', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'screenshots-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('copies each shot of the run over its documented screenshot, says which changed, and leaves a missing one as it was', () => {
      const from = join(dir, 'artifacts');
      const to = join(dir, 'docs');
      mkdirSync(from);
      mkdirSync(to);
      const { SCREENSHOTS, refreshScreenshots } = script();
      const [changed, same, missing] = SCREENSHOTS;
      for (const entry of SCREENSHOTS) writeFileSync(join(to, entry.doc), 'old');
      writeFileSync(join(from, `${changed.shot}.png`), 'new');
      writeFileSync(join(from, `${same.shot}.png`), 'old');
      const kept = join(to, same.doc);
      utimesSync(kept, new Date(2020, 0, 1), new Date(2020, 0, 1));
      const lines: string[] = [];
      const result = refreshScreenshots({ from, to, log: (line) => lines.push(line) });
      assert.deepEqual(result.updated, [changed.doc]);
      assert.deepEqual(result.unchanged, [same.doc]);
      assert.ok(result.missing.includes(missing.doc) && result.missing.length === SCREENSHOTS.length - 2);
      assert.equal(readFileSync(join(to, changed.doc), 'utf8'), 'new');
      assert.equal(readFileSync(join(to, missing.doc), 'utf8'), 'old');
      assert.equal(statSync(kept).mtime.getFullYear(), 2020, 'an unchanged screenshot is not rewritten');
      assert.ok(
        lines.some((line) => line.includes(changed.doc) && line.includes('updated')),
        lines.join('\n'),
      );
      assert.ok(
        lines.some((line) => line.includes(missing.doc) && line.includes(`${missing.shot}.png`)),
        lines.join('\n'),
      );
    });
  });
});
