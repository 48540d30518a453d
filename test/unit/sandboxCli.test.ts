import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseSandboxArgs, UsageError } from '../../src/sandbox/cliArgs';
import { DEMO_CLIENT } from '../../src/sandbox/types';
import { importSpot, rawRequest, requestToken, SANDBOX_CLI as CLI, spotDocument, startSandboxCli } from './helpers/sandboxHttp';

describe('sandbox CLI: flags', () => {
  it('defaults to port 8787, the demo client and no faults', () => {
    const { help, options } = parseSandboxArgs([]);
    assert.equal(help, false);
    assert.equal(options.port, 8787);
    assert.equal(options.clients, undefined, 'startSandbox then uses DEMO_CLIENT');
    assert.deepEqual(options.faults, {});
  });

  it('reads every flag, in both --flag value and --flag=value form', () => {
    const { options } = parseSandboxArgs(
      [
        '--port',
        '0',
        '--client',
        'a:b',
        '--client=topic_9_api:x:y',
        '--token-ttl',
        '90',
        '--data',
        'rel/dir',
        '--fail-429',
        '0.2',
        '--fail-503=0.1',
        '--drop',
        '0.05',
        '--latency-ms',
        '50',
        '--retry-after',
        '1',
        '--seed',
        '7',
        '--omit-expires-in',
        '--file-field',
        'data[attributes][image]',
      ],
      '/base',
    );
    assert.equal(options.port, 0);
    assert.deepEqual(options.clients, [
      { clientId: 'a', clientSecret: 'b' },
      { clientId: 'topic_9_api', clientSecret: 'x', user: 'y' },
    ]);
    assert.equal(options.tokenTtlSeconds, 90);
    assert.equal(options.dataDir, resolve('/base', 'rel/dir'));
    assert.deepEqual(options.faults, { rate429: 0.2, rate503: 0.1, rateDrop: 0.05, latencyMs: 50, retryAfterSeconds: 1, seed: 7 });
    assert.equal(options.omitExpiresIn, true);
    assert.equal(options.fileFieldName, 'data[attributes][image]');
    assert.equal(parseSandboxArgs(['--help']).help, true);
  });

  it('refuses bad flags with a message that names them', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--prot', '1'], /unknown option "--prot"/],
      // A value given with = may be a secret (a mistyped --client=ID:SECRET): not repeated.
      [['--clients=a:SUPERSECRET'], /^(?![^]*SUPERSECRET)[^]*unknown option "--clients=…"/],
      [['--port'], /--port needs a value/],
      [['--port', '--data'], /--port needs a value/],
      [['--port', '99999'], /--port must be an integer from 0 to 65535/],
      [['--port', '12abc'], /--port must be an integer/],
      [['--client', 'nosecret'], /--client must be ID:SECRET\[:USER\]/],
      [['--client', ':secret'], /--client must be ID:SECRET/],
      [['--client', 'id:'], /--client must be ID:SECRET/],
      [['--client', 'id::user'], /--client must be ID:SECRET/],
      [['--token-ttl', '0'], /--token-ttl must be a number greater than 0/],
      [['--fail-429', '1.5'], /--fail-429 must be a number from 0 to 1/],
      [['--fail-429', '0.7', '--drop', '0.7'], /--fail-429 \+ --fail-503 \+ --drop must not exceed 1/],
      [['--help=yes'], /takes no value/],
    ];
    for (const [argv, message] of cases) {
      assert.throws(
        () => parseSandboxArgs(argv),
        (error: Error) => error instanceof UsageError && message.test(error.message),
        argv.join(' '),
      );
    }
  });
});

const startCli = (args: string[]) => startSandboxCli(args);

describe('sandbox CLI: process', () => {
  const running: ChildProcess[] = [];
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('is built (out/src/sandbox/cli.js)', () => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run tsc first`);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints one ready line, serves, and exits 0 on ${signal}`, async () => {
      const started = await startCli(['--port', '0', '--client', 'topic_5_api:pw']);
      running.push(started.child);
      const match = /^Sandbox listening on (http:\/\/127\.0\.0\.1:(\d+)) \(client topic_5_api\)$/.exec(started.line);
      assert.ok(match, started.line);
      const baseUrl = match[1];
      assert.notEqual(match[2], '0');
      const token = await requestToken(baseUrl, { clientId: 'topic_5_api', clientSecret: 'pw' });
      assert.equal(token.status, 200);
      assert.equal((await requestToken(baseUrl, DEMO_CLIENT)).status, 401, 'the demo client is replaced by --client');
      assert.equal((await importSpot(baseUrl, token.json.access_token, spotDocument('cli-1'))).status, 200);

      const exited = once(started.child, 'exit');
      started.child.kill(signal);
      const [code] = await exited;
      assert.equal(code, 0);
      assert.equal(started.stdout(), `${started.line}\n`, 'exactly one line on stdout');
      assert.equal(started.stderr(), '');
    });
  }

  it('applies fault flags', async () => {
    const started = await startCli(['--port', '0', '--fail-503', '1']);
    running.push(started.child);
    const baseUrl = /(http:\/\/\S+)/.exec(started.line)?.[1] ?? '';
    assert.match(started.line, /\(client topic_1_api\)$/);
    const token = await requestToken(baseUrl);
    assert.equal(token.status, 200, 'the token endpoint is not faulted');
    const reply = await rawRequest(`${baseUrl}/api/v2.4/galleries/1`, { headers: { Authorization: `Bearer ${token.json.access_token}` } });
    assert.equal(reply.status, 503);
    started.child.kill('SIGTERM');
    assert.deepEqual(await once(started.child, 'exit'), [0, null]);
  });

  it('keeps data across restarts with --data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'spot-sandbox-cli-'));
    try {
      let id = 0;
      for (const round of [1, 2]) {
        const started = await startCli(['--port', '0', '--data', dataDir]);
        running.push(started.child);
        const baseUrl = /(http:\/\/\S+)/.exec(started.line)?.[1] ?? '';
        const token = (await requestToken(baseUrl)).json.access_token;
        const reply = await importSpot(baseUrl, token, spotDocument('cli-persist'));
        if (round === 1) id = reply.json.data.id;
        else assert.equal(reply.json.data.id, id, 'the same spot after a restart');
        started.child.kill('SIGTERM');
        assert.deepEqual(await once(started.child, 'exit'), [0, null]);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('knows the topics of --topics: a null text field of topic 7 is no pending gallery', async () => {
    const topicsDir = resolve(__dirname, '../../../test/fixtures/topics/project/spot-topics');
    assert.equal(parseSandboxArgs(['--topics', 'spot-topics'], '/base').topicsDir, resolve('/base', 'spot-topics'));
    const started = await startCli(['--port', '0', '--topics', topicsDir]);
    running.push(started.child);
    const baseUrl = /(http:\/\/\S+)/.exec(started.line)?.[1] ?? '';
    const token = (await requestToken(baseUrl)).json.access_token;
    const document = { data: { type: 'spots', attributes: { topic_id: 7, source_id: 'cli-topics', latitude: 47, longitude: 11, state: 1, fld_7_2: null } } };
    const reply = await importSpot(baseUrl, token, document);
    assert.equal(reply.status, 200, JSON.stringify(reply.json));
    assert.deepEqual(reply.json, { data: { id: reply.json.data.id } }, 'no gallery was created for the text field');
    started.child.kill('SIGTERM');
    assert.deepEqual(await once(started.child, 'exit'), [0, null]);
    assert.equal(started.stderr(), '');
  });

  it('exits 2 with a clear message on a bad flag', async () => {
    const child = spawn(process.execPath, [CLI, '--port', 'eighty'], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(child);
    let stderr = '';
    let stdout = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk) => (stdout += chunk.toString()));
    const [code] = await once(child, 'exit');
    assert.equal(code, 2);
    assert.match(stderr, /^sandbox: --port must be an integer from 0 to 65535, not "eighty"/);
    assert.match(stderr, /Usage: npm run sandbox/);
    assert.equal(stdout, '');
  });
});
