// package.json names its texts for people (command titles, settings' descriptions, views, welcome
// views, the walkthrough) as "%key%"; VS Code fills each such string in, wherever it stands in the
// manifest, from package.nls.json (English) or package.nls.<language>.json, a key that file lacks
// from package.nls.json (replaceNLStrings in VS Code's extensionNls.ts). Scripts and tests that read
// those texts read the manifest as VS Code shows it, through readManifest.
const fs = require('fs');
const path = require('path');

const NLS = /^package\.nls\.([^.]+)\.json$/;

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** The "%key%" string's key, or undefined for any other value. */
function nlsKey(value) {
  return typeof value === 'string' && value.length > 2 && value.startsWith('%') && value.endsWith('%') ? value.slice(1, -1) : undefined;
}

/**
 * A copy of `manifest` with every "%key%" string replaced from `messages`, else from `fallback`
 * (a key neither has stays "%key%", as VS Code leaves it).
 */
function localizeManifest(manifest, messages, fallback = {}) {
  const text = (entry) => (typeof entry === 'object' && entry !== null ? entry.message : entry);
  const visit = (value) => {
    const key = nlsKey(value);
    if (key !== undefined) return text(messages[key]) ?? text(fallback[key]) ?? value;
    if (Array.isArray(value)) return value.map(visit);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v)]));
    return value;
  };
  return visit(manifest);
}

/** Every "%key%" package.json names, in the order it names them. */
function manifestKeys(manifest) {
  const keys = [];
  const visit = (value) => {
    const key = nlsKey(value);
    if (key !== undefined) keys.push(key);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(manifest);
  return keys;
}

/** The languages package.nls.<language>.json translates the manifest into ('de', …). */
function manifestLanguages(root) {
  return fs
    .readdirSync(root)
    .flatMap((name) => NLS.exec(name)?.[1] ?? [])
    .sort();
}

/**
 * package.json as VS Code shows it in `language` (English without one). Throws when package.json
 * names a key package.nls.json does not have: there is no English for it.
 */
function readManifest(root, language) {
  const raw = readJson(path.join(root, 'package.json'));
  const english = readJson(path.join(root, 'package.nls.json'));
  const missing = manifestKeys(raw).filter((key) => !(key in english));
  if (missing.length) throw new Error(`package.json names keys that package.nls.json does not have: ${missing.join(', ')}`);
  const messages = language ? readJson(path.join(root, `package.nls.${language}.json`)) : english;
  return localizeManifest(raw, messages, english);
}

module.exports = { localizeManifest, manifestKeys, manifestLanguages, readManifest };
