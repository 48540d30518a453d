import * as assert from 'node:assert/strict';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';
import { scriptedServer, json } from './helpers/scriptedServer';
import { TokenSource, defaultTokenUrl } from '../../src/core/api/tokenSource';
import { AuthenticationError, MalformedReplyError, ServiceError } from '../../src/core/api/errors';
import { DEMO_CLIENT } from '../../src/sandbox/types';

describe('token source against the sandbox', () => {
  let setup: CoreSetup | undefined;
  afterEach(async () => {
    await setup?.sandbox.close();
    setup = undefined;
  });

  it('reuses one token for many calls', async () => {
    setup = await startCore();
    const first = await setup.tokens.getToken();
    const second = await setup.tokens.getToken();
    assert.equal(first.value, second.value);
    assert.equal(first.lifetimeSeconds, 3600);
    assert.ok(first.fromServer);
    assert.equal(setup.sandbox.counters.tokenRequests, 1);
  });

  it('asks once for 50 concurrent imports (single flight)', async () => {
    setup = await startCore();
    const { client } = setup;
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.importSpot(spot(`flight-${i}`))));
    assert.equal(new Set(results.map((r) => r.spotId)).size, 50);
    assert.equal(setup.sandbox.counters.tokenRequests, 1);
    assert.equal(setup.sandbox.counters.imports, 50);
  });

  it('renews when less than min(300 s, half the lifetime) is left', async () => {
    let clock = Date.parse('2026-11-22T00:00:00Z');
    const now = () => clock;
    setup = await startCore({ tokenTtlSeconds: 1000, now }, now);
    const first = await setup.tokens.getToken();
    clock += 690_000; // 310 s left: still more than 300 s
    assert.equal((await setup.tokens.getToken()).value, first.value);
    clock += 20_000; // 290 s left: renew
    const renewed = await setup.tokens.getToken();
    assert.notEqual(renewed.value, first.value);
    assert.equal(setup.sandbox.counters.tokenRequests, 2);
    // A short lifetime renews at half: 60 s tokens are renewed after 30 s.
    await setup.sandbox.close();
    setup = await startCore({ tokenTtlSeconds: 60, now }, now);
    const short = await setup.tokens.getToken();
    clock += 29_000;
    assert.equal((await setup.tokens.getToken()).value, short.value);
    clock += 2_000;
    assert.notEqual((await setup.tokens.getToken()).value, short.value);
  });

  it('assumes the configured lifetime when expires_in is absent', async () => {
    setup = await startCore({ omitExpiresIn: true });
    const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(setup.sandbox.baseUrl), ...DEMO_CLIENT, assumedLifetimeSeconds: 120 });
    const token = await tokens.getToken();
    assert.equal(token.lifetimeSeconds, 120);
    assert.equal(token.fromServer, false);
  });

  it('serves the other token path form too', async () => {
    setup = await startCore();
    const tokens = new TokenSource({ tokenUrl: `${setup.sandbox.baseUrl}/oauth2/access_token`, ...DEMO_CLIENT });
    assert.ok((await tokens.getToken()).value);
  });

  it('turns invalid_client into an AuthenticationError with the server description, shared by waiting callers', async () => {
    setup = await startCore();
    const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(setup.sandbox.baseUrl), clientId: DEMO_CLIENT.clientId, clientSecret: 'wrong-secret' });
    const attempts = await Promise.allSettled(Array.from({ length: 10 }, () => tokens.getToken()));
    for (const attempt of attempts) {
      assert.equal(attempt.status, 'rejected');
      const error = (attempt as PromiseRejectedResult).reason;
      assert.ok(error instanceof AuthenticationError);
      assert.ok(error.serverMessage && error.serverMessage.length > 3);
      assert.ok(!error.message.includes('wrong-secret'));
    }
    // Within the cool-down the failure is shared, not retried in a tight loop.
    await assert.rejects(tokens.getToken(), AuthenticationError);
    assert.equal(setup.sandbox.counters.tokenRequests, 1);
  });

  it('accepts expires_in sent as a numeric string, as some token endpoints do', async () => {
    for (const [sent, seconds] of [
      ['3600', 3600],
      [' 1800 ', 1800],
      ['90.5', 90.5],
    ] as const) {
      const server = await scriptedServer((_req, res) => json(res, 200, { access_token: 'string-lifetime', token_type: 'Bearer', expires_in: sent }));
      try {
        const token = await new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, ...DEMO_CLIENT }).getToken();
        assert.equal(token.lifetimeSeconds, seconds);
        assert.ok(token.fromServer);
      } finally {
        await server.close();
      }
    }
  });

  describe('malformed token replies become typed errors', () => {
    const cases: Array<[string, (res: import('node:http').ServerResponse) => void]> = [
      ['not JSON', (res) => json(res, 200, '<html>oops</html>')],
      ['no access_token', (res) => json(res, 200, { token_type: 'Bearer' })],
      ['token_type not Bearer', (res) => json(res, 200, { access_token: 'a', token_type: 'mac' })],
      ['expires_in not a number', (res) => json(res, 200, { access_token: 'a', token_type: 'Bearer', expires_in: 'soon' })],
      ['expires_in not finite', (res) => json(res, 200, '{"access_token":"a","token_type":"Bearer","expires_in":1e999}')],
      ['expires_in a string that is no number', (res) => json(res, 200, { access_token: 'a', token_type: 'Bearer', expires_in: '3600s' })],
      ['expires_in a negative numeric string', (res) => json(res, 200, { access_token: 'a', token_type: 'Bearer', expires_in: '-5' })],
      ['expires_in an empty string', (res) => json(res, 200, { access_token: 'a', token_type: 'Bearer', expires_in: '' })],
    ];
    for (const [name, answer] of cases) {
      it(name, async () => {
        const server = await scriptedServer((_req, res) => answer(res));
        try {
          const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, ...DEMO_CLIENT });
          await assert.rejects(tokens.getToken(), (error) => {
            assert.ok(error instanceof MalformedReplyError, String(error));
            if (name.startsWith('expires_in')) assert.match(error.message, /expires_in: .*number of seconds/, error.message);
            return true;
          });
        } finally {
          await server.close();
        }
      });
    }
    // The redactor masks what follows "access_token: ", so a problem written as "member: words"
    // lost its first word ("access_token: *** input"). The member's name must still be said, and
    // a secret the reply echoes still masked.
    it('a reply without access_token says so in plain words; what it echoes is still masked', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ token_type: 'Bearer', expires_in: 3600, error_hint: `client_secret=${DEMO_CLIENT.clientSecret}` }, /: it has no access_token\.$/],
        [{ access_token: '', token_type: 'Bearer' }, /: access_token: Too small: expected string to have >=1 characters$/],
        [{ access_token: 42, token_type: 'Bearer' }, /: access_token: Invalid input: expected string, received number$/],
      ];
      for (const [reply, words] of cases) {
        const server = await scriptedServer((_req, res) => json(res, 200, reply));
        try {
          const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, ...DEMO_CLIENT });
          await assert.rejects(tokens.getToken(), (error) => {
            assert.ok(error instanceof MalformedReplyError, String(error));
            assert.match(error.message, /^The server sent an unexpected reply to the token request: /, error.message);
            assert.match(error.message, words, error.message);
            assert.ok(!error.message.includes('***'), error.message);
            assert.ok(!error.message.includes(DEMO_CLIENT.clientSecret), error.message);
            return true;
          });
        } finally {
          await server.close();
        }
      }
    });
    it('a reply that is not JSON and echoes the secret: the secret is masked in the preview', async () => {
      const server = await scriptedServer((_req, res) => json(res, 200, `<p>client_secret=${DEMO_CLIENT.clientSecret} access_token: abcdefgh</p>`));
      try {
        const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, ...DEMO_CLIENT });
        await assert.rejects(tokens.getToken(), (error) => {
          assert.ok(error instanceof MalformedReplyError, String(error));
          assert.ok(!error.message.includes(DEMO_CLIENT.clientSecret) && !error.message.includes('abcdefgh'), error.message);
          assert.match(error.message, /it is not JSON \(client_secret=\*\*\* access_token: \*\*\*\)/, error.message);
          return true;
        });
      } finally {
        await server.close();
      }
    });
    it('a 500 page names the status and the words', async () => {
      const server = await scriptedServer((_req, res) => {
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end('<h1>Internal trouble</h1>');
      });
      try {
        const tokens = new TokenSource({ tokenUrl: `${server.url}/t`, ...DEMO_CLIENT });
        await assert.rejects(tokens.getToken(), (error: ServiceError) => /HTTP 500: Internal trouble/.test(error.message));
      } finally {
        await server.close();
      }
    });
  });

  it('a token URL that is redirected or not found says which address answered and that the token URL is what to change', async () => {
    const server = await scriptedServer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: 'https://login.example.org/oauth2/access_token?tenant=abcdefgh123' });
        res.end();
      } else json(res, 404, { message: 'Not Found' });
    });
    try {
      await assert.rejects(new TokenSource({ tokenUrl: `${server.url}/moved`, ...DEMO_CLIENT }).getToken(), (error: ServiceError) => {
        assert.equal(
          error.message,
          `The token request was redirected (HTTP 302) to https://login.example.org/oauth2/access_token?…, where it is not sent on: set the token URL to the address the service gives for its tokens.`,
        );
        return true;
      });
      await assert.rejects(new TokenSource({ tokenUrl: `${server.url}/api/v3/token`, ...DEMO_CLIENT }).getToken(), (error: ServiceError) => {
        assert.equal(
          error.message,
          `The token request failed with HTTP 404: Not Found. ${server.url}/api/v3/token has no token endpoint: set the token URL to the one the service names (such as …/api/v2/access_token or …/oauth2/access_token).`,
        );
        return true;
      });
    } finally {
      await server.close();
    }
  });

  it('refuses http to a host that is not loopback', () => {
    assert.throws(() => new TokenSource({ tokenUrl: 'http://example.com/api/v2/access_token', ...DEMO_CLIENT }), /https/);
    assert.ok(new TokenSource({ tokenUrl: 'https://example.com/api/v2/access_token', ...DEMO_CLIENT }));
  });
});
