#!/usr/bin/env node
// The translations, checked both ways (npm test's "l10n" step; rules in docs/l10n.md):
// - every string the code localises (vscode.l10n.t in the extension, l10n.t from
//   src/core/text/l10n.ts in the core), found as @vscode/l10n-dev's export finds them
//   (scripts/lib/l10nStrings.js), has a translation in
//   every l10n/bundle.l10n.<language>.json, and no bundle keeps one that nothing uses;
// - every "%key%" of package.json is in package.nls.json and every package.nls.<language>.json,
//   and no nls file has keys the manifest does not use;
// - each translation has the placeholders ({0}, {name}) of its English, no more, no fewer;
// - the message of every l10n.t call is a literal: no check can see a variable, so a computed
//   message would never be translated and nothing else would notice.
const fs = require('fs');
const path = require('path');
const { manifestKeys } = require('./manifestText');
const { l10nStrings } = require('./lib/l10nStrings');

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

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
}

/** Every problem of the translations under `root` (a checkout of this repository, or a test's fixture). */
async function checkL10n(root = defaultRoot) {
  const problems = [];
  const english = {};
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const name = path.relative(root, file);
    const { strings, computed } = l10nStrings(name, fs.readFileSync(file, 'utf8'));
    Object.assign(english, strings);
    for (const line of computed)
      problems.push(`${name}:${line}: the message of l10n.t must be a literal (with {0} placeholders), so it can be found and translated`);
  }

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

module.exports = { checkL10n, compareTranslations, placeholders };

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
