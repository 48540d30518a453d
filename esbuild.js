// Builds every entry point into dist/ and writes the editor JSON Schema into schemas/.
// The extension bundle stays small: network code, schemas and the sandbox are separate bundles
// that the extension loads with require() on first use (they are external to extension.js).
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const quiet = process.argv.includes('--quiet');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: quiet ? 'warning' : 'info',
  // Bundles that the extension loads lazily: keep them out of extension.js.
  external: ['vscode', './core.js', './sandbox.js'],
};

const entries = [
  { in: 'src/extension.ts', out: 'dist/extension.js' },
  { in: 'src/core/index.ts', out: 'dist/core.js' },
  { in: 'src/sandbox/index.ts', out: 'dist/sandbox.js' },
  { in: 'src/sandbox/cli.ts', out: 'dist/sandboxCli.js' },
  { in: 'src/cli/importExamples.ts', out: 'dist/importExamples.js' },
  { in: 'bench/run.ts', out: 'dist/bench/run.js' },
].filter((entry) => fs.existsSync(entry.in));

function writeJsonSchema() {
  // dist/core.js holds the zod source of truth; the schema file is derived from it.
  const corePath = path.resolve(__dirname, 'dist/core.js');
  delete require.cache[corePath];
  const core = require(corePath);
  const target = path.resolve(__dirname, 'schemas/spot-document.schema.json');
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, JSON.stringify(core.spotDocumentJsonSchema(), null, 2) + '\n');
}

const schemaPlugin = {
  name: 'write-json-schema',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length === 0) writeJsonSchema();
    });
  },
};

async function main() {
  const contexts = await Promise.all(
    entries.map((entry) =>
      esbuild.context({
        ...common,
        entryPoints: [entry.in],
        outfile: entry.out,
        plugins: entry.in === 'src/core/index.ts' ? [schemaPlugin] : [],
      }),
    ),
  );
  if (watch) {
    await Promise.all(contexts.map((context) => context.watch()));
    return;
  }
  await Promise.all(contexts.map((context) => context.rebuild()));
  await Promise.all(contexts.map((context) => context.dispose()));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
