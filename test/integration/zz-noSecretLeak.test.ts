// Runs last (files run in name order): after everything else, no secret and no token the run
// used may appear in the log file, the settings, the extension's global state or the workspace.
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CommandServices } from '../../src/extension/commands/commandTable';
import { installScriptedUi } from './helpers/scriptedUi';
import { addProfileAt, fixtureUri, readLogText, rememberCurrentToken, useTestProfile, usedSecrets, waitFor } from './helpers/testEnv';

/** Every form a secret travels in: raw, percent-encoded in either hex case, form-encoded, JSON-escaped, Basic. */
function encodedForms(clientId: string, secret: string): string[] {
  const upper = encodeURIComponent(secret);
  const lower = upper.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  return [secret, upper, lower, form, JSON.stringify(secret).slice(1, -1), Buffer.from(`${clientId}:${secret}`).toString('base64')];
}

/** Pieces of 8 characters of any form that appear in the text. */
function formLeaks(text: string, forms: string[]): string[] {
  const found = new Set<string>();
  for (const form of forms) for (let i = 0; i + 8 <= form.length; i++) if (text.includes(form.slice(i, i + 8))) found.add(form.slice(i, i + 8));
  return [...found];
}

// A token endpoint that echoes the form body it was sent, and the secret in every encoding, in its
// error reply: the notification the user sees, and the log, hold none of it.
describe('a token endpoint that echoes the client secret', () => {
  const clientId = 'it_echo_api';
  const secret = `it-echo+/="\\${randomBytes(6).toString('hex')}=`;
  let server: http.Server | undefined;

  before(async () => {
    usedSecrets.add(secret);
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const sent = new URLSearchParams(body).get('client_secret') ?? '';
        const forms = encodedForms(clientId, sent);
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: 'invalid_client', error_description: `no client for ${body}; secret ${forms.join(' | ')}` }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('keeps every form of it out of the notification and the log', async () => {
    const echo = await addProfileAt('IT echoing token endpoint', `http://127.0.0.1:${(server!.address() as AddressInfo).port}`);
    try {
      await echo.services.credentials.set(echo.profile.id, { clientId, clientSecret: secret });
      await echo.services.profiles.setActive(echo.profile.id);
      const run = await installScriptedUi([{ kind: 'error', match: /client id or secret was rejected/ }]);
      try {
        await vscode.commands.executeCommand('spotImport.testConnection');
        run.done();
      } finally {
        run.restore();
      }
      const shown = run.ui.shown.map((prompt) => `${prompt.text} ${prompt.detail ?? ''}`).join('\n');
      assert.match(shown, /no client for grant_type=client_credentials&client_id=it_echo_api&client_secret=\*\*\*/, shown);
      assert.deepStrictEqual(formLeaks(shown, encodedForms(clientId, secret)), [], shown);
      const log = await waitFor('the failure in the log', async () => {
        const text = await readLogText();
        return text.includes('spotImport.testConnection failed') ? text : undefined;
      });
      assert.deepStrictEqual(formLeaks(log, encodedForms(clientId, secret)), []);
    } finally {
      await echo.remove();
    }
  });
});

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
  let services: CommandServices;

  before(async () => {
    ({ services } = await useTestProfile());
    // One more round trip with a fresh token, so the latest token has passed through the log path.
    await rememberCurrentToken(services);
    const run = await installScriptedUi([{ kind: 'info', match: /^(Imported|Updated spot)/ }]);
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
    const text = services.context.globalState
      .keys()
      .map((key) => JSON.stringify(services.context.globalState.get(key)))
      .join('\n');
    assert.deepStrictEqual(leaks(text), []);
  });

  it('keeps them out of the workspace', () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root);
    const found = filesUnder(root).filter((file) => leaks(fs.readFileSync(file, 'latin1')).length > 0);
    assert.deepStrictEqual(found, []);
  });
});
