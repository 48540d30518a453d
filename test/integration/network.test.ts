// The HTTP options the extension builds for the core: extra CA certificates from the setting
// spotImport.caCertificates (a file that cannot be read stops requests with an error naming the
// setting) and VS Code's proxy settings over the proxy environment variables.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as tls from 'tls';
import * as vscode from 'vscode';
import { httpOptionsFromVsCode, readCaFiles } from '../../src/platform/httpOptions';
import { installScriptedUi } from './helpers/scriptedUi';
import { useTestProfile } from './helpers/testEnv';

const SETTING = 'caCertificates';

async function setCaCertificates(files: string[] | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('spotImport').update(SETTING, files, vscode.ConfigurationTarget.Global);
}

describe('network settings', () => {
  let restore: (() => void) | undefined;
  afterEach(async () => {
    restore?.();
    await setCaCertificates(undefined);
  });

  it('names the setting and the file when a CA certificate file cannot be read', async () => {
    await useTestProfile();
    const missing = path.join(os.tmpdir(), 'spot-no-such-ca.pem');
    await setCaCertificates([missing]);
    const run = await installScriptedUi([{ kind: 'error', match: `The setting spotImport.caCertificates lists ${missing}, which cannot be read: there is no such file.` }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.testConnection');
    run.done();
    assert.deepStrictEqual(run.ui.shown[0].buttons, ['Open Settings', 'Show Log']);
  });

  it('trusts the listed certificates in addition to the usual ones, and still connects', async () => {
    const { services } = await useTestProfile();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-ca-'));
    const file = path.join(dir, 'company-ca.pem');
    const pem = tls.rootCertificates[tls.rootCertificates.length - 1];
    fs.writeFileSync(file, `comment lines are ignored\n${pem}\n`);
    await setCaCertificates([file]);
    const options = await httpOptionsFromVsCode(await services.core(), { requestTimeoutSeconds: 60, caCertificates: [file] }, {});
    assert.ok(options.ca, 'a ca list is built');
    assert.ok(options.ca.includes(pem.trim()), 'the configured certificate is in it');
    assert.ok(options.ca.length >= tls.rootCertificates.length, 'Node\'s bundled roots stay trusted');
    const run = await installScriptedUi([{ kind: 'info', match: /^Connected to Integration sandbox/ }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.testConnection');
    run.done();
  });

  it('refuses relative paths and files without a PEM certificate', async () => {
    await assert.rejects(readCaFiles(['certs/ca.pem']), /spotImport\.caCertificates lists "certs\/ca\.pem": use an absolute path/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spot-ca-')), 'not-a-cert.pem');
    fs.writeFileSync(file, 'hello');
    await assert.rejects(readCaFiles([file]), /holds no PEM certificate/);
  });

  it('applies http.proxy and http.noProxy over the proxy environment variables', async () => {
    const { services } = await useTestProfile();
    const core = await services.core();
    const env = { HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: 'internal.example' };
    const settings = { requestTimeoutSeconds: 30, caCertificates: [] };
    const fromEnv = await httpOptionsFromVsCode(core, settings, env);
    assert.strictEqual(fromEnv.proxyUrl, 'http://127.0.0.1:9');
    assert.deepStrictEqual(fromEnv.noProxy, ['internal.example']);
    assert.strictEqual(fromEnv.idleTimeoutMs, 30_000);
    // Node 20 cannot read the system store: without configured files, Node's defaults stay as they are.
    if (typeof (tls as { getCACertificates?: unknown }).getCACertificates !== 'function') assert.strictEqual(fromEnv.ca, undefined);
    const http = vscode.workspace.getConfiguration('http');
    await http.update('proxy', 'http://127.0.0.1:8', vscode.ConfigurationTarget.Global);
    await http.update('noProxy', ['other.example'], vscode.ConfigurationTarget.Global);
    try {
      const configured = await httpOptionsFromVsCode(core, settings, env);
      assert.strictEqual(configured.proxyUrl, 'http://127.0.0.1:8');
      assert.deepStrictEqual(configured.noProxy, ['other.example']);
    } finally {
      await http.update('proxy', undefined, vscode.ConfigurationTarget.Global);
      await http.update('noProxy', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
