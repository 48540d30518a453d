// Builds every entry point into dist/ and writes the editor JSON Schema into schemas/.
// The extension bundle stays small: network code, schemas, the sandbox and the command handlers
// (features.js) are separate bundles that the extension loads with require() on first use (they
// are external to extension.js).
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

// `npm pack` runs the prepare script (a plain build) last: what it packs is built for production.
const production = process.argv.includes('--production') || ['pack', 'publish'].includes(process.env.npm_command);
const watch = process.argv.includes('--watch');
const quiet = process.argv.includes('--quiet');
// `node esbuild.js --production --analyze`: what each bundle the .vsix ships is made of.
const analyze = process.argv.some((arg) => arg.startsWith('--analyze'));
const SHIPPED = ['dist/extension.js', 'dist/features.js', 'dist/core.js', 'dist/coreRest.js', 'dist/rows.js', 'dist/sandbox.js', 'dist/map.js', 'dist/mapView.js'];

// Only the parts of undici the core uses (see scripts/bundle/undici.js), for every bundle.
const undiciSubset = {
  name: 'undici-subset',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: path.resolve(__dirname, 'scripts/bundle/undici.js') }));
    // undici carries its HTTP parser (llhttp, WebAssembly) twice, with and without SIMD, and
    // falls back to the plain one when the SIMD module does not load. Only the plain one ships:
    // it runs on every platform, and parsing reply headers is not where our requests spend time.
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]llhttp[\\/]llhttp_simd-wasm\.js$/ }, () => ({
      contents: "throw new Error('the SIMD build of llhttp is not bundled')",
      loader: 'js',
    }));
    // HTTP/2: undici speaks it only when a connection negotiates h2, which it offers only with
    // allowH2, and every dispatcher of the core sets it false (src/core/api/http.ts). Its HTTP/2
    // client loads node:http2 (and with it tls) when the first dispatcher is made.
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, () => ({
      contents: "module.exports = function connectH2() { throw new Error('HTTP/2 is not bundled: the core offers only HTTP/1.1 (it never sets allowH2)') }",
      loader: 'js',
    }));
  },
};

// proj4 with the projections survey tables use, and without WKT (see scripts/bundle/proj4.mjs).
const leanProj4 = {
  name: 'lean-proj4',
  setup(build) {
    build.onResolve({ filter: /^proj4$/ }, () => ({ path: path.resolve(__dirname, 'scripts/bundle/proj4.mjs') }));
    build.onResolve({ filter: /^wkt-parser$/ }, () => ({ path: path.resolve(__dirname, 'scripts/bundle/wktParser.js') }));
  },
};

// mime-types only when a type is first looked up (see scripts/bundle/mimeTypes.js).
const lazyMimeTypes = {
  name: 'lazy-mime-types',
  setup(build) {
    build.onResolve({ filter: /^mime-types$/ }, () => ({ path: path.resolve(__dirname, 'scripts/bundle/mimeTypes.js') }));
  },
};

// mime-db as mime-types reads it: the entries with file extensions or a charset, without the
// "compressible" flags (mime-types reads only extensions, charset and source). Same answers from
// lookup(), extension(), charset() and contentType(); less than half the bytes.
const slimMimeDb = {
  name: 'slim-mime-db',
  setup(build) {
    build.onLoad({ filter: /[\\/]mime-db[\\/]db\.json$/ }, async (args) => {
      const db = JSON.parse(await fs.promises.readFile(args.path, 'utf8'));
      const slim = {};
      for (const [type, { source, extensions, charset }] of Object.entries(db)) {
        if (extensions || charset) slim[type] = { source, extensions, charset };
      }
      // As a JSON.parse() of a string: quicker for V8 to load than the same object as JavaScript.
      return { contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(slim))});`, loader: 'js' };
    });
  },
};

// Each `import * as vscode from 'vscode'` becomes, in a bundle, a copy of the whole API object
// (esbuild's __toESM: a getter per property, well over a hundred), made once per importing file
// when the bundle loads. The same import as TypeScript's `import vscode = require('vscode')` is
// the API object itself, as VS Code hands it out: same values, no copies at activation.
const SOURCES = path.join(__dirname, 'src') + path.sep;
const plainVscodeImport = {
  name: 'plain-vscode-import',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(SOURCES)) return undefined;
      const text = await fs.promises.readFile(args.path, 'utf8');
      return { contents: text.replace(/^import \* as vscode from 'vscode';$/m, "import vscode = require('vscode');"), loader: 'ts' };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: quiet ? 'warning' : 'info',
  external: ['vscode'],
  // jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow; its ESM build bundles.
  mainFields: ['module', 'main'],
  plugins: [undiciSubset, leanProj4, lazyMimeTypes, slimMimeDb, plainVscodeImport],
};

// Bundles that the extension loads lazily: keep them out of extension.js. A plain `external:
// ['./core.js']` would also match zod's own internal "./core.js" imports inside node_modules and
// turn them into a require() of dist/core.js itself, so only our sources' imports are external.
const lazyBundles = {
  name: 'lazy-bundles',
  setup(build) {
    build.onResolve({ filter: /^\.\/(core|coreRest|sandbox|features|extension|rows|map)\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}`) ? undefined : { path: args.path, external: true },
    );
  },
};

// A bundle loaded lazily by another must not carry second copies of what that one has: module
// state (the loaded core, caches) and instanceof checks (tree nodes, cancellation, the core's
// errors) must be the ones already made. So a host bundle also exports the namespace of each of
// our modules it bundles that a lazy bundle imports, and the lazy bundle takes those from it: it
// bundles only what its hosts do not have. dist/features.js (the command handlers,
// src/features.ts) takes from dist/extension.js. The core is two bundles: dist/core.js
// (src/core/clientEntry.ts: the service client and what its first requests need, so the first
// network use parses and runs no more than that) and dist/coreRest.js (src/core/index.ts, the
// whole core, taking clientEntry's modules from dist/core.js: documents, topics, the import
// engine, media, uploads to galleries). dist/core.js also lists the names only dist/coreRest.js
// exports (REST_EXPORTS), so the extension's loader (src/platform/lazyCore.ts) hands out one
// namespace that loads dist/coreRest.js when one of those is first used. dist/rows.js (rows of
// tables as spots: src/core/rows) and dist/sandbox.js (the local sandbox, which checks documents
// with the core's rules) take each core module from whichever of the two has it.
// Which modules a host has is learnt from a first build of it.
const EXTENSION_ENTRY = 'src/extension.ts';
const CORE_ENTRY = 'src/core/index.ts';
const CLIENT_ENTRY = 'src/core/clientEntry.ts';
const ROWS_ENTRY = 'src/core/rows/index.ts';
const SANDBOX_ENTRY = 'src/sandbox/index.ts';
// The map (src/map): its panel and commands, loaded when a map opens; it takes the core's modules
// like dist/rows.js does, and the extension's from dist/extension.js.
const MAP_ENTRY = 'src/map/index.ts';
const SHARED_EXPORT = '__sharedModules';
const REST_EXPORTS = '__restExports';
const CORE_BUNDLE = './core.js';
const CORE_REST_BUNDLE = './coreRest.js';

/**
 * Our modules, which a host can share: the sources, and the bundles' stand-ins for undici and
 * mime-types (scripts/bundle), which hold what those load on first use.
 */
const isOurs = (input) => input.startsWith('src/') || input.startsWith('scripts/bundle/');

async function modulesOf(entry, plugins = []) {
  return Object.keys((await metafileOf(entry, plugins)).inputs).filter((input) => isOurs(input) && input !== entry);
}

async function metafileOf(entry, plugins = [], options = {}) {
  const result = await esbuild.build({
    ...common,
    ...options,
    entryPoints: [entry],
    absWorkingDir: __dirname,
    write: false,
    metafile: true,
    minify: false,
    sourcemap: false,
    logLevel: 'silent',
    // First: a shareWith() must see undici and mime-types before undiciSubset and lazyMimeTypes resolve them.
    plugins: [...plugins, ...common.plugins, lazyBundles],
  });
  return result.metafile;
}

/** The names a module exports (an ESM build of it, for esbuild's list). */
async function exportsOf(entry) {
  const metafile = await metafileOf(entry, [], { format: 'esm' });
  return Object.values(metafile.outputs).find((output) => output.entryPoint)?.exports ?? [];
}

// Modules a lazy bundle takes its own copy of rather than its host's (none today: zod.ts names
// what it exports so that its host keeps only those; see there).
const NOT_SHARED = new Set([]);

/**
 * The hosts' modules that a lazy bundle's own modules import: only those are exposed by a host,
 * so a host's other modules keep esbuild's tree shaking (a namespace exported whole keeps every
 * export of its module).
 */
async function boundaryOf(lazyEntry, hostModules) {
  const hosted = new Set(hostModules);
  const shared = (input) => hosted.has(input) && !NOT_SHARED.has(input);
  const metafile = await metafileOf(lazyEntry);
  const boundary = new Set();
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    if (!isOurs(input) || shared(input)) continue;
    for (const imported of imports) if (shared(imported.path)) boundary.add(imported.path);
  }
  return [...boundary];
}

/**
 * Which module each bundle takes from which host, and what each host exposes:
 * dist/coreRest.js from dist/core.js; dist/rows.js and dist/sandbox.js from both.
 */
async function coreSharing() {
  const clientModules = await modulesOf(CLIENT_ENTRY);
  const restFromClient = await boundaryOf(CORE_ENTRY, clientModules);
  const restHosts = new Map(restFromClient.map((input) => [input, CORE_BUNDLE]));
  // What dist/coreRest.js bundles itself: the core less what it takes from dist/core.js.
  const restModules = await modulesOf(CORE_ENTRY, [shareWith(restHosts)]);
  const hostOf = new Map([...restModules.map((input) => [input, CORE_REST_BUNDLE]), ...clientModules.map((input) => [input, CORE_BUNDLE])]);
  const lazyFromCore = await Promise.all([ROWS_ENTRY, SANDBOX_ENTRY, MAP_ENTRY].map((entry) => boundaryOf(entry, [...hostOf.keys()])));
  const lazyHosts = new Map(lazyFromCore.flat().map((input) => [input, hostOf.get(input)]));
  const exposedBy = (host) => [...lazyHosts].filter(([, of]) => of === host).map(([input]) => input);
  const [coreNames, clientNames] = await Promise.all([exportsOf(CORE_ENTRY), exportsOf(CLIENT_ENTRY)]);
  const clientNameSet = new Set(clientNames);
  return {
    client: { shared: [...new Set([...restFromClient, ...exposedBy(CORE_BUNDLE)])], restExports: coreNames.filter((name) => !clientNameSet.has(name)) },
    rest: { shared: exposedBy(CORE_REST_BUNDLE), hosts: restHosts },
    lazyHosts,
  };
}

/** A host bundle: `entry` plus the namespaces of its modules, for the bundles that share them, and any other constants. */
function exposeModules(entry, shared, constants = {}) {
  return {
    name: 'expose-modules',
    setup(build) {
      build.onResolve({ filter: /^spot-host-/ }, (args) => ({ path: args.path, namespace: 'spot-entry' }));
      build.onLoad({ filter: /.*/, namespace: 'spot-entry' }, () => ({
        contents: [
          `export * from './${entry}';`,
          ...shared.map((input, i) => `import * as m${i} from './${input}';`),
          `export const ${SHARED_EXPORT} = {${shared.map((input, i) => `${JSON.stringify(input)}: m${i}`).join(', ')}};`,
          ...Object.entries(constants).map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`),
        ].join('\n'),
        loader: 'ts',
        resolveDir: __dirname,
      }));
    },
  };
}

/** A lazy bundle: every import of a module one of its hosts has is that module, from that host (hostOf: module → `./extension.js`, `./core.js`, `./coreRest.js`). */
function shareWith(hostOf) {
  const byPath = new Map([...hostOf].map(([input, host]) => [path.resolve(__dirname, input), host]));
  return {
    name: 'share-with-host',
    setup(build) {
      // Relative imports of our sources, and undici and mime-types (resolved to scripts/bundle by the plugins above).
      build.onResolve({ filter: /^(\.|undici$|mime-types$)/ }, async (args) => {
        if (args.pluginData?.fromShare || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { fromShare: true } });
        if (resolved.errors.length > 0 || !byPath.has(resolved.path)) return undefined;
        return { path: path.relative(__dirname, resolved.path).split(path.sep).join('/'), namespace: 'from-host', pluginData: { host: byPath.get(resolved.path) } };
      });
      build.onLoad({ filter: /.*/, namespace: 'from-host' }, (args) => ({
        contents: `module.exports = require('${args.pluginData.host}').${SHARED_EXPORT}[${JSON.stringify(args.path)}];`,
        loader: 'js',
        resolveDir: __dirname,
      }));
    },
  };
}

/** A TypeScript source of ours, bundled in memory and loaded as a module (build-time generators). */
async function loadSource(source) {
  const result = await esbuild.build({ ...common, entryPoints: [source], write: false, sourcemap: false, minify: false, logLevel: 'warning' });
  const generator = new (require('module'))(path.resolve(__dirname, 'schemas/.generator.js'));
  generator.paths = require('module')._nodeModulePaths(__dirname);
  generator._compile(result.outputFiles[0].text, generator.id);
  return generator.exports;
}

// Leaflet for the map page: the parts it uses, from Leaflet's ES modules (scripts/bundle/leaflet.mjs).
const leanLeaflet = {
  name: 'lean-leaflet',
  setup(build) {
    build.onResolve({ filter: /^leaflet$/ }, () => ({ path: path.resolve(__dirname, 'scripts/bundle/leaflet.mjs') }));
  },
};

// The map's offline base: Natural Earth 1:110m land (world-atlas, public domain), turned at build
// time into the compact rings of src/core/map/outline.ts; the page imports 'spot-world-outline'.
const worldOutline = {
  name: 'world-outline',
  setup(build) {
    build.onResolve({ filter: /^spot-world-outline$/ }, (args) => ({ path: args.path, namespace: 'world-outline' }));
    build.onLoad({ filter: /.*/, namespace: 'world-outline' }, async () => {
      const { topologyToOutline } = await loadSource('src/core/map/outline.ts');
      const topology = JSON.parse(await fs.promises.readFile(require.resolve('world-atlas/land-110m.json'), 'utf8'));
      return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(topologyToOutline(topology, 'land')))});`, loader: 'js' };
    });
  },
};

// exposes: a host (its shared modules: sharing.exposes[entry.out]); shares: what it takes from which host (sharing.hosts[entry.out]).
const entries = [
  { in: `spot-host-${EXTENSION_ENTRY}`, out: 'dist/extension.js', exposes: EXTENSION_ENTRY },
  { in: 'src/features.ts', out: 'dist/features.js', shares: true },
  { in: `spot-host-${CLIENT_ENTRY}`, out: 'dist/core.js', exposes: CLIENT_ENTRY },
  { in: `spot-host-${CORE_ENTRY}`, out: 'dist/coreRest.js', exposes: CORE_ENTRY, shares: true },
  { in: ROWS_ENTRY, out: 'dist/rows.js', shares: true },
  { in: SANDBOX_ENTRY, out: 'dist/sandbox.js', shares: true },
  { in: MAP_ENTRY, out: 'dist/map.js', shares: true },
  // The map page (a webview: the browser, not Node): Leaflet, its CSS and the world outline in
  // one script and one style sheet, minified always (the .vsix budget), no source map shipped.
  {
    in: 'src/map/webview/main.ts',
    out: 'dist/mapView.js',
    options: { platform: 'browser', format: 'iife', target: 'es2020', external: [], minify: true, sourcemap: false, loader: { '.png': 'empty' } },
    plugins: [worldOutline, leanLeaflet],
  },
  { in: 'src/sandbox/cli.ts', out: 'dist/sandboxCli.js' },
  { in: 'src/cli/importExamples.ts', out: 'dist/importExamples.js' },
  // The command line: one self-contained file for node 20+ (npm pack ships it alone). No
  // external 'vscode' here, so an import of it anywhere below src/cli fails the build.
  { in: 'src/cli/main.ts', out: 'dist/cli.js', options: { banner: { js: '#!/usr/bin/env node' }, external: [] } },
  { in: 'bench/run.ts', out: 'dist/bench/run.js' },
].filter((entry) => entry.exposes || fs.existsSync(entry.in));

// The schema files are derived from the zod sources of truth. Each is bundled in memory rather
// than read back from dist/core.js, which another build running at the same time may be rewriting.
const JSON_SCHEMAS = [
  { source: 'src/core/api/jsonSchema.ts', generate: 'spotDocumentJsonSchema', target: 'schemas/spot-document.schema.json' },
  { source: 'src/core/topics/topicJsonSchema.ts', generate: 'topicDefinitionJsonSchema', target: 'schemas/topic-definition.schema.json' },
  { source: 'src/core/rows/mapping/mappingJsonSchema.ts', generate: 'mappingJsonSchema', target: 'schemas/mapping.schema.json' },
];

async function writeJsonSchemas() {
  await Promise.all(JSON_SCHEMAS.map(writeJsonSchema));
}

async function writeJsonSchema({ source, generate, target }) {
  const generator = { exports: await loadSource(source) };
  const file = path.resolve(__dirname, target);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(generator.exports[generate](), null, 2) + '\n');
}

// In watch mode the schema follows every rebuild of the core.
const schemaPlugin = {
  name: 'write-json-schema',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length === 0) writeJsonSchemas().catch((error) => console.error(error));
    });
  },
};

async function main() {
  // In watch mode this is learnt once: restart the watch after moving a module between bundles.
  const extensionModules = await modulesOf(EXTENSION_ENTRY);
  const core = await coreSharing();
  const sharing = {
    exposes: {
      'dist/extension.js': { shared: extensionModules },
      // dist/coreRest.js, dist/rows.js and dist/sandbox.js need few of the core's modules: only those are shared (see boundaryOf).
      'dist/core.js': { shared: core.client.shared, constants: { [REST_EXPORTS]: core.client.restExports } },
      'dist/coreRest.js': { shared: core.rest.shared },
    },
    hosts: {
      'dist/features.js': new Map(extensionModules.map((input) => [input, './extension.js'])),
      'dist/coreRest.js': core.rest.hosts,
      'dist/rows.js': core.lazyHosts,
      'dist/sandbox.js': core.lazyHosts,
      'dist/map.js': new Map([...extensionModules.map((input) => [input, './extension.js']), ...core.lazyHosts]),
    },
  };
  const contexts = await Promise.all(
    entries.map((entry) =>
      esbuild.context({
        ...common,
        ...entry.options,
        entryPoints: [entry.in],
        outfile: entry.out,
        metafile: analyze,
        plugins: [
          // First: it must see undici and mime-types before undiciSubset and lazyMimeTypes resolve them.
          ...(entry.shares ? [shareWith(sharing.hosts[entry.out])] : []),
          ...(entry.plugins ?? []),
          ...common.plugins,
          lazyBundles,
          ...(entry.exposes === CORE_ENTRY ? [schemaPlugin] : []),
          ...(entry.exposes ? [exposeModules(entry.exposes, sharing.exposes[entry.out].shared, sharing.exposes[entry.out].constants)] : []),
        ],
      }),
    ),
  );
  if (watch) {
    await Promise.all(contexts.map((context) => context.watch()));
    return;
  }
  const results = await Promise.all(contexts.map((context) => context.rebuild()));
  await Promise.all(contexts.map((context) => context.dispose()));
  if (analyze) {
    for (const [i, result] of results.entries()) {
      if (SHIPPED.includes(entries[i].out)) console.log(await esbuild.analyzeMetafile(result.metafile, { verbose: process.argv.includes('--analyze=verbose') }));
    }
  }
  await writeJsonSchemas();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
