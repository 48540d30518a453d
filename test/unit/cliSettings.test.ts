// Where the CLI's settings come from (flags, then the environment, then spot-import.json, then
// defaults), secrets refused in the file, the secret from stdin, the built-in sandbox, and extra CA
// certificates from NODE_EXTRA_CA_CERTS over real https on loopback.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { hasOpenssl, makeTestCertificates } from '../integration/helpers/testCertificates';
import { CLI, cleanEnv, ensureCliBuilt, jsonLines, runCli, scratch, spotText } from './helpers/cliProcess';
import { validateJsonLine } from './helpers/cliSchemas';
import { json, scriptedServer } from './helpers/scriptedServer';

describe('spot-import settings', function () {
  let sandbox: RunningSandbox;
  let folder: ReturnType<typeof scratch>;
  before(async () => {
    ensureCliBuilt();
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
  });
  after(() => sandbox.close());
  beforeEach(() => (folder = scratch()));
  afterEach(() => folder.cleanup());

  const secret = () => ({ SPOT_CLIENT_SECRET: DEMO_CLIENT.clientSecret });

  it('flags win over the environment, which wins over spot-import.json (found in a parent folder), which wins over defaults', async () => {
    folder.write('spot-import.json', JSON.stringify({ baseUrl: sandbox.baseUrl, clientId: DEMO_CLIENT.clientId, apiVersion: 'v2.4', concurrency: 3 }));
    folder.write('deep/er/.keep', '');
    const cwd = folder.path('deep/er');
    const token = async (args: string[], env: Record<string, string>) => {
      const result = await runCli(['token', '--format', 'json', ...args], { cwd, env: { ...secret(), ...env } });
      assert.equal(result.code, 0, result.stderr);
      const [record] = jsonLines(result.stdout);
      assert.deepEqual(validateJsonLine(record), []);
      return record as { apiVersion: string; baseUrl: string; sources: Record<string, string>; configFile: string };
    };
    const fromFile = await token([], {});
    assert.equal(fromFile.apiVersion, 'v2.4');
    assert.equal(fromFile.configFile, folder.path('spot-import.json'));
    assert.deepEqual(fromFile.sources, { baseUrl: 'config', tokenUrl: 'default', apiVersion: 'config', clientId: 'config', concurrency: 'config' });
    const fromEnv = await token([], { SPOT_API_VERSION: 'v2.5', SPOT_CLIENT_ID: DEMO_CLIENT.clientId });
    assert.equal(fromEnv.apiVersion, 'v2.5');
    assert.deepEqual(fromEnv.sources, { baseUrl: 'config', tokenUrl: 'default', apiVersion: 'environment', clientId: 'environment', concurrency: 'config' });
    const fromFlag = await token(['--api-version', 'v2.6'], { SPOT_API_VERSION: 'v2.5' });
    assert.equal(fromFlag.apiVersion, 'v2.6');
    assert.equal(fromFlag.sources.apiVersion, 'flag');

    // The winning version is the one the requests use.
    const gallery = await runCli(['gallery', '1', '--api-version', 'v2.6'], { cwd, env: { ...secret(), SPOT_API_VERSION: 'v2.5' } });
    assert.equal(gallery.code, 1, 'gallery 1 does not exist: the service refused this one request');
    assert.match(gallery.stderr, /404/);
    assert.equal(sandbox.counters.apiVersions['v2.6'], 1);
    assert.equal(sandbox.counters.apiVersions['v2.5'], undefined);

    const text = await runCli(['token'], { cwd, env: secret() });
    assert.match(
      text.stdout,
      /^Credentials accepted: client topic_1_api got a token that lives 3600 s\.\n {2}base URL {5}http:\/\/127\.0\.0\.1:\d+ {2}from .*spot-import\.json\n/,
    );
    assert.doesNotMatch(text.stdout + text.stderr, /sandbox-secret|Bearer/);
  });

  it('takes no token URL from spot-import.json for a service address given elsewhere: the secret would go where a file says', async () => {
    // A repository's (or a parent folder's) file names a token URL; the address and the secret come from the environment.
    let asked = 0;
    const capture = await scriptedServer((_request, response) => {
      asked++;
      response.writeHead(500).end();
    });
    try {
      const elsewhere = `${capture.url}/steal`;
      folder.write('spot-import.json', JSON.stringify({ tokenUrl: elsewhere }));
      const refused = await runCli(['token'], {
        cwd: folder.path('.'),
        env: { ...secret(), SPOT_BASE_URL: sandbox.baseUrl, SPOT_CLIENT_ID: DEMO_CLIENT.clientId },
      });
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.equal(
        refused.stderr.trim(),
        `spot-import: The token URL comes from ${folder.path('spot-import.json')}, the service address from SPOT_BASE_URL: the client secret is not sent where a file says for an address given elsewhere. Give the token URL the same way (--token-url or SPOT_TOKEN_URL), or put "baseUrl" in the file too.`,
      );
      assert.equal(asked, 0);
      // Both from the file: the file is the person's own settings.
      folder.write('spot-import.json', JSON.stringify({ baseUrl: sandbox.baseUrl, tokenUrl: `${sandbox.baseUrl}/api/v2/access_token` }));
      const both = await runCli(['token'], { cwd: folder.path('.'), env: { ...secret(), SPOT_CLIENT_ID: DEMO_CLIENT.clientId } });
      assert.equal(both.code, 0, both.stderr);
      // The file's own address given again by the environment: its token URL is the file's to give.
      const same = await runCli(['token'], {
        cwd: folder.path('.'),
        env: { ...secret(), SPOT_BASE_URL: sandbox.baseUrl, SPOT_CLIENT_ID: DEMO_CLIENT.clientId },
      });
      assert.equal(same.code, 0, same.stderr);
    } finally {
      await capture.close();
    }
  });

  it('refuses a secret in spot-import.json, saying where it belongs, and never prints it; also unknown settings and bad JSON', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { baseUrl: sandbox.baseUrl, clientSecret: 'hunter2' },
        /spot-import\.json: "clientSecret" looks like a secret, and secrets do not belong in a file that is committed with the project\. Remove it; set SPOT_CLIENT_SECRET in the environment \(in CI: from its secret store\) or pipe the secret to --client-secret-stdin\./,
      ],
      [{ media: { apiKey: 'hunter2' } }, /"media\.apiKey" looks like a secret/],
      [{ token: 'hunter2' }, /"token" looks like a secret/],
      [
        { baseurl: 'x' },
        /spot-import\.json: unknown setting "baseurl"\. Known settings: baseUrl, tokenUrl, apiVersion, clientId, topic, concurrency, topicsFolder, media\./,
      ],
      [{ concurrency: 40 }, /spot-import\.json: "concurrency" Too big: expected number to be <=16\./],
    ];
    for (const [content, message] of cases) {
      folder.write('spot-import.json', JSON.stringify(content, null, 2));
      const result = await runCli(['validate', '.'], { cwd: folder.dir });
      assert.equal(result.code, 2, JSON.stringify(content));
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /hunter2/);
      assert.equal(result.stdout, '');
    }
    folder.write('spot-import.json', '{\n  "baseUrl": "x",\n}');
    const broken = await runCli(['token'], { cwd: folder.dir });
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /spot-import\.json:3:1: not valid JSON \(PropertyNameExpected\)\./);
  });

  it('--client-secret-stdin on a terminal does not show the secret as it is typed, and arrow keys are no part of it', async function () {
    this.timeout(20_000);
    const env = { ...cleanEnv(), SPOT_BASE_URL: sandbox.baseUrl, SPOT_CLIENT_ID: DEMO_CLIENT.clientId, TERM: 'xterm' };
    // script(1) runs the command on a pseudo-terminal and types what it reads from its own stdin.
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} token --client-secret-stdin`;
    const typed = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: folder.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // Typed once the prompt is up, as a person would, with a Left arrow pressed on the way
        // (an escape sequence that is no part of the secret).
        const secret = DEMO_CLIENT.clientSecret;
        if (output.includes('Client secret') && !child.stdin.writableEnded) child.stdin.end(`${secret.slice(0, 6)}\u001b[D${secret.slice(6)}\r`);
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, output }));
    });
    assert.equal(typed.code, 0, typed.output);
    assert.match(typed.output, /Client secret/);
    assert.ok(!typed.output.includes(DEMO_CLIENT.clientSecret), `the secret was shown: ${JSON.stringify(typed.output)}`);
  });

  it('reads the secret from stdin with --client-secret-stdin; says what is missing otherwise (exit 2)', async () => {
    const env = { SPOT_BASE_URL: sandbox.baseUrl, SPOT_CLIENT_ID: DEMO_CLIENT.clientId };
    const piped = await runCli(['token', '--client-secret-stdin'], { cwd: folder.dir, env, input: `${DEMO_CLIENT.clientSecret}\n` });
    assert.equal(piped.code, 0, piped.stderr);
    const cases: Array<[string[], Record<string, string>, string | undefined, RegExp]> = [
      [
        ['token'],
        env,
        undefined,
        /^spot-import: No client secret: set SPOT_CLIENT_SECRET \(in CI: from its secret store\), or pipe it to --client-secret-stdin\.\n$/,
      ],
      [['token', '--client-secret-stdin'], env, '', /--client-secret-stdin: standard input was empty/],
      [['token'], { SPOT_CLIENT_SECRET: 'x' }, undefined, /^spot-import: No service address: pass --base-url, set SPOT_BASE_URL/],
      [['token'], { SPOT_BASE_URL: sandbox.baseUrl, SPOT_CLIENT_SECRET: 'x' }, undefined, /^spot-import: No client id/],
      [
        ['token', '--base-url', 'http://example.org'],
        { ...env, SPOT_CLIENT_SECRET: 'x' },
        undefined,
        /must use https \(http is allowed only for localhost and 127\.0\.0\.1\)/,
      ],
      [['token', '--sandbox', '--base-url', 'https://x.example'], {}, undefined, /option '--sandbox' cannot be used with option '--base-url <url>'/],
      [['token', '--client-secret-stdin'], { ...env, SPOT_CLIENT_ID: 'topic_1_api' }, 'wrong', /The client id or secret was rejected/],
    ];
    for (const [args, caseEnv, input, message] of cases) {
      const result = await runCli(args, { cwd: folder.dir, env: caseEnv, input });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
    }
  });

  it('token: a token endpoint that answers 404, an HTML page or nothing is a configuration failure (exit 2), as for import and gallery', async () => {
    const replies: Record<string, (response: ServerResponse) => void> = {
      '404': (response) => json(response, 404, { error: 'not found' }),
      'an HTML page': (response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html><body>Sign in</body></html>');
      },
      'an empty body': (response) => json(response, 200, ''),
    };
    for (const [name, reply] of Object.entries(replies)) {
      const server = await scriptedServer((_request, response) => reply(response));
      try {
        const env = { SPOT_BASE_URL: server.url, SPOT_CLIENT_ID: DEMO_CLIENT.clientId, ...secret() };
        const token = await runCli(['token'], { cwd: folder.dir, env });
        assert.equal(token.code, 2, `token, ${name}: ${token.stderr}`);
        assert.equal(token.stdout, '', name);
        assert.match(token.stderr, /^spot-import: .+\n$/, `${name}: one line`);
        folder.write('a.spot.json', spotText('a'));
        const imported = await runCli(['import', 'a.spot.json'], { cwd: folder.dir, env });
        assert.equal(imported.code, 2, `import, ${name}: ${imported.stderr}`);
        const gallery = await runCli(['gallery', '12'], { cwd: folder.dir, env });
        assert.equal(gallery.code, 2, `gallery, ${name}: ${gallery.stderr}`);
      } finally {
        await server.close();
      }
    }
  });

  it('token never prints credentials written into a URL: a password in --base-url, a client_secret in --token-url', async () => {
    const base = new URL(sandbox.baseUrl);
    const baseUrl = `http://someone:PASSW0RD-in-url@${base.host}`;
    const tokenUrl = `${sandbox.baseUrl}/api/v2/access_token?client_secret=S3CRET-in-query`;
    const env = { SPOT_CLIENT_ID: DEMO_CLIENT.clientId, ...secret() };
    for (const format of ['text', 'json']) {
      const result = await runCli(['token', '--format', format, '--base-url', baseUrl, '--token-url', tokenUrl], { cwd: folder.dir, env });
      assert.equal(result.code, 0, `${format}: ${result.stderr}`);
      const printed = result.stdout + result.stderr;
      assert.doesNotMatch(printed, /PASSW0RD|S3CRET|someone/, `${format}: ${printed}`);
      assert.ok(printed.includes(`http://${base.host}`), `${format}: the address is still shown, less its user name and password: ${printed}`);
    }
  });

  it('SPOT_BASE_URL=sandbox runs the built-in sandbox: import, then the gallery it created, in two processes', async () => {
    const env = { SPOT_BASE_URL: 'sandbox', SPOT_SANDBOX_DATA: folder.path('sandbox-data') };
    folder.write('walk.spot.json', spotText('walk', { state: 2, fld_1_5: null }));
    const imported = await runCli(['import', 'walk.spot.json', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal(imported.code, 0, imported.stderr);
    const spot = jsonLines(imported.stdout)[0] as { pendingGalleries: Array<{ galleryId: number }> };
    const galleryId = spot.pendingGalleries[0].galleryId;
    const gallery = await runCli(['gallery', String(galleryId), '--sandbox', '--format', 'json'], {
      cwd: folder.dir,
      env: { SPOT_SANDBOX_DATA: env.SPOT_SANDBOX_DATA },
    });
    assert.equal(gallery.code, 0, gallery.stderr);
    assert.deepEqual(jsonLines(gallery.stdout), [{ type: 'gallery', id: galleryId, kind: 1, state: 1, media: [] }]);
    const token = await runCli(['token', '--format', 'json'], { cwd: folder.dir, env });
    assert.equal((jsonLines(token.stdout)[0] as { sandbox: boolean }).sandbox, true);
  });

  it('trusts the CA certificates in NODE_EXTRA_CA_CERTS for https', async function () {
    if (!hasOpenssl()) this.skip();
    const certificates = makeTestCertificates();
    const server: Server = createServer({ key: certificates.key, cert: certificates.cert }, (request, response) => {
      request.resume();
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ access_token: 'tls-token', token_type: 'Bearer', expires_in: 60 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env = { SPOT_BASE_URL: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, SPOT_CLIENT_ID: 'c', SPOT_CLIENT_SECRET: 's' };
      const untrusted = await runCli(['token'], { cwd: folder.dir, env });
      assert.equal(untrusted.code, 2);
      assert.match(untrusted.stderr, /certificate/i);
      const trusted = await runCli(['token'], { cwd: folder.dir, env: { ...env, NODE_EXTRA_CA_CERTS: certificates.caFile } });
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.match(trusted.stdout, /got a token that lives 60 s/);
      assert.doesNotMatch(trusted.stdout + trusted.stderr, /tls-token/, 'the token is never printed');
    } finally {
      server.close();
      certificates.cleanup();
    }
  });
});
