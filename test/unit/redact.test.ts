// The one redactor (src/core/api/redact.ts; the log and notifications share an instance of it):
// registered secrets in every encoding they travel in, and the shapes credentials take in HTTP
// traffic even when their value was never registered.
import * as assert from 'node:assert/strict';
import { Redactor } from '../../src/core/api/redact';
import { formatDetail } from '../../src/extension/platform/redact';

const SECRET = 'sandbox-Secret+/=!x';

function redactor(...secrets: string[]): Redactor {
  const result = new Redactor();
  for (const secret of secrets) result.add(secret);
  return result;
}

describe('log redaction', () => {
  it('masks a registered secret wherever it occurs, every time', () => {
    const text = redactor(SECRET).redact(`first ${SECRET} then again:${SECRET}.`);
    assert.equal(text, 'first *** then again:***.');
  });

  it('masks a registered secret URL-encoded, form-encoded and JSON-escaped', () => {
    const secret = 'a b"c\\d&e+f';
    const r = redactor(secret);
    for (const form of [encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1)]) {
      assert.ok(form !== secret);
      const text = r.redact(`value=<${form}>`);
      assert.ok(!text.includes(form), `${form} survived: ${text}`);
      assert.equal(text, 'value=<***>');
    }
  });

  it('masks a registered secret percent-encoded in either hex case, or encoded only in part', () => {
    const secret = 'pa+ss/wo=rd"\\ü';
    const r = redactor(secret);
    const upper = encodeURIComponent(secret);
    const lower = upper.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
    const mixed = `pa%2bss/wo%3Drd\\"\\\\%C3%BC`;
    for (const form of [upper, lower, mixed, upper.replace('%2B', '+')]) {
      assert.equal(r.redact(`x ${form} y`), 'x *** y', form);
    }
  });

  it('masks the base64 of a registered id:secret, as a Basic header carries it', () => {
    const basic = Buffer.from('topic_1_api:s3cr+t/=').toString('base64');
    const r = redactor(basic);
    assert.equal(r.redact(`expected ${basic}`), 'expected ***');
    assert.equal(r.redact(`expected ${encodeURIComponent(basic).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}`), 'expected ***');
  });

  it('masks ?token=, Bearer%20… and a bare Basic credential that were never registered', () => {
    const r = new Redactor();
    assert.equal(r.redact('GET /media?token=abc.DEF-123&x=1'), 'GET /media?token=***&x=1');
    assert.equal(r.redact('{"token":"abc.DEF"}'), '{"token":"***"}');
    assert.equal(r.redact('echo Bearer%20abc.DEF%2B1%3D end'), 'echo Bearer%20*** end');
    assert.equal(r.redact('echo bearer+abc.DEF end'), 'echo bearer+*** end');
    assert.equal(r.redact(`saw Basic ${Buffer.from('id:pw').toString('base64')} here`), 'saw Basic *** here');
    assert.equal(r.redact('use HTTP Basic authentication'), 'use HTTP Basic authentication', 'prose stays');
    assert.equal(r.redact('token_type=Bearer'), 'token_type=Bearer');
  });

  it('masks the longer of two overlapping secrets whole', () => {
    assert.equal(redactor('abcd', 'abcdefgh').redact('x abcdefgh y abcd'), 'x *** y ***');
  });

  it('masks bearer tokens that were never registered', () => {
    assert.equal(new Redactor().redact('sent Bearer eyJhbGciOi.J9.abc-_~+/= to the server'), 'sent Bearer *** to the server');
    assert.equal(new Redactor().redact('bearer abc123'), 'bearer ***');
  });

  it('masks Authorization headers in header dumps and JSON', () => {
    const r = new Redactor();
    assert.equal(r.redact('Authorization: Basic dXNlcjpwYXNz\r\nAccept: */*'), 'Authorization: ***\r\nAccept: */*');
    const json = r.redact(JSON.stringify({ headers: { authorization: 'Bearer abc.def', accept: 'application/json' } }));
    assert.ok(!json.includes('abc.def'), json);
    assert.ok(json.includes('"accept":"application/json"'), json);
  });

  it('masks client_secret and tokens in form bodies and query strings', () => {
    const r = new Redactor();
    assert.equal(
      r.redact('grant_type=client_credentials&client_id=topic_1_api&client_secret=s3cr%2Bet&scope=x'),
      'grant_type=client_credentials&client_id=topic_1_api&client_secret=***&scope=x',
    );
    assert.equal(r.redact('GET /cb?access_token=tok123&state=1'), 'GET /cb?access_token=***&state=1');
    assert.equal(r.redact('refresh_token=r1 password=hunter2'), 'refresh_token=*** password=***');
    assert.ok(!r.redact('clientSecret: "abc", accessToken=xyz').match(/abc|xyz/));
  });

  it('masks secrets embedded in JSON, as objects are written to the log', () => {
    const r = new Redactor();
    const text = r.redact(
      formatDetail({ client_id: 'topic_1_api', client_secret: 'never-registered', nested: { access_token: 'tok-9', token_type: 'Bearer' } }),
    );
    assert.ok(!text.includes('never-registered'), text);
    assert.ok(!text.includes('tok-9'), text);
    assert.ok(text.includes('"client_id":"topic_1_api"'), 'what is not secret stays readable');
  });

  it('masks a registered secret inside an error, its server message and its cause', () => {
    const r = redactor(SECRET);
    const error = Object.assign(new Error(`token request echoed ${SECRET}`), {
      kind: 'authentication',
      serverMessage: `bad ${SECRET}`,
      cause: new Error(`inner ${SECRET}`),
    });
    const text = r.redact(formatDetail(error));
    assert.ok(!text.includes(SECRET), text);
    assert.match(text, /kind=authentication/);
  });

  it('does not register secrets shorter than 4 characters (they would mask ordinary words), but the patterns still catch them', () => {
    const r = redactor('abc', '', 'xy');
    assert.equal(r.redact('abc and xy stay readable'), 'abc and xy stay readable');
    assert.equal(r.redact('client_secret=abc'), 'client_secret=***');
    assert.equal(redactor('abcd').redact('abcd'), '***', 'four characters are enough');
  });

  it('leaves text without credentials alone', () => {
    const line = 'POST http://127.0.0.1:8787/api/v2.4/spots/import 200 in 12 ms (spot 42, gallery 7)';
    assert.equal(redactor(SECRET).redact(line), line);
  });
});
