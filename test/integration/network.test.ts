// The HTTP options the extension builds for the core: extra CA certificates from the setting
// spotImport.caCertificates (a file that cannot be read stops requests with an error naming the
// setting; a listed authority is trusted in a real TLS handshake, and without it the error says
// where to add it) and VS Code's proxy settings over the proxy environment variables.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as tls from 'tls';
import * as vscode from 'vscode';
import { httpOptionsFromVsCode, readCaFiles } from '../../src/extension/platform/httpOptions';
import { LoopbackProxy } from './helpers/loopbackProxy';
import { installScriptedUi } from './helpers/scriptedUi';
import { hasOpenssl, makeTestCertificates, type TestCertificates } from './helpers/testCertificates';
import { addProfileAt, testSandbox, useTestProfile } from './helpers/testEnv';

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
    const run = await installScriptedUi([
      { kind: 'error', match: `The setting spotImport.caCertificates lists ${missing}, which cannot be read: there is no such file.` },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.testConnection');
    run.done();
    assert.deepStrictEqual(run.ui.shown[0].buttons, ['Open Settings', 'Show Log']);
  });

  it("builds a ca list from the listed files that keeps Node's bundled roots", async () => {
    const { services } = await useTestProfile();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-ca-'));
    try {
      const file = path.join(dir, 'company-ca.pem');
      const pem = tls.rootCertificates[tls.rootCertificates.length - 1];
      fs.writeFileSync(file, `comment lines are ignored\n${pem}\n`);
      const options = await httpOptionsFromVsCode(await services.core(), { requestTimeoutSeconds: 60, caCertificates: [file] }, {});
      assert.ok(options.ca, 'a ca list is built');
      assert.ok(options.ca.includes(pem.trim()), 'the configured certificate is in it');
      assert.ok(options.ca.length >= tls.rootCertificates.length, "Node's bundled roots stay trusted");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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

// A real TLS handshake: an https pass-through to the test sandbox whose certificate is signed by a
// certificate authority made for this run (openssl, in a temporary folder), which nothing trusts
// unless spotImport.caCertificates lists it.
describe('network settings: an https service signed by a private certificate authority', function () {
  this.timeout(60_000);
  let certificates: TestCertificates | undefined;
  let proxy: LoopbackProxy | undefined;
  let httpsProfile: Awaited<ReturnType<typeof addProfileAt>> | undefined;
  let restore: (() => void) | undefined;

  before(async function () {
    if (!hasOpenssl()) {
      console.warn('      no openssl on PATH: the https tests cannot make a certificate and are skipped');
      this.skip();
    }
    certificates = makeTestCertificates();
    proxy = await LoopbackProxy.start((await testSandbox()).baseUrl, { key: certificates.key, cert: certificates.cert });
    httpsProfile = await addProfileAt('IT https service', proxy.baseUrl);
  });

  beforeEach(async () => {
    await httpsProfile!.services.profiles.setActive(httpsProfile!.profile.id);
  });

  afterEach(async () => {
    restore?.();
    restore = undefined;
    await setCaCertificates(undefined);
  });

  after(async () => {
    await httpsProfile?.remove();
    await proxy?.close();
    certificates?.cleanup();
  });

  it('connects when spotImport.caCertificates lists the authority', async () => {
    assert.ok(proxy!.baseUrl.startsWith('https://127.0.0.1:'));
    await setCaCertificates([certificates!.caFile]);
    const before = proxy!.requests.length;
    const run = await installScriptedUi([{ kind: 'info', match: /^Connected to IT https service: the credentials work/ }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.testConnection');
    run.done();
    assert.deepStrictEqual(proxy!.requests.slice(before), ['/api/v2/access_token'], 'the token came over the https connection');

    // The API as well as the token endpoint: an import through the same client.
    const { client } = await httpsProfile!.services.clients.clientFor(httpsProfile!.profile.id);
    const attributes = { topic_id: 1, source_id: `it-https-${Date.now().toString(36)}`, latitude: 47.07, longitude: 15.44 };
    const result = await client.importSpot({ data: { type: 'spots', attributes } });
    assert.ok(result.spotId > 0);
    assert.ok((await testSandbox()).spotBySourceId(attributes.source_id), 'the import reached the service');
  });

  it('without the setting, says the certificate is not trusted and where to add the authority', async () => {
    await setCaCertificates(undefined);
    const before = proxy!.requests.length;
    const run = await installScriptedUi([
      {
        kind: 'error',
        match: (text) =>
          /^The token request could not reach 127\.0\.0\.1:\d+: /.test(text) &&
          /certificate/i.test(text) &&
          text.endsWith("add that authority's certificate (a PEM file) to the setting spotImport.caCertificates."),
      },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.testConnection');
    run.done();
    assert.deepStrictEqual(run.ui.shown[0].buttons, ['Open Settings', 'Show Log']);
    assert.strictEqual(proxy!.requests.length, before, 'no request got past the handshake');
  });
});
