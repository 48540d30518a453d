// VS Code answers each require('vscode') through its loader hook, which looks up the requiring
// file's real path on disk: a bundle asks once (esbuild.js, oneVscodeRequire), however many of its
// files import the API. The bundles are the ones in dist/ (npm test builds them before the unit tests).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIST = join(__dirname, '..', '..', '..', 'dist');

describe("the bundles' require('vscode')", () => {
  it('is made once in each bundle that uses the API, the one the extension host loads at activation included', () => {
    const counts = Object.fromEntries(
      readdirSync(DIST)
        .filter((name) => name.endsWith('.js'))
        .map((name) => [name, readFileSync(join(DIST, name), 'utf8').match(/require\(["']vscode["']\)/g)?.length ?? 0])
        .filter(([, count]) => count !== 0),
    );
    assert.ok(counts['extension.js'], 'dist/extension.js uses the API');
    assert.deepEqual(
      Object.entries(counts).filter(([, count]) => count !== 1),
      [],
    );
    // The command line, the core's and the sandbox's bundles and the webview pages never ask for it.
    for (const name of ['cli.js', 'core.js', 'coreRest.js', 'rows.js', 'sandbox.js', 'mapView.js', 'grid.js']) assert.equal(counts[name], undefined, name);
  });
});
