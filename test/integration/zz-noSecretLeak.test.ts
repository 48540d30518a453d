// Runs last (files run in name order): after everything else, no secret and no token the run
// used may appear in the log file, the settings, the extension's global state or the workspace.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../src/platform/services';
import { installScriptedUi } from './helpers/scriptedUi';
import { fixtureUri, readLogText, rememberCurrentToken, useTestProfile, usedSecrets, waitFor } from './helpers/testEnv';

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(full);
    return fs.statSync(full).size < 5 * 1024 * 1024 ? [full] : [];
  });
}

function leaks(text: string): string[] {
  return [...usedSecrets].filter((secret) => text.includes(secret)).map((secret) => `${secret.slice(0, 4)}…`);
}

describe('no secret leaks (runs last)', () => {
  let services: ExtensionServices;

  before(async () => {
    ({ services } = await useTestProfile());
    // One more round trip with a fresh token, so the latest token has passed through the log path.
    await rememberCurrentToken(services);
    const run = await installScriptedUi([{ kind: 'info', match: 'Imported' }]);
    await vscode.commands.executeCommand('spotImport.importSpot', fixtureUri('import', 'single', 'valid.spot.json'));
    run.done();
    // Shapes a secret can take in a log line are masked even when unregistered.
    services.log.info('test', 'Authorization: Bearer it-unregistered-token-abcdef and client_secret=it-unregistered-secret-xyz');
    usedSecrets.add('it-unregistered-token-abcdef');
    usedSecrets.add('it-unregistered-secret-xyz');
  });

  it('checks a real set of secrets and tokens', () => {
    assert.ok(usedSecrets.size >= 4, `secrets and tokens recorded: ${usedSecrets.size}`);
  });

  it('keeps them out of the log file', async () => {
    const log = await waitFor('the last test line in the log', async () => {
      const text = await readLogText();
      return text.includes('[test] Authorization: ***') ? text : undefined;
    });
    assert.match(log, /\[command\] spotImport\.importSpot finished/);
    assert.deepStrictEqual(leaks(log), []);
  });

  it('keeps them out of the settings', () => {
    const userSettings = path.resolve(services.context.globalStorageUri.fsPath, '..', '..', 'settings.json');
    const texts = [JSON.stringify(vscode.workspace.getConfiguration('spotImport'))];
    if (fs.existsSync(userSettings)) texts.push(fs.readFileSync(userSettings, 'utf8'));
    assert.deepStrictEqual(leaks(texts.join('\n')), []);
  });

  it('keeps them out of the global state', () => {
    const text = services.context.globalState.keys().map((key) => JSON.stringify(services.context.globalState.get(key))).join('\n');
    assert.deepStrictEqual(leaks(text), []);
  });

  it('keeps them out of the workspace', () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root);
    const found = filesUnder(root).filter((file) => leaks(fs.readFileSync(file, 'latin1')).length > 0);
    assert.deepStrictEqual(found, []);
  });
});
