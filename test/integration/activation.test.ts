// Activation stays narrow (commands, views, spot documents) and the command surface is complete:
// every contributed command is registered and every registered one is contributed. JSON files
// activate the extension (a spot document may be any .json whose data.type is "spots"), so an
// ordinary JSON file must stay cheap: it must not load the network core (dist/core.js).
// This file runs first (files run in name order), before any test has loaded the core.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { extensionServices } from './helpers/scriptedUi';
import { closeAllEditors, fixtureUri, readLogText, waitFor } from './helpers/testEnv';

async function lazyModules(): Promise<{ core: boolean; features: boolean }> {
  const modules = await vscode.commands.executeCommand<{ core: boolean; features: boolean }>('spotImport.test.lazyModules');
  assert.ok(modules, 'spotImport.test.lazyModules answered');
  return modules;
}

async function coreLoaded(): Promise<boolean> {
  return (await lazyModules()).core;
}

const EXTENSION_ID = 'spot-tools.spot-import';
const TEST_ONLY = /^spotImport\.test\./;

describe('activation and command surface', () => {
  const extension = () => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is installed`);
    return found;
  };

  it('activates only for JSON documents, folders with spot documents or mappings, tables an extension gives a language, and a restored rows view (commands and views are implicit)', () => {
    const events: string[] = extension().packageJSON.activationEvents ?? [];
    // A CSV is plaintext in VS Code unless a CSV extension names it: tables with a mapping beside
    // them are found by the mapping, and Create Mapping for this File activates by its command.
    // A workbook's rows view restored with the window (spot-rows:) needs its provider.
    assert.deepStrictEqual([...events].sort(), [
      'onFileSystem:spot-rows',
      'onLanguage:csv',
      'onLanguage:geojson',
      'onLanguage:json',
      'onLanguage:tsv',
      'workspaceContains:**/*.mapping.json',
      'workspaceContains:**/*.spot.json',
    ]);
  });

  it('does not load the core for an ordinary JSON file, and does for a spot document', async () => {
    // Activated, not through spotImport.test.services: that builds the Galleries view (dist/features.js).
    await extension().activate();
    assert.strictEqual(await coreLoaded(), false, 'nothing loaded the core before (this test runs first)');
    const plain = fixtureUri('import', 'single', 'not-a-spot.json');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(plain));
    assert.strictEqual(editor.document.languageId, 'json');
    // What a JSON editor triggers: diagnostics, the CodeLens, the context key for the menus.
    await vscode.commands.executeCommand('vscode.executeCodeLensProvider', plain);
    await new Promise((resolve) => setTimeout(resolve, 800));
    assert.strictEqual(await coreLoaded(), false, 'an ordinary JSON file loaded dist/core.js');
    await closeAllEditors();

    // The probe is real: a document that is a spot document by content does load it.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fixtureUri('import', 'single', 'by-content.json')));
    await waitFor('the core loaded for a spot document', () => coreLoaded());
    await closeAllEditors();
  });

  it('does not load the command handlers (dist/features.js) until a command runs', async () => {
    // This file's tests run first, and the ones before this ran no command of ours.
    assert.strictEqual((await lazyModules()).features, false, "activation loaded dist/features.js (the command handlers, or the Galleries view's code)");
    await vscode.commands.executeCommand('spotImport.gallery.refresh');
    await waitFor('the first command loaded dist/features.js', async () => (await lazyModules()).features);
  });

  it('contributes the spot document schema for *.spot.json', () => {
    const validation: Array<{ fileMatch: string | string[]; url: string }> = extension().packageJSON.contributes.jsonValidation;
    const entry = validation.find((candidate) => [candidate.fileMatch].flat().includes('*.spot.json'));
    assert.ok(entry, 'jsonValidation entry for *.spot.json');
    assert.strictEqual(entry.url, './schemas/spot-document.schema.json');
  });

  it('registers every contributed command, and contributes every registered one', async () => {
    await extensionServices(); // activates
    const contributed = new Set<string>((extension().packageJSON.contributes.commands as Array<{ command: string }>).map((entry) => entry.command));
    // VS Code itself registers focus/visibility commands for each view (`<view id>.focus`, …): not ours.
    const { views = {} } = extension().packageJSON.contributes as { views?: Record<string, Array<{ id: string }>> };
    const viewIds = Object.values(views)
      .flat()
      .map((view) => view.id);
    const isViewCommand = (id: string) =>
      viewIds.some((view) => new RegExp(`^${view.replace(/\./g, '\\.')}\\.(focus|resetViewLocation|toggleVisibility|removeView|open)$`).test(id));
    const registered = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('spotImport.') && !isViewCommand(id) && !TEST_ONLY.test(id));
    assert.deepStrictEqual(
      [...contributed].filter((id) => !registered.includes(id)),
      [],
      'contributed but not registered',
    );
    assert.deepStrictEqual(
      registered.filter((id) => !contributed.has(id)),
      [],
      'registered but not contributed',
    );
  });

  it('keeps the test-only command out of package.json', () => {
    const ids = (extension().packageJSON.contributes.commands as Array<{ command: string }>).map((entry) => entry.command);
    assert.ok(!ids.some((id) => TEST_ONLY.test(id)));
  });

  it('logs how long activation took', async () => {
    await extensionServices();
    const log = await waitFor('the activation line in the log', async () => /activated in \d+(\.\d+)? ms/.test(await readLogText()) || undefined);
    assert.ok(log);
  });
});
