#!/usr/bin/env node
// A newcomer's walk of `spot-import import trees.csv`, counted: the project's files whose
// functions run from the command line's entry to the first import request, in the order they are
// first called; the folders they are in; and how often the walk re-enters a folder it has left. Runs the compiled sources (out/, `npm run
// compile-tests`) against the built-in sandbox, in a temporary folder.
// usage: node scripts/newcomerWalk.js [repo root, default: this one]
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
const out = path.join(root, 'out', 'src');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-walk-'));
const rows = ['KEY,species,lat,lon', 'uuid:1,Acer,48.2081,16.3738', 'uuid:2,Tilia,48.2076,16.3723'];
fs.writeFileSync(path.join(work, 'trees.csv'), rows.join('\n') + '\n');
fs.writeFileSync(path.join(work, 'trees.mapping.json'), JSON.stringify({ topic_id: 7, source_id: 'odk-{KEY}', latitude: 'lat', longitude: 'lon' }));

// Run in the child: every function the project's modules export (and the methods of the classes
// they export) notes its file the first time it is called, until the first service request.
const hook = path.join(work, 'hook.js');
fs.writeFileSync(
  hook,
  `const Module = require('module');
const fs = require('fs');
const OUT = ${JSON.stringify(out + path.sep)};
const LOG = ${JSON.stringify(path.join(work, 'walk.txt'))};
const load = Module._load;
const called = new Set();
let done = false;
function note(file, name) {
  if (done || called.has(file + ':' + name)) return;
  called.add(file + ':' + name);
  fs.appendFileSync(LOG, file.slice(OUT.length) + '\\n');
  if (name === 'ServiceClient.importSpot') done = true;
}
const WRAPPED = Symbol('walked');
function wrapped(fn, file, name) {
  if (fn[WRAPPED]) return fn;
  const wrapper = function (...args) { note(file, name); return fn.apply(this, args); };
  wrapper[WRAPPED] = true;
  return wrapper;
}
const isClass = (fn) => /^class[ {]/.test(Function.prototype.toString.call(fn));
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  let file;
  try { file = Module._resolveFilename(request, parent, isMain); } catch { return loaded; }
  // The client's side only: the built-in sandbox runs in the same process.
  if (!file.startsWith(OUT) || file.startsWith(OUT + 'sandbox') || !loaded || loaded.__walked) return loaded;
  Object.defineProperty(loaded, '__walked', { value: true });
  for (const name of Object.keys(loaded)) {
    const value = loaded[name];
    if (typeof value !== 'function') continue;
    if (isClass(value)) {
      if (value[WRAPPED]) continue;
      value[WRAPPED] = true;
      for (const method of Object.getOwnPropertyNames(value.prototype)) {
        const descriptor = Object.getOwnPropertyDescriptor(value.prototype, method);
        if (method !== 'constructor' && typeof descriptor.value === 'function') value.prototype[method] = wrapped(descriptor.value, file, name + '.' + method);
      }
      continue;
    }
    try { loaded[name] = wrapped(value, file, name); } catch {}
  }
  return loaded;
};
`,
);
const main = path.join(out, 'cli', 'main.js');
const run = spawnSync(process.execPath, ['--require', hook, main, 'import', 'trees.csv', '--sandbox', '--no-media'], { cwd: work, encoding: 'utf8' });
if (!fs.existsSync(path.join(work, 'walk.txt'))) {
  console.error(run.stdout, run.stderr);
  throw new Error('nothing was recorded: is out/ built (npm run compile-tests)?');
}
// The files in the order their functions were first called, a file repeated only when the walk comes back to it.
const walk = [];
for (const file of fs.readFileSync(path.join(work, 'walk.txt'), 'utf8').trim().split('\n')) if (walk.at(-1) !== file) walk.push(file);
const files = [...new Set(walk)];
const folders = new Set(files.map((file) => path.dirname(file)));
let reentries = 0;
const left = new Set();
let current;
for (const file of walk) {
  const folder = path.dirname(file);
  if (folder === current) continue;
  if (left.has(folder)) reentries++;
  if (current) left.add(current);
  current = folder;
}
if (process.env.WALK_DEBUG) console.error(run.stdout, run.stderr);
console.log(walk.join('\n'));
console.log(`\n${files.length} files in ${folders.size} folders, re-entering a folder ${reentries} times (${walk.length} steps)`);
fs.rmSync(work, { recursive: true, force: true });
