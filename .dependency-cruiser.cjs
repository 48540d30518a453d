// The import graph of src/, checked in lint (`npm run lint:imports`): the three products and the
// core they share, with no circle between modules and none between folders. eslint keeps VS Code
// out of src/core and src/sandbox (eslint.config.mjs); these rules are about the shape.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Two modules that import each other (type-only imports included) cannot be read, tested or bundled one without the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-circles',
      severity: 'error',
      comment: 'A folder that imports one that imports it back is one folder in two places: move the shared part, or turn one tie around.',
      scope: 'folder',
      // Not yet the extension's feature folders: each takes the command services' type from
      // src/extension/commands, which names a type of each feature (see CONTRIBUTING).
      from: { path: '^src/(core|cli|sandbox)/' },
      to: { circular: true },
    },
    {
      name: 'core-is-shared',
      severity: 'error',
      comment: 'src/core is what the products share: it knows none of them.',
      from: { path: '^src/core/' },
      to: { path: '^src/(cli|extension|sandbox)/' },
    },
    {
      name: 'sandbox-knows-only-core',
      severity: 'error',
      comment: 'The sandbox is a product of its own (the loopback service): it takes the core, nothing of the editor or the command line.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/(cli|extension)/' },
    },
    {
      name: 'cli-and-extension-apart',
      severity: 'error',
      comment: 'The command line and the extension share only the core (and the sandbox they both start).',
      from: { path: '^src/(cli|extension)/' },
      to: { path: '^src/(cli|extension)/', pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/extension/map/webview/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
