// The German the extension shows, as the e2e tests expect it: taken by their English from the
// translation files the .vsix ships (l10n/bundle.l10n.de.json for the code's strings,
// package.nls.de.json for the manifest's), so a test reads like its English twin and fails loudly
// when a string it looks for is not translated.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from '../integration/launchers/harness/paths';

type Bundle = Record<string, string | { message: string }>;

const bundle = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Bundle;

/** The German of `english` (a key of the bundle), with its placeholders filled from `args`. */
export function de(english: string, ...args: Array<string | number>): string {
  const entry = bundle[english];
  assert.ok(entry !== undefined, `l10n/bundle.l10n.de.json translates ${JSON.stringify(english)}`);
  const text = typeof entry === 'string' ? entry : entry.message;
  return text.replace(/\{(\d+)\}/g, (match, index: string) => (args[Number(index)] !== undefined ? String(args[Number(index)]) : match));
}

/**
 * A pattern for the German of `english`: each placeholder with a value in `args` stands for that
 * value, one given as a RegExp for what it matches, one left out for any text.
 */
export function dePattern(english: string, args: Record<number, string | number | RegExp> = {}): RegExp {
  const text = de(english);
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const parts = text.split(/(\{\d+\})/).map((part) => {
    const placeholder = /^\{(\d+)\}$/.exec(part);
    if (!placeholder) return escape(part);
    const value = args[Number(placeholder[1])];
    if (value === undefined) return '.+?';
    return value instanceof RegExp ? `(?:${value.source})` : escape(String(value));
  });
  return new RegExp(parts.join(''));
}

const { readManifest } = require(path.join(repoRoot, 'scripts', 'manifestText.js')) as { readManifest(root: string, language?: string): unknown };

/** package.json as VS Code shows it in German (scripts/manifestText.js). */
const germanManifest = readManifest(repoRoot, 'de') as {
  contributes: {
    commands: Array<{ command: string; title: string; category?: string }>;
    viewsContainers: { activitybar: Array<{ id: string; title: string }> };
    walkthroughs: Array<{ title: string; steps: Array<{ id: string; title: string; description: string }> }>;
  };
};

/** A command's palette title in German ("Kategorie: Titel"). */
export function deCommandTitle(id: string): string {
  const command = germanManifest.contributes.commands.find((c) => c.command === id);
  assert.ok(command, `${id} is contributed`);
  return command.category ? `${command.category}: ${command.title}` : command.title;
}

/** The Galleries view container's title in German. */
export function deGalleriesContainer(): string {
  const container = germanManifest.contributes.viewsContainers.activitybar.find((c) => c.id === 'spotImport');
  assert.ok(container, 'the spotImport view container is contributed');
  return container.title;
}

/** A walkthrough step's title and description in German. */
export function deWalkthroughStep(id: string): { title: string; description: string } {
  const step = germanManifest.contributes.walkthroughs[0].steps.find((s) => s.id === id);
  assert.ok(step, `the walkthrough has a step ${id}`);
  return step;
}
