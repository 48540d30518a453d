// Activation stays narrow (commands, views, spot documents) and the command surface is complete:
// every contributed command is registered and every registered one is contributed.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { extensionServices } from './helpers/scriptedUi';
import { readLogText, waitFor } from './helpers/testEnv';

const EXTENSION_ID = 'spot-tools.spot-import';
const TEST_ONLY = /^spotImport\.test\./;

describe('activation and command surface', () => {
  const extension = () => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is installed`);
    return found;
  };

  it('activates only through commands, views and spot documents', () => {
    const events: string[] = extension().packageJSON.activationEvents ?? [];
    assert.ok(!events.includes('*'), 'no "*" activation');
    assert.ok(!events.includes('onStartupFinished'), 'no onStartupFinished');
    const allowed = /^(onLanguage:json|workspaceContains:\*\*\/\*\.spot\.json|onCommand:spotImport\..+|onView:spotImport\..+)$/;
    assert.deepStrictEqual(events.filter((event) => !allowed.test(event)), [], 'only spot documents, commands and views activate');
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
    // VS Code itself registers focus/visibility commands for each view: those are not ours.
    const viewCommand = /\.(focus|resetViewLocation|toggleVisibility|removeView|open)$/;
    const registered = (await vscode.commands.getCommands(true))
      .filter((id) => id.startsWith('spotImport.') && !viewCommand.test(id) && !TEST_ONLY.test(id));
    assert.deepStrictEqual([...contributed].filter((id) => !registered.includes(id)), [], 'contributed but not registered');
    assert.deepStrictEqual(registered.filter((id) => !contributed.has(id)), [], 'registered but not contributed');
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
