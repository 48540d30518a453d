// What dist/extension.js, the bundle every activation compiles, carries of the Galleries view: the
// view's names, its store and the stand-ins registered at activation (galleriesViewShell.ts), not
// the view's code (tree, rows, cache, media files, reordering), which dist/features.js has; and of
// the tables' editor features, the stand-ins and what says a document is a table (the checks,
// CodeLens, hovers and sheet views are in dist/features.js). Read
// from the list of modules the bundle shares with the lazily loaded ones (esbuild.js), which names
// every module it has, in a development build as in a production one. The bundles are the ones in
// dist/ (npm test builds them before the unit tests).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIST = join(__dirname, '..', '..', '..', 'dist');
const modulesOf = (bundle: string, folder: string): string[] =>
  [...new Set(readFileSync(join(DIST, bundle), 'utf8').match(new RegExp(`"${folder}/[^"]+\\.ts"`, 'g')) ?? [])]
    .map((name) => JSON.parse(name) as string)
    .sort();

describe("the Galleries view's code", () => {
  it('is not in dist/extension.js: activation has its names, its store and the stand-ins only', () => {
    assert.deepEqual(modulesOf('extension.js', 'src/extension/galleries'), [
      'src/extension/galleries/galleriesViewShell.ts',
      'src/extension/galleries/galleryStore.ts',
      'src/extension/galleries/viewIds.ts',
    ]);
  });

  it('is in dist/features.js, with the builder the stand-ins load', () => {
    const features = readFileSync(join(DIST, 'features.js'), 'utf8');
    for (const module of ['galleriesTreeProvider.ts', 'buildGalleriesView.ts', 'galleryCache.ts', 'media/mediaFileSystem.ts'])
      assert.ok(features.includes(`src/extension/galleries/${module}`), module);
    assert.match(features, /buildGalleriesView/);
  });
});

describe("the tables' editor features", () => {
  it('are not in dist/extension.js: activation has the stand-ins and what names a table, a mapping, a preview and a sheet view', () => {
    assert.deepEqual(modulesOf('extension.js', 'src/extension/tables'), [
      'src/extension/tables/registerTables.ts',
      'src/extension/tables/sheetViewUri.ts',
      'src/extension/tables/tableUris.ts',
    ]);
  });

  it('are in dist/features.js, with the builder the stand-ins load', () => {
    const features = readFileSync(join(DIST, 'features.js'), 'utf8');
    for (const module of ['tableChecks.ts', 'tableCodeLens.ts', 'tableHovers.ts', 'rowPreviews.ts', 'sheetViews.ts', 'buildTables.ts'])
      assert.ok(features.includes(`src/extension/tables/${module}`), module);
    assert.match(features, /buildTables/);
  });
});
