#!/usr/bin/env node
// Fails when a command contributed in package.json is not registered in code, or a registered one
// is not contributed. Registered = the string keys 'spotImport.…' of the command tables
// (src/commands/registerCommands.ts, src/commands/gallery/index.ts, src/walkthrough/commands.ts) plus any literal
// registerCommand('spotImport.…') elsewhere in src/. Test-only commands (spotImport.test.*) are
// exempt. Menus may only name contributed commands. (The integration suite checks the same at
// run time with vscode.commands.getCommands.)
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const TABLE_FILES = ['src/commands/registerCommands.ts', 'src/commands/gallery/index.ts', 'src/walkthrough/commands.ts'];
const PREFIX = 'spotImport.';
const EXEMPT = /^spotImport\.test\./;

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Map of registered id -> files that register it. */
function registeredCommands() {
  const found = new Map();
  const add = (id, file) => {
    if (EXEMPT.test(id)) return;
    if (!found.has(id)) found.set(id, new Set());
    found.get(id).add(path.relative(root, file));
  };
  for (const rel of TABLE_FILES) {
    const file = path.join(root, rel);
    if (!fs.existsSync(file)) continue;
    const text = withoutComments(fs.readFileSync(file, 'utf8'));
    // Table entries: 'spotImport.x': handler  (or "…" / [`…`] keys)
    for (const match of text.matchAll(/['"`](spotImport\.[\w.-]+)['"`]\s*\]?\s*:/g)) add(match[1], file);
  }
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const text = withoutComments(fs.readFileSync(file, 'utf8'));
    for (const match of text.matchAll(/register(?:TextEditor)?Command\(\s*['"`](spotImport\.[\w.-]+)['"`]/g)) add(match[1], file);
  }
  return found;
}

function main() {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const contributes = manifest.contributes ?? {};
  const contributed = new Set((contributes.commands ?? []).map((c) => c.command));
  const registered = registeredCommands();
  const problems = [];

  for (const id of contributed) {
    if (!id.startsWith(PREFIX)) problems.push(`contributed command "${id}" does not start with ${PREFIX}`);
    else if (!registered.has(id)) problems.push(`contributed but not registered: ${id}`);
  }
  for (const [id, files] of registered) {
    if (!contributed.has(id)) problems.push(`registered but not contributed: ${id} (${[...files].join(', ')})`);
  }
  for (const [menu, items] of Object.entries(contributes.menus ?? {})) {
    for (const item of items) {
      if (item.command && item.command.startsWith(PREFIX) && !contributed.has(item.command)) {
        problems.push(`menu "${menu}" names a command that is not contributed: ${item.command}`);
      }
    }
  }
  const seen = new Set();
  for (const c of contributes.commands ?? []) {
    if (seen.has(c.command)) problems.push(`contributed twice: ${c.command}`);
    seen.add(c.command);
  }

  if (contributed.size === 0 && registered.size === 0) problems.push('no commands found at all (package.json contributes.commands and the command tables are empty)');
  if (problems.length) {
    for (const problem of problems) console.error(`  ✗ ${problem}`);
    console.error(`check-commands: ${problems.length} problem(s); ${contributed.size} contributed, ${registered.size} registered`);
    process.exit(1);
  }
  console.log(`check-commands: ${contributed.size} contributed commands, all registered; ${registered.size} registered, all contributed`);
}

main();
