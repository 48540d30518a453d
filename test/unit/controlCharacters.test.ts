// A server's words and names reach a terminal through the command line's output; a hostile or
// broken server must not be able to clear the screen, retitle the window or forge lines with
// control characters in them (ESC, BEL, CSI, a newline in a file name). Run as the bundled
// command line against a scripted server on loopback.
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { runCli } from './helpers/cliProcess';
import { json, scriptedServer } from './helpers/scriptedServer';
import { printable } from '../../src/core/text/printable';

/** Every C0 and C1 control character, and DEL. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const HOSTILE = 'a\u001b]0;pwned\u0007\u001b[2J\u009b31m\r\nb';

describe('control characters from a server are not printed', function () {
  this.timeout(30_000);
  const answerToken = (response: ServerResponse) => json(response, 200, { access_token: 'short-token', token_type: 'Bearer', expires_in: 3600 });

  it('printable replaces every C0 and C1 control character, line breaks and tabs too, and keeps the rest', () => {
    assert.equal(printable(HOSTILE), 'a\ufffd]0;pwned\ufffd\ufffd[2J\ufffd31m\ufffd\ufffdb');
    assert.equal(printable('\u0000\u001f\u007f\u0080\u009f\t'), '\ufffd'.repeat(6));
    assert.equal(printable('Zürich – 北京 🌳 ok'), 'Zürich – 北京 🌳 ok');
  });

  it('gallery prints a hostile media name and type without their control characters', async () => {
    const server = await scriptedServer((request, response) => {
      if (request.url?.includes('access_token')) return answerToken(response);
      return json(response, 200, {
        data: {
          id: 7,
          type: 'galleries',
          attributes: { type: 1, state: 1 },
          relationships: { media: { data: [{ id: 70, type: 'media' }] } },
        },
        included: [{ id: 70, type: 'media', attributes: { file: `${HOSTILE}.jpg`, mimeType: `image/jpeg${HOSTILE}` } }],
      });
    });
    try {
      const result = await runCli(['gallery', '7'], { env: { SPOT_BASE_URL: server.url, SPOT_CLIENT_ID: 'client', SPOT_CLIENT_SECRET: 'secret-value' } });
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!CONTROL.test(result.stdout), JSON.stringify(result.stdout));
      assert.match(result.stdout, /a\ufffd\]0;pwned\ufffd\ufffd\[2J\ufffd31m\ufffd\ufffdb\.jpg/);
    } finally {
      await server.close();
    }
  });

  it("a server's error words, in JSON or as text, are printed without their control characters", async () => {
    const server = await scriptedServer((request, response) => {
      if (request.url?.includes('access_token')) return answerToken(response);
      if (request.url?.includes('/galleries/8')) return json(response, 404, { message: `gone ${HOSTILE}` });
      response.writeHead(400, { 'content-type': 'text/plain' });
      return response.end(`bad ${HOSTILE}`);
    });
    try {
      const env = { SPOT_BASE_URL: server.url, SPOT_CLIENT_ID: 'client', SPOT_CLIENT_SECRET: 'secret-value' };
      const fromJson = await runCli(['gallery', '8'], { env });
      assert.equal(fromJson.code, 1, fromJson.stderr);
      assert.ok(!CONTROL.test(fromJson.stderr), JSON.stringify(fromJson.stderr));
      assert.match(fromJson.stderr, /HTTP 404: gone a\ufffd\]0;pwned/);
      const fromText = await runCli(['gallery', '9'], { env });
      assert.ok(!CONTROL.test(fromText.stderr), JSON.stringify(fromText.stderr));
      assert.match(fromText.stderr, /HTTP 400: bad a\ufffd\]0;pwned/);
    } finally {
      await server.close();
    }
  });
});
