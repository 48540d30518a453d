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

/** What activation keeps of a feature built on first need, and the modules and builder dist/features.js has of it. */
const LAZY_FEATURES = [
  {
    feature: "the Galleries view's code",
    folder: 'src/extension/galleries',
    atActivation: ['galleriesViewShell.ts', 'galleryStore.ts', 'viewIds.ts'],
    inFeatures: ['galleriesTreeProvider.ts', 'buildGalleriesView.ts', 'galleryCache.ts', 'media/mediaFileSystem.ts'],
    builder: 'buildGalleriesView',
  },
  {
    feature: "the tables' editor features (activation names tables, mappings, previews and sheet views)",
    folder: 'src/extension/tables',
    atActivation: ['registerTables.ts', 'sheetViewUri.ts', 'tableUris.ts'],
    inFeatures: ['tableChecks.ts', 'tableCodeLens.ts', 'tableHovers.ts', 'rowPreviews.ts', 'sheetViews.ts', 'buildTables.ts'],
    builder: 'buildTables',
  },
];

for (const { feature, folder, atActivation, inFeatures, builder } of LAZY_FEATURES) {
  describe(feature, () => {
    it('is not in dist/extension.js: activation has the stand-ins and the names they need only', () => {
      assert.deepEqual(
        modulesOf('extension.js', folder),
        atActivation.map((module) => `${folder}/${module}`),
      );
    });

    it('is in dist/features.js, with the builder the stand-ins load', () => {
      const features = readFileSync(join(DIST, 'features.js'), 'utf8');
      for (const module of inFeatures) assert.ok(features.includes(`${folder}/${module}`), module);
      // The entry's export of the builder (its module's name is in the bundle whether or not it is exported).
      assert.match(features, new RegExp(`\\b${builder}:\\s*\\(\\)\\s*=>`));
    });
  });
}
