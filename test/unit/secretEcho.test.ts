// A hostile server echoes what it was sent in its error replies: the client secret (from the token
// request's form body) and the access token (from the Authorization header), raw, percent-encoded
// in either hex case, form-encoded, JSON-escaped, or as the base64 of id:secret of a Basic header.
// No form of either may reach an error's message, its serverMessage, or what the extension shows.
import * as assert from 'node:assert/strict';
import { scriptedServer, json } from './helpers/scriptedServer';
import { spot } from './helpers/coreSetup';
import { TokenSource, type TokenSourceOptions } from '../../src/core/api/tokenSource';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { ServiceError } from '../../src/core/api/errors';
import { describeError } from '../../src/extension/platform/errors';
import { sharedRedactor } from '../../src/extension/platform/redact';

const CLIENT_ID = 'topic_1_api';
const SECRETS = ['s3cr+t/with=signs"and\\slash', 'p@ss word+/="\\ü=='];
const TOKEN = 'tok+en/with="quote"\\and=end';

/** Every way the value can travel: raw, encoded in either hex case, form-encoded, JSON-escaped. */
function forms(value: string): string[] {
  const upper = encodeURIComponent(value);
  const lower = upper.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
  const formEncoded = new URLSearchParams({ s: value }).toString().slice(2);
  const basic = Buffer.from(`${CLIENT_ID}:${value}`).toString('base64');
  return [...new Set([value, upper, lower, formEncoded, formEncoded.toLowerCase(), JSON.stringify(value).slice(1, -1), basic])];
}

/** Pieces of 8 characters of every form: a secret cut in half (a preview's limit) still leaks. */
function leaks(text: string | undefined, value: string): string[] {
  if (!text) return [];
  const found = new Set<string>();
  for (const form of forms(value)) {
    for (let i = 0; i + 8 <= form.length; i++) if (text.includes(form.slice(i, i + 8))) found.add(form.slice(i, i + 8));
  }
  return [...found];
}

function assertClean(error: unknown, value: string): void {
  assert.ok(error instanceof ServiceError, String(error));
  for (const [where, text] of [
    ['message', error.message],
    ['serverMessage', error.serverMessage],
    ['describeError', describeError(error)],
  ] as const) {
    assert.deepEqual(leaks(text, value), [], `${where} leaks: ${text}`);
  }
}

type Echo = (secret: string, form: URLSearchParams, rawBody: string) => { status: number; body: string; type?: string };

/** How the token endpoint echoes the request. */
const TOKEN_ECHOES: Record<string, Echo> = {
  'the raw secret in JSON (escaped by JSON)': (secret) => ({
    status: 401,
    body: JSON.stringify({ error: 'invalid_client', error_description: `unknown secret ${secret}` }),
  }),
  'the form body as sent (upper-case hex)': (_s, _f, raw) => ({
    status: 400,
    body: JSON.stringify({ error: 'invalid_request', error_description: `could not use ${raw}` }),
  }),
  'the form body with lower-case hex': (_s, _f, raw) => ({
    status: 400,
    body: JSON.stringify({ message: `body: ${raw.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}` }),
  }),
  'the secret percent-encoded in a text reply': (secret) => ({
    status: 500,
    type: 'text/plain',
    body: `failed for client_secret%3D${encodeURIComponent(secret)} at step 2`,
  }),
  'JSON-escaped text in a text reply': (secret) => ({ status: 502, type: 'text/html', body: `<p>upstream said {"secret":${JSON.stringify(secret)}}</p>` }),
  'the base64 of id:secret (a Basic header)': (secret) => ({
    status: 401,
    body: JSON.stringify({ error: 'invalid_client', error_description: `expected ${Buffer.from(`${CLIENT_ID}:${secret}`).toString('base64')}` }),
  }),
  'the secret where a preview is cut': (secret) => ({ status: 503, type: 'text/plain', body: `${'x'.repeat(196)} ${secret} and more` }),
  'a 200 reply that is not JSON': (secret) => ({ status: 200, type: 'text/plain', body: `ok ${secret}` }),
  'a 200 reply with a JSON-escaped echo that fails the schema': (secret) => ({ status: 200, body: JSON.stringify({ access_token: 7, echo: secret }) }),
};

describe('secrets echoed by a hostile server never reach a message', () => {
  for (const secret of SECRETS) {
    for (const [name, echo] of Object.entries(TOKEN_ECHOES)) {
      it(`token endpoint echoes ${name} (secret ${JSON.stringify(secret).slice(0, 12)}…)`, async () => {
        const server = await scriptedServer((_req, res, body) => {
          const reply = echo(secret, new URLSearchParams(body), body);
          res.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' });
          res.end(reply.body);
        });
        try {
          // As the extension builds it: the log's redactor is the one the token source fills.
          const options = {
            tokenUrl: `${server.url}/api/v2/access_token`,
            clientId: CLIENT_ID,
            clientSecret: secret,
            redactor: sharedRedactor,
          } as TokenSourceOptions;
          const error = await new TokenSource(options).getToken().then(
            () => assert.fail('should fail'),
            (failure: unknown) => failure,
          );
          assertClean(error, secret);
          // A token source of its own (the command line's case) scrubs its messages just the same.
          const own = await new TokenSource({ ...options, redactor: undefined } as TokenSourceOptions).getToken().then(
            () => assert.fail('should fail'),
            (failure: unknown) => failure,
          );
          assert.ok(own instanceof ServiceError);
          assert.deepEqual(leaks(own.message, secret), [], own.message);
          assert.deepEqual(leaks(own.serverMessage, secret), [], own.serverMessage);
        } finally {
          await server.close();
        }
      });
    }
  }

  const API_ECHOES: Record<string, (authorization: string) => string> = {
    'the header in JSON': (authorization) => JSON.stringify({ errors: [{ detail: `refused ${authorization}` }] }),
    'the token percent-encoded (lower-case hex)': (authorization) =>
      JSON.stringify({ message: `see ${encodeURIComponent(authorization.slice(7)).toLowerCase()}` }),
    'the header percent-encoded (Bearer%20…)': (authorization) => `{"message":"${encodeURIComponent(authorization)}"}`,
    'the token in a query string': (authorization) =>
      JSON.stringify({ message: `retry at /media?token=${authorization.slice(7).replace(/[^A-Za-z0-9]/g, 'x')}&x=1` }),
  };
  for (const [name, echo] of Object.entries(API_ECHOES)) {
    it(`an API error that echoes ${name} keeps the token out`, async () => {
      const server = await scriptedServer((req, res) =>
        req.url?.includes('access_token')
          ? json(res, 200, { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 })
          : (res.writeHead(400, { 'content-type': 'application/json' }), res.end(echo(req.headers.authorization ?? ''))),
      );
      try {
        const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, clientId: CLIENT_ID, clientSecret: SECRETS[0] });
        const client = new ServiceClient({ baseUrl: server.url, tokens });
        const error = await client.importSpot(spot('echo')).then(
          () => assert.fail('should fail'),
          (failure: unknown) => failure,
        );
        assertClean(error, TOKEN);
        if (name.includes('query')) assert.ok(!String((error as Error).message).includes(TOKEN.replace(/[^A-Za-z0-9]/g, 'x')), (error as Error).message);
      } finally {
        await server.close();
      }
    });
  }
});
