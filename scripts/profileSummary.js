// Summarises V8 CPU profiles (.cpuprofile, as bench/cpuProfile.ts writes them): where the samples'
// time went by function, by file and, for a bundle built with a source map next to it
// (SPOT_BUILD_SOURCEMAP=1 node esbuild.js --production), by the source module each function came from.
// Usage: node scripts/profileSummary.js [--top N] FILE.cpuprofile...
const fs = require('fs');
const path = require('path');
const { fileURLToPath } = require('url');

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A source map's "mappings" as, per generated line, [column, source index] pairs in column order. */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segments = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      segments.push([column, source]);
    }
    lines.push(segments);
  }
  return lines;
}

const maps = new Map();
/** The source module of a bundle's position, when the bundle has a map beside it. */
function sourceOf(url, line, column) {
  if (!url.startsWith('file://')) return undefined;
  const file = fileURLToPath(url);
  if (!maps.has(file)) {
    let map;
    try {
      const raw = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'));
      map = { sources: raw.sources, lines: decodeMappings(raw.mappings) };
    } catch {
      map = undefined;
    }
    maps.set(file, map);
  }
  const map = maps.get(file);
  const segments = map?.lines[line];
  if (!segments?.length) return undefined;
  let found = segments[0];
  for (const segment of segments) {
    if (segment[0] > column) break;
    found = segment;
  }
  return map.sources[found[1]].replace(/^(\.\.\/)+/, '');
}

function summarise(file, top) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byFile = new Map();
  const byModule = new Map();
  const add = (table, key, ms) => table.set(key, (table.get(key) ?? 0) + ms);
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (!ms) continue;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const where = url ? path.basename(url) : '';
    add(byFunction, `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}:${columnNumber + 1}`, ms);
    add(byFile, url || functionName, ms);
    add(byModule, sourceOf(url, lineNumber, columnNumber) ?? (url ? path.basename(url) : functionName), ms);
  }
  const print = (title, table) => {
    console.log(`  ${title}`);
    for (const [key, ms] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${key}`);
  };
  console.log(`${file}: ${total.toFixed(1)} ms sampled`);
  print('self time by source module', byModule);
  print('self time by file', byFile);
  print('self time by function', byFunction);
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
if (!args.length) {
  console.error('usage: node scripts/profileSummary.js [--top N] FILE.cpuprofile...');
  process.exit(2);
}
for (const file of args) summarise(file, top);
