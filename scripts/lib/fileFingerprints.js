// Fingerprints of the files below a folder, to tell whether a run wrote into it: the e2e step
// (scripts/e2e.js) takes them of docs/ before its tests and compares after, since a test run must
// leave the tracked documentation as it was (its screenshots go to artifacts/; `npm run
// screenshots` copies them into docs/ when a person decides to). The modification time is part of
// a fingerprint, so a file written again with the same bytes counts as written.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

/** Relative path → size, modification time and content hash of every file below `dir`. */
function fingerprints(dir, below = '') {
  const found = new Map();
  let entries;
  try {
    entries = fs.readdirSync(path.join(dir, below), { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return found;
    throw error;
  }
  for (const entry of entries) {
    const relative = path.join(below, entry.name);
    const full = path.join(dir, relative);
    if (entry.isDirectory()) {
      for (const [name, print] of fingerprints(dir, relative)) found.set(name, print);
    } else if (entry.isFile()) {
      const stats = fs.statSync(full);
      const hash = crypto.createHash('sha1').update(fs.readFileSync(full)).digest('hex');
      found.set(relative, `${stats.size} ${stats.mtimeMs} ${hash}`);
    }
  }
  return found;
}

/** Files written, added or removed between two fingerprints, sorted. */
function changedFiles(before, after) {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

module.exports = { fingerprints, changedFiles };
