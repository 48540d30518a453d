import * as assert from 'node:assert/strict';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { getGallery, importSpot, newToken, rawRequest, requestToken, send, spotDocument, tokenForm, useSandbox } from './helpers/sandboxHttp';

const OTHER = { clientId: 'topic_37_api', clientSecret: 's3cret:with:colons' };

describe('sandbox: token endpoint', () => {
  const ctx = useSandbox({ clients: [DEMO_CLIENT, OTHER] });

  for (const path of ['/api/v2/access_token', '/oauth2/access_token']) {
    it(`issues a bearer token on ${path}`, async () => {
      const reply = await requestToken(ctx.sandbox.baseUrl, DEMO_CLIENT, path);
      assert.equal(reply.status, 200);
      assert.deepEqual(Object.keys(reply.json).sort(), ['access_token', 'expires_in', 'token_type']);
      assert.equal(reply.json.token_type, 'Bearer');
      assert.equal(reply.json.expires_in, 3600);
      assert.match(reply.json.access_token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(reply.headers.get('cache-control'), 'no-store');
      assert.equal((await importSpot(ctx.sandbox.baseUrl, reply.json.access_token, spotDocument(`token-${path}`))).status, 200);
    });
  }

  it('never hands out the same token twice', async () => {
    const tokens = await Promise.all(Array.from({ length: 20 }, () => newToken(ctx.sandbox.baseUrl)));
    assert.equal(new Set(tokens).size, 20);
  });

  it('accepts every configured client, secrets with colons included', async () => {
    assert.equal((await requestToken(ctx.sandbox.baseUrl, OTHER)).status, 200);
  });

  it('accepts client credentials in an HTTP Basic header', async () => {
    const basic = Buffer.from(`${encodeURIComponent(OTHER.clientId)}:${encodeURIComponent(OTHER.clientSecret)}`).toString('base64');
    const reply = await send(`${ctx.sandbox.baseUrl}/api/v2/access_token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.json.token_type, 'Bearer');
  });

  it('answers a wrong secret and an unknown client alike: 401 invalid_client with description and message', async () => {
    for (const client of [
      { ...DEMO_CLIENT, clientSecret: 'wrong' },
      { clientId: 'topic_999_api', clientSecret: 'sandbox-secret' },
    ]) {
      const reply = await requestToken(ctx.sandbox.baseUrl, client);
      assert.equal(reply.status, 401);
      assert.deepEqual(reply.json, {
        error: 'invalid_client',
        error_description: 'Client authentication failed: unknown client or wrong secret.',
        message: 'Client authentication failed: unknown client or wrong secret.',
      });
      assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
    }
  });

  it('refuses missing credentials with invalid_client', async () => {
    const reply = await send(`${ctx.sandbox.baseUrl}/api/v2/access_token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials' }) });
    assert.equal(reply.status, 401);
    assert.equal(reply.json.error, 'invalid_client');
    assert.equal(reply.json.message, reply.json.error_description);
  });

  it('adds a Basic challenge when Basic credentials were wrong', async () => {
    const reply = await send(`${ctx.sandbox.baseUrl}/api/v2/access_token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('topic_1_api:nope').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    assert.equal(reply.status, 401);
    assert.equal(reply.headers.get('www-authenticate'), 'Basic realm="spot-sandbox"');
  });

  it('refuses a JSON body with 400 invalid_request', async () => {
    const reply = await send(`${ctx.sandbox.baseUrl}/api/v2/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: DEMO_CLIENT.clientId, client_secret: DEMO_CLIENT.clientSecret }),
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.json.error, 'invalid_request');
    assert.match(reply.json.error_description, /form-encoded/);
  });

  it('refuses other grant types with 400 unsupported_grant_type, and a missing one with invalid_request', async () => {
    const other = await send(`${ctx.sandbox.baseUrl}/api/v2/access_token`, { method: 'POST', body: tokenForm(DEMO_CLIENT, 'password') });
    assert.equal(other.status, 400);
    assert.equal(other.json.error, 'unsupported_grant_type');
    const missing = await send(`${ctx.sandbox.baseUrl}/oauth2/access_token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: DEMO_CLIENT.clientId, client_secret: DEMO_CLIENT.clientSecret }),
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error, 'invalid_request');
  });

  it('refuses a repeated parameter', async () => {
    const body = `${tokenForm().toString()}&client_id=other`;
    const reply = await send(`${ctx.sandbox.baseUrl}/api/v2/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.json.error, 'invalid_request');
  });

  it('answers GET on the token path with 405 and Allow: POST', async () => {
    const reply = await send(`${ctx.sandbox.baseUrl}/api/v2/access_token`);
    assert.equal(reply.status, 405);
    assert.equal(reply.headers.get('allow'), 'POST');
  });

  it('counts token requests and issued tokens', async () => {
    const before = { ...ctx.sandbox.counters };
    await requestToken(ctx.sandbox.baseUrl);
    await requestToken(ctx.sandbox.baseUrl, { ...DEMO_CLIENT, clientSecret: 'bad' });
    assert.equal(ctx.sandbox.counters.tokenRequests, before.tokenRequests + 2);
    assert.equal(ctx.sandbox.counters.tokensIssued, before.tokensIssued + 1);
  });
});

describe('sandbox: bearer check', () => {
  let clock = 1_700_000_000_000;
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, tokenTtlSeconds: 120, now: () => clock });
  });
  after(() => sandbox.close());

  function assertInvalidToken(
    reply: { status: number; headers: Headers; json: { errors: Array<{ status: string; code: string; detail: string }> } },
    detail: RegExp,
  ) {
    assert.equal(reply.status, 401);
    assert.match(reply.headers.get('www-authenticate') ?? '', /^Bearer realm="spot-sandbox", error="invalid_token", error_description="[^"]+"$/);
    assert.equal(reply.json.errors.length, 1);
    assert.equal(reply.json.errors[0].status, '401');
    assert.equal(reply.json.errors[0].code, 'invalid_token');
    assert.match(reply.json.errors[0].detail, detail);
  }

  it('reports the configured lifetime in expires_in', async () => {
    assert.equal((await requestToken(sandbox.baseUrl)).json.expires_in, 120);
  });

  it('refuses an expired token with 401 and WWW-Authenticate invalid_token', async () => {
    const token = await newToken(sandbox.baseUrl);
    clock += 119_000;
    assert.equal((await importSpot(sandbox.baseUrl, token, spotDocument('expiry-1'))).status, 200);
    clock += 1_000;
    assertInvalidToken(await importSpot(sandbox.baseUrl, token, spotDocument('expiry-2')), /expired/);
    assert.equal(sandbox.spotBySourceId('expiry-2'), undefined);
  });

  it('refuses a missing, malformed or unknown bearer the same way', async () => {
    assertInvalidToken(await getGallery(sandbox.baseUrl, '', 1), /No access token/);
    const missing = await send(`${sandbox.baseUrl}/api/v2.4/galleries/1`);
    assertInvalidToken(missing, /No access token/);
    const basic = await send(`${sandbox.baseUrl}/api/v2.4/galleries/1`, { headers: { Authorization: 'Basic abc' } });
    assertInvalidToken(basic, /No access token/);
    assertInvalidToken(await getGallery(sandbox.baseUrl, 'made-up-token', 1), /not known/);
  });

  it('expireAllTokens() invalidates every token issued so far, not later ones', async () => {
    const old = await newToken(sandbox.baseUrl);
    sandbox.expireAllTokens();
    assertInvalidToken(await importSpot(sandbox.baseUrl, old, spotDocument('expire-all')), /expired/);
    const fresh = await newToken(sandbox.baseUrl);
    assert.equal((await importSpot(sandbox.baseUrl, fresh, spotDocument('expire-all'))).status, 200);
  });

  it('POST /__sandbox/expire-tokens does the same for out-of-process tests', async () => {
    const token = await newToken(sandbox.baseUrl);
    const reply = await rawRequest(`${sandbox.baseUrl}/__sandbox/expire-tokens`, { method: 'POST' });
    assert.equal(reply.status, 204);
    assert.equal((await importSpot(sandbox.baseUrl, token, spotDocument('expire-http'))).status, 401);
  });

  it('counts refused API requests as unauthorized, not as imports', async () => {
    const before = { ...sandbox.counters };
    await importSpot(sandbox.baseUrl, 'nope', spotDocument('counted'));
    assert.equal(sandbox.counters.unauthorized, before.unauthorized + 1);
    assert.equal(sandbox.counters.imports, before.imports);
  });
});

describe('sandbox: token reply without expires_in', () => {
  const ctx = useSandbox({ omitExpiresIn: true });

  it('leaves expires_in out when asked to', async () => {
    const reply = await requestToken(ctx.sandbox.baseUrl);
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.json).sort(), ['access_token', 'token_type']);
  });
});
