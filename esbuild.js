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
const SHIPPED = ['dist/extension.js', 'dist/features.js', 'dist/core.js', 'dist/rows.js', 'dist/sandbox.js'];

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
    build.onResolve({ filter: /^\.\/(core|sandbox|features|extension|rows)\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}`) ? undefined : { path: args.path, external: true },
    );
  },
};

// A bundle loaded lazily by another must not carry second copies of what that one has: module
// state (the loaded core, caches) and instanceof checks (tree nodes, cancellation, the core's
// errors) must be the ones already made. So the host bundle also exports the namespace of each of
// our modules it bundles, and the lazy bundle takes those from it: it bundles only what the host
// does not have. Two such pairs: dist/features.js (the command handlers, src/features.ts) takes
// from dist/extension.js; dist/rows.js (rows of tables as spots: src/core/rows) and dist/sandbox.js
// (the local sandbox, which checks documents with the core's rules) from dist/core.js.
// Which modules a host has is learnt from a first build of it.
const EXTENSION_ENTRY = 'src/extension.ts';
const CORE_ENTRY = 'src/core/index.ts';
const ROWS_ENTRY = 'src/core/rows/index.ts';
const SANDBOX_ENTRY = 'src/sandbox/index.ts';
const SHARED_EXPORT = '__sharedModules';

async function modulesOf(entry) {
  return Object.keys((await metafileOf(entry)).inputs).filter((input) => input.startsWith('src/') && input !== entry);
}

async function metafileOf(entry) {
  const result = await esbuild.build({
    ...common,
    entryPoints: [entry],
    absWorkingDir: __dirname,
    write: false,
    metafile: true,
    minify: false,
    sourcemap: false,
    logLevel: 'silent',
    plugins: [...common.plugins, lazyBundles],
  });
  return result.metafile;
}

/**
 * The modules of `host` a lazy bundle under `folder` imports straight from its own files: only
 * those are exposed by the host, so the host's other modules keep esbuild's tree shaking (a
 * namespace exported whole keeps every export of its module).
 */
// zod as the core uses it re-exports zod/mini whole, which carries every locale: shared, the
// core would keep them all. The lazy bundle takes its own small copy (its locale set up the same way).
const NOT_SHARED = new Set(['src/core/api/zod.ts']);

async function boundaryOf(lazyEntry, folder, hostModules) {
  const hosted = new Set(hostModules);
  const metafile = await metafileOf(lazyEntry);
  const boundary = new Set();
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    if (!input.startsWith(folder)) continue;
    for (const imported of imports) if (hosted.has(imported.path) && !imported.path.startsWith(folder) && !NOT_SHARED.has(imported.path)) boundary.add(imported.path);
  }
  return [...boundary];
}

/** The core's modules that dist/rows.js and dist/sandbox.js take from dist/core.js. */
async function coreBoundary() {
  const coreModules = await modulesOf(CORE_ENTRY);
  const [rows, sandbox] = await Promise.all([boundaryOf(ROWS_ENTRY, 'src/core/rows/', coreModules), boundaryOf(SANDBOX_ENTRY, 'src/sandbox/', coreModules)]);
  return [...new Set([...rows, ...sandbox])];
}

/** A host bundle: `entry` plus the namespaces of its modules, for the bundle that shares them. */
function exposeModules(entry, shared) {
  return {
    name: 'expose-modules',
    setup(build) {
      build.onResolve({ filter: /^spot-host-/ }, (args) => ({ path: args.path, namespace: 'spot-entry' }));
      build.onLoad({ filter: /.*/, namespace: 'spot-entry' }, () => ({
        contents: [
          `export * from './${entry}';`,
          ...shared.map((input, i) => `import * as m${i} from './${input}';`),
          `export const ${SHARED_EXPORT} = {${shared.map((input, i) => `${JSON.stringify(input)}: m${i}`).join(', ')}};`,
        ].join('\n'),
        loader: 'ts',
        resolveDir: __dirname,
      }));
    },
  };
}

/** A lazy bundle: every import of a module the host has is that module, from the host (`./extension.js`, `./core.js`). */
function shareWith(host, shared) {
  const sharedSet = new Set(shared.map((input) => path.resolve(__dirname, input)));
  return {
    name: 'share-with-host',
    setup(build) {
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.pluginData?.fromShare || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { fromShare: true } });
        if (resolved.errors.length > 0 || !sharedSet.has(resolved.path)) return undefined;
        return { path: path.relative(__dirname, resolved.path).split(path.sep).join('/'), namespace: 'from-host' };
      });
      build.onLoad({ filter: /.*/, namespace: 'from-host' }, (args) => ({
        contents: `module.exports = require('${host}').${SHARED_EXPORT}[${JSON.stringify(args.path)}];`,
        loader: 'js',
        resolveDir: __dirname,
      }));
    },
  };
}

const entries = [
  { in: `spot-host-${EXTENSION_ENTRY}`, out: 'dist/extension.js', exposes: EXTENSION_ENTRY },
  { in: 'src/features.ts', out: 'dist/features.js', shares: { host: './extension.js', entry: EXTENSION_ENTRY } },
  { in: `spot-host-${CORE_ENTRY}`, out: 'dist/core.js', exposes: CORE_ENTRY },
  { in: ROWS_ENTRY, out: 'dist/rows.js', shares: { host: './core.js', entry: CORE_ENTRY } },
  { in: SANDBOX_ENTRY, out: 'dist/sandbox.js', shares: { host: './core.js', entry: CORE_ENTRY } },
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
  const result = await esbuild.build({
    ...common,
    entryPoints: [source],
    write: false,
    sourcemap: false,
    minify: false,
    logLevel: 'warning',
  });
  const generator = new (require('module'))(path.resolve(__dirname, 'schemas/.generator.js'));
  generator.paths = require('module')._nodeModulePaths(__dirname);
  generator._compile(result.outputFiles[0].text, generator.id);
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
  // In watch mode this is learnt once: restart the watch after moving a module between the two.
  const sharedOf = {
    [EXTENSION_ENTRY]: await modulesOf(EXTENSION_ENTRY),
    // dist/rows.js and dist/sandbox.js need few of the core's modules: only those are shared (see boundaryOf).
    [CORE_ENTRY]: await coreBoundary(),
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
          ...common.plugins,
          lazyBundles,
          ...(entry.exposes === CORE_ENTRY ? [schemaPlugin] : []),
          ...(entry.exposes ? [exposeModules(entry.exposes, sharedOf[entry.exposes])] : []),
          ...(entry.shares ? [shareWith(entry.shares.host, sharedOf[entry.shares.entry])] : []),
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
