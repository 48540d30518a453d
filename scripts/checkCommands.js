#!/usr/bin/env node
// Command ids, checked both ways (npm test; the integration suite checks the same at run time
// with vscode.commands.getCommands):
// - every command contributed in package.json is registered in code, and every registered one is
//   contributed (test-only commands, spotImport.test.*, are exempt);
// - every command id the code uses (buttons, executeCommand, tree items, CodeLenses, menus): a
//   constant of src/extension/platform/commandIds.ts (COMMAND.x, BUILT_IN_COMMAND.x) or a literal, is one of
//   ours that is contributed, or one of VS Code's listed in BUILT_IN_COMMAND;
// - every COMMAND constant is contributed, and a generated `<view>.focus` names a contributed view;
// - every command id package.json names elsewhere (menus, keybindings, `command:` links of the
//   welcome views and walkthrough buttons, walkthrough `onCommand:` events) is contributed or one
//   of VS Code's listed in BUILT_IN_COMMAND, so no button is dead (manifestProblems), in English
//   and in each translation (the links' texts are "%key%"s, filled in from package.nls*.json).
// Registered = the keys of the command tables (src/extension/commands/registerCommands.ts,
// src/extension/galleries/commands/index.ts, src/extension/tables/commands/index.ts, src/extension/walkthrough/commands.ts: 'spotImport.…' or [COMMAND.x]) plus any registerCommand(…)
// with a literal or a constant anywhere in src/.
const fs = require('fs');
const path = require('path');
const { localizeManifest, manifestKeys, manifestLanguages } = require('./manifestText');

const root = path.resolve(__dirname, '..');
const IDS_FILE = 'src/extension/platform/commandIds.ts';
const TABLE_FILES = [
  'src/extension/commands/registerCommands.ts',
  'src/extension/galleries/commands/index.ts',
  'src/extension/tables/commands/index.ts',
  'src/extension/map/mapCommands.ts',
  'src/extension/walkthrough/commands.ts',
];
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

/** The `key: 'id',` lines of one `export const NAME = { … }` block of commandIds.ts. */
function constants(text, name) {
  const block = new RegExp(`export const ${name} = \\{([\\s\\S]*?)\\} as const;`).exec(text);
  const map = new Map();
  if (!block) return map;
  for (const match of block[1].matchAll(/^\s*(\w+):\s*'([^']+)',?\s*$/gm)) map.set(match[1], match[2]);
  return map;
}

/** An id as written: 'literal', COMMAND.key or BUILT_IN_COMMAND.key. */
const ID = String.raw`(?:['"\x60]([\w.-]+)['"\x60]|\b(BUILT_IN_COMMAND|COMMAND)\.(\w+))`;

/**
 * The `command:` links of one markdown string (welcome views, walkthrough buttons): VS Code runs
 * the URI's path, decoded, with its query as JSON arguments (decoded or not; walkthroughs also
 * take `command:toSide:id`). A markdown link's target ends at a space or `)`, so its arguments may
 * be JSON as it is or URL-encoded. Yields { id, args } (args undefined when there is no `?`).
 */
function* commandLinks(text) {
  for (const match of text.matchAll(/(?<![\w.-])command:(?:toSide:)?([^\s)?#"'<>\]]+)(?:\?([^\s)]*))?/g)) {
    yield { id: decodeOr(match[1]), args: match[2] };
  }
}

function decodeOr(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Whether VS Code could read a link's arguments (it tries them decoded, then as they are). */
function jsonArgs(args) {
  for (const text of [decodeOr(args), args]) {
    try {
      JSON.parse(text);
      return true;
    } catch {
      // next
    }
  }
  return false;
}

/** Every string under value, with its path from `at` (contributes.viewsWelcome[0].contents) and the ids/views of the objects it is in. */
function* strings(value, at, labels = []) {
  if (typeof value === 'string') yield { text: value, at, labels };
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* strings(item, `${at}[${i}]`, labels);
  else if (value && typeof value === 'object') {
    const label = typeof value.id === 'string' ? value.id : typeof value.view === 'string' ? value.view : undefined;
    const inner = label === undefined ? labels : [...labels, label];
    for (const [key, item] of Object.entries(value)) yield* strings(item, /^\w+$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`, inner);
  }
}

/**
 * The command ids package.json names outside contributes.commands that are neither contributed
 * nor one of VS Code's commands listed in BUILT_IN_COMMAND (builtInIds): in menus (command, alt),
 * keybindings, `command:` links in any string (welcome views, walkthrough step buttons, with or
 * without `?` arguments, which must be JSON) and walkthrough completion events (`onCommand:`, and
 * `onView:` of one of our views).
 */
function manifestProblems(manifest, builtInIds) {
  const problems = [];
  const contributes = manifest.contributes ?? {};
  const contributed = new Set((contributes.commands ?? []).map((c) => c.command));
  const views = new Set(
    Object.values(contributes.views ?? {})
      .flat()
      .map((view) => view.id),
  );
  const known = new Set(builtInIds);
  const check = (id, where) => {
    if (contributed.has(id) || known.has(id)) return;
    if (id.startsWith(PREFIX)) problems.push(`${where} names a command that is not contributed: ${id}`);
    else problems.push(`${where} names a command that is neither contributed nor one of VS Code's listed in BUILT_IN_COMMAND (${IDS_FILE}): ${id}`);
  };

  for (const [menu, items] of Object.entries(contributes.menus ?? {})) {
    for (const item of items) {
      if (item.command) check(item.command, `menu "${menu}"`);
      if (item.alt) check(item.alt, `menu "${menu}" (alt)`);
    }
  }
  for (const [i, binding] of (contributes.keybindings ?? []).entries()) {
    if (binding.command) check(binding.command, `contributes.keybindings[${i}] (${binding.key})`);
  }
  for (const { text, at, labels } of strings(contributes, 'contributes')) {
    const where = labels.length ? `${at} (${labels.join(' › ')})` : at;
    for (const { id, args } of commandLinks(text)) {
      check(id, where);
      if (args !== undefined && args !== '' && !jsonArgs(args))
        problems.push(`${where} gives ${id} arguments that are not JSON (VS Code would run it with none): ${args}`);
    }
  }
  for (const [w, walkthrough] of (contributes.walkthroughs ?? []).entries()) {
    for (const [s, step] of (walkthrough.steps ?? []).entries()) {
      for (const [e, event] of (step.completionEvents ?? []).entries()) {
        const where = `contributes.walkthroughs[${w}].steps[${s}].completionEvents[${e}] (${walkthrough.id} › ${step.id})`;
        const [, kind, id] = /^(\w+):(.*)$/.exec(event) ?? [];
        if (kind === 'onCommand') check(id, where);
        if (kind === 'onView' && id.startsWith(PREFIX) && !views.has(id)) problems.push(`${where} names a view that is not contributed: ${id}`);
      }
    }
  }
  return problems;
}

/**
 * manifestProblems of the manifest as VS Code shows it in English (`english`, package.nls.json) and
 * in each language of `translations` ({ de: package.nls.de.json's messages, … }): a translated
 * welcome view or walkthrough step carries its own `command:` links. A problem every language has
 * is reported once, as English's.
 */
function translatedManifestProblems(manifest, english, translations, builtInIds) {
  const problems = manifestProblems(localizeManifest(manifest, english), builtInIds);
  const seen = new Set(problems);
  for (const [language, messages] of Object.entries(translations)) {
    for (const problem of manifestProblems(localizeManifest(manifest, messages, english), builtInIds)) {
      if (!seen.has(problem)) problems.push(`package.nls.${language}.json: ${problem}`);
    }
  }
  return problems;
}

/** Every problem of this repository (package.json, src/), and how many commands it counted. */
function checkCommands() {
  const problems = [];
  const idsText = fs.readFileSync(path.join(root, IDS_FILE), 'utf8');
  const ours = constants(idsText, 'COMMAND');
  const builtIn = constants(idsText, 'BUILT_IN_COMMAND');
  const resolve = (match, at) => {
    if (match[1] !== undefined) return match[1];
    const table = match[2] === 'COMMAND' ? ours : builtIn;
    if (!table.has(match[3])) {
      problems.push(`${at}: ${match[2]}.${match[3]} is not in ${IDS_FILE}`);
      return undefined;
    }
    return table.get(match[3]);
  };

  /** id -> files that register it / use it. */
  const registered = new Map();
  const used = new Map();
  const note = (map, id, file) => {
    if (id === undefined || EXEMPT.test(id)) return;
    if (!map.has(id)) map.set(id, new Set());
    map.get(id).add(path.relative(root, file));
  };
  for (const rel of TABLE_FILES) {
    const file = path.join(root, rel);
    if (!fs.existsSync(file)) continue;
    const text = withoutComments(fs.readFileSync(file, 'utf8'));
    // Table entries: 'spotImport.x': handler, or [COMMAND.x]: handler.
    for (const match of text.matchAll(new RegExp(String.raw`^\s*\[?${ID}\]?\s*:`, 'gm'))) note(registered, resolve(match, rel), file);
  }
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const rel = path.relative(root, file);
    if (rel === IDS_FILE) continue;
    const text = withoutComments(fs.readFileSync(file, 'utf8'));
    for (const match of text.matchAll(new RegExp(String.raw`register(?:TextEditor)?Command\(\s*${ID}`, 'g'))) note(registered, resolve(match, rel), file);
    // Uses: executeCommand(id), { command: id } (buttons, tree items, CodeLenses), item.command = id.
    for (const match of text.matchAll(new RegExp(String.raw`(?:executeCommand(?:<[^>]*>)?\(\s*|\bcommand:\s*|\.command\s*=\s*)${ID}`, 'g')))
      note(used, resolve(match, rel), file);
    // Any other use of a constant (aliases such as OPEN_MEDIA_COMMAND = COMMAND.openMedia).
    for (const match of text.matchAll(/\b(BUILT_IN_COMMAND|COMMAND)\.(\w+)/g)) note(used, resolve([match[0], undefined, match[1], match[2]], rel), file);
  }

  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const readNls = (name) => JSON.parse(fs.readFileSync(path.join(root, name), 'utf8'));
  const english = readNls('package.nls.json');
  const translations = Object.fromEntries(manifestLanguages(root).map((language) => [language, readNls(`package.nls.${language}.json`)]));
  // A text without English would show as its "%key%", and its links would go unchecked here.
  for (const key of new Set(manifestKeys(manifest)))
    if (!(key in english)) problems.push(`package.json names "%${key}%", which package.nls.json does not have`);
  const contributes = manifest.contributes ?? {};
  const contributed = new Set((contributes.commands ?? []).map((c) => c.command));
  const views = new Set(
    Object.values(contributes.views ?? {})
      .flat()
      .map((view) => view.id),
  );
  const builtInIds = new Set(builtIn.values());

  for (const id of contributed) {
    if (!id.startsWith(PREFIX)) problems.push(`contributed command "${id}" does not start with ${PREFIX}`);
    else if (!registered.has(id)) problems.push(`contributed but not registered: ${id}`);
  }
  for (const [id, files] of registered) {
    if (!contributed.has(id)) problems.push(`registered but not contributed: ${id} (${[...files].join(', ')})`);
  }
  for (const [id, files] of used) {
    if (!contributed.has(id) && !builtInIds.has(id)) problems.push(`used but neither contributed nor a known built-in: ${id} (${[...files].join(', ')})`);
  }
  for (const [key, id] of ours) {
    if (!contributed.has(id)) problems.push(`COMMAND.${key} (${id}) is not contributed`);
  }
  for (const [key, id] of builtIn) {
    if (contributed.has(id)) problems.push(`BUILT_IN_COMMAND.${key} (${id}) is one of ours: move it to COMMAND`);
    if (id.startsWith(PREFIX) && !(id.endsWith('.focus') && views.has(id.slice(0, -'.focus'.length)))) {
      problems.push(`BUILT_IN_COMMAND.${key} (${id}) is not a command VS Code makes for a contributed view`);
    }
  }
  problems.push(...translatedManifestProblems(manifest, english, translations, builtInIds));
  const seen = new Set();
  for (const c of contributes.commands ?? []) {
    if (seen.has(c.command)) problems.push(`contributed twice: ${c.command}`);
    seen.add(c.command);
  }

  if (contributed.size === 0 && registered.size === 0)
    problems.push('no commands found at all (package.json contributes.commands and the command tables are empty)');
  return { problems, contributed: contributed.size, registered: registered.size, used: used.size };
}

function main() {
  const { problems, contributed, registered, used } = checkCommands();
  if (problems.length) {
    for (const problem of problems) console.error(`  ✗ ${problem}`);
    console.error(`check-commands: ${problems.length} problem(s); ${contributed} contributed, ${registered} registered, ${used} used`);
    process.exit(1);
  }
  console.log(
    `check-commands: ${contributed} contributed commands, all registered; ${registered} registered, all contributed; ${used} used in code, all contributed or built-in`,
  );
}

module.exports = { checkCommands, manifestProblems, translatedManifestProblems };
if (require.main === module) main();
