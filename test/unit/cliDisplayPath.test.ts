import * as assert from 'node:assert/strict';
import { isAbsolute, relative } from 'node:path';
import { displayPath } from '../../src/cli/documents/collectDocuments';

// How the command line names a file: relative to the current folder when inside it. The usual
// case (every document of a folder walk) is worked out without path.relative; the answer must be
// the same for every path, plain or not.
describe('command line: how a path is shown', () => {
  const byRelative = (path: string, cwd: string) => {
    const inside = relative(cwd, path);
    return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
  };

  it('shows each path as path.relative would', function () {
    if (process.platform === 'win32') this.skip();
    const folders = ['/', '/work', '/work/', '/work/trails', '/work/trails/', '/work/./trails', '/work/x/../trails', 'work/trails', '/work//trails'];
    const rests = [
      'a.spot.json',
      'part-1/2.spot.json',
      '.hidden/a.json',
      '..a/b.json',
      'a/../b.json',
      './a.json',
      'a//b.json',
      'a/./b.json',
      'a/',
      '.',
      '..',
      '',
      'a/..',
      'a\\b.json',
    ];
    const paths = ['/elsewhere/a.json', '/work/trailsX/a.json', '/work/trails', '/work', '/'];
    const differing: string[] = [];
    for (const cwd of folders) {
      const candidates = [...paths, ...rests.flatMap((rest) => [`${cwd}/${rest}`, `${cwd}${rest}`, `/work/trails/${rest}`])];
      for (const path of candidates)
        if (displayPath(path, cwd) !== byRelative(path, cwd)) differing.push(`${cwd} | ${path}: ${displayPath(path, cwd)} vs ${byRelative(path, cwd)}`);
    }
    assert.deepEqual(differing, []);
    assert.equal(displayPath('/work/trails/part-1/2.spot.json', '/work/trails'), 'part-1/2.spot.json');
  });
});
