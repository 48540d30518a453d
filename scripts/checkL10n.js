#!/usr/bin/env node
// The translations, checked both ways (npm test's "l10n" step; rules in docs/l10n.md):
// - every string the code localises (vscode.l10n.t in the extension, l10n.t from
//   src/core/text/l10n.ts in the core), as @vscode/l10n-dev exports it, has a translation in
//   every l10n/bundle.l10n.<language>.json, and no bundle keeps one that nothing uses;
// - every "%key%" of package.json is in package.nls.json and every package.nls.<language>.json,
//   and no nls file has keys the manifest does not use;
// - each translation has the placeholders ({0}, {name}) of its English, no more, no fewer;
// - the message of every l10n.t call is a literal: the export cannot see a variable, so a
//   computed message would never be translated and nothing else would notice.
const fs = require('fs');
const path = require('path');
const { manifestKeys } = require('./manifestText');

const defaultRoot = path.resolve(__dirname, '..');

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `{0}`, `{name}`: the placeholders @vscode/l10n fills, sorted, each once. */
function placeholders(text) {
  return [...new Set([...text.matchAll(/\{([^{}\s]+)\}/g)].map((match) => match[1]))].sort();
}

const messageOf = (value) => (typeof value === 'string' ? value : value.message);

/** Problems between the English (key → English message) and one translation (key → text). */
function compareTranslations(english, translated, where) {
  const problems = [];
  for (const [key, value] of Object.entries(english)) {
    if (!(key in translated)) {
      problems.push(`${where}: no translation of ${JSON.stringify(key)}`);
      continue;
    }
    const text = messageOf(translated[key]);
    if (typeof text !== 'string' || text.trim() === '') {
      problems.push(`${where}: the translation of ${JSON.stringify(key)} is empty`);
      continue;
    }
    const want = placeholders(messageOf(value));
    const have = placeholders(text);
    if (want.join() !== have.join()) {
      problems.push(`${where}: ${JSON.stringify(key)} has placeholders {${want.join('}, {')}} but its translation {${have.join('}, {')}}`);
    }
  }
  for (const key of Object.keys(translated)) {
    if (!(key in english)) problems.push(`${where}: ${JSON.stringify(key)} is translated but nothing uses it`);
  }
  return problems;
}

/**
 * The text with its comments blanked out (line numbers kept): an example in a comment is no call.
 * Strings are skipped whole, so "https://…" or "{1}//{2}" in one is not taken for a comment
 * (a template literal's `${…}` counts as part of its string: a comment inside one is not seen).
 */
function blankComments(text) {
  let out = '';
  let i = 0;
  const blank = (from, to) => text.slice(from, to).replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const to = end === -1 ? text.length : end;
      out += blank(i, to);
      i = to;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const to = end === -1 ? text.length : end + 2;
      out += blank(i, to);
      i = to;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && (c === '`' || text[j] !== '\n')) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** l10n.t / vscode.l10n.t calls whose message is not a literal (string or { message: literal }). */
function computedMessages(file, text) {
  const problems = [];
  const call = /\bl10n\.t\(\s*/g;
  for (let match; (match = call.exec(text));) {
    const rest = text.slice(match.index + match[0].length);
    const literal = /^(['"])(?:\\.|(?!\1)[^\\\n])*\1\s*[,)]/.test(rest) || /^`[^`$]*`\s*[,)]/.test(rest) || /^\{\s*message:\s*(['"`])/.test(rest);
    if (!literal) {
      const line = text.slice(0, match.index).split('\n').length;
      problems.push(`${file}:${line}: the message of l10n.t must be a literal (with {0} placeholders), so it can be found and translated`);
    }
  }
  return problems;
}

/**
 * The core imports `l10n` from src/core/text/l10n.ts (which hands it the extension's bundle), and
 * the export recognises only `l10n` imported from 'vscode' or '@vscode/l10n': shown that import
 * instead (the module's other names, e.g. formatDecimal, imported beside it), it finds the core's
 * calls as it finds the extension's.
 */
function asExportSees(text) {
  return text.replace(/import\s*\{([^}]*)\}\s*from\s*('[^']*\/text\/l10n')/g, (whole, names, from) => {
    const list = names
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (!list.includes('l10n')) return whole;
    const others = list.filter((name) => name !== 'l10n');
    // As many lines as the import had: the line numbers of the problems stay right.
    const lines = '\n'.repeat(whole.split('\n').length - 1);
    return `import * as l10n from '@vscode/l10n';${others.length > 0 ? ` import { ${others.join(', ')} } from ${from};` : ''}${lines}`;
  });
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
}

/** Every problem of the translations under `root` (a checkout of this repository, or a test's fixture). */
async function checkL10n(root = defaultRoot) {
  const { getL10nJson } = require('@vscode/l10n-dev');
  const problems = [];
  const files = sourceFiles(path.join(root, 'src'));
  const contents = files.map((file) => ({ file: path.relative(root, file), contents: fs.readFileSync(file, 'utf8') }));
  for (const { file, contents: text } of contents) problems.push(...computedMessages(file, blankComments(text)));
  const english = await getL10nJson(contents.map(({ contents: text }) => ({ contents: asExportSees(text), extension: '.ts' })));

  const bundleDir = path.join(root, 'l10n');
  const bundles = fs.existsSync(bundleDir) ? fs.readdirSync(bundleDir).filter((name) => /^bundle\.l10n\.[a-z-]+\.json$/i.test(name)) : [];
  if (Object.keys(english).length > 0 && bundles.length === 0) problems.push("l10n/: no bundle.l10n.<language>.json translates the code's strings");
  for (const name of bundles) problems.push(...compareTranslations(english, readJson(path.join(bundleDir, name)), `l10n/${name}`));

  const manifest = readJson(path.join(root, 'package.json'));
  const used = new Set(manifestKeys(manifest));
  const nlsNames = fs.readdirSync(root).filter((name) => /^package\.nls(\.[a-z-]+)?\.json$/i.test(name));
  if (used.size > 0 && !nlsNames.includes('package.nls.json')) problems.push('package.nls.json: missing, and package.json names %keys%');
  if (nlsNames.includes('package.nls.json')) {
    const nlsEnglish = readJson(path.join(root, 'package.nls.json'));
    for (const key of used) if (!(key in nlsEnglish)) problems.push(`package.nls.json: no "${key}", which package.json names as %${key}%`);
    for (const key of Object.keys(nlsEnglish)) if (!used.has(key)) problems.push(`package.nls.json: "${key}" is not used by package.json`);
    for (const name of nlsNames.filter((other) => other !== 'package.nls.json')) {
      problems.push(...compareTranslations(nlsEnglish, readJson(path.join(root, name)), name));
    }
  }
  return { problems, strings: Object.keys(english).length, bundles, manifestKeys: used.size, nls: nlsNames };
}

module.exports = { checkL10n, blankComments, compareTranslations, computedMessages, placeholders };

if (require.main === module) {
  const root = process.argv[2] ? path.resolve(process.argv[2]) : defaultRoot;
  checkL10n(root).then(
    ({ problems, strings, bundles, manifestKeys: keys, nls }) => {
      if (problems.length > 0) {
        for (const problem of problems) console.error(problem);
        console.error(`\n${problems.length} translation problem(s). The rules: docs/l10n.md.`);
        process.exitCode = 1;
        return;
      }
      console.log(
        `translations complete: ${strings} strings of the code in ${bundles.join(', ') || 'no bundle'}; ${keys} manifest keys in ${nls.join(', ') || 'no nls file'}`,
      );
    },
    (error) => {
      console.error(`scripts/checkL10n.js failed: ${error.stack ?? error}`);
      process.exitCode = 1;
    },
  );
}
