// An error reply's preview (the server's words in a message) costs time in proportion to the
// reply, whatever the reply holds: markup stripped over a body of many "<" and no ">" once took
// minutes, blocking the event loop, so no deadline could stop it. Both checks run in a child
// process that is killed when it overruns: a blocked test process could not time itself out.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { httpError } from '../../src/core/api/readReply';
import { runCli } from './helpers/cliProcess';
import { scriptedServer } from './helpers/scriptedServer';

const OPEN_BRACKETS = 2_000_000;

describe('reply preview of a hostile error body', function () {
  this.timeout(30_000);

  it('httpError over two million "<" without ">" returns the cut words at once', async () => {
    const readReply = join(__dirname, '../../src/core/api/readReply.js');
    const script = `const { httpError } = require(${JSON.stringify(readReply)});
      const error = httpError('The import', 502, '<'.repeat(${OPEN_BRACKETS}), { redactor: { redact: (text) => text } });
      process.stdout.write(error.message);`;
    const message = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-e', script], { timeout: 10_000, killSignal: 'SIGKILL' }, (error, stdout) =>
        error ? reject(new Error(error.killed ? 'the preview did not return within 10 s' : error.message)) : resolve(stdout),
      ),
    );
    assert.equal(message, `The import failed with HTTP 502: ${'<'.repeat(200)}….`);
  });

  it('still reads an HTML page as its words, and a "<" with no ">" after it as text', () => {
    const error = httpError('The import', 502, '<html><h1>Bad</h1> <b>gateway</b> for a<b and c>d', { redactor: { redact: (text) => text } });
    assert.equal(error.message, 'The import failed with HTTP 502: Bad gateway for a d.');
    const open = httpError('The import', 502, '<p>a < b', { redactor: { redact: (text) => text } });
    assert.equal(open.message, 'The import failed with HTTP 502: a < b.');
  });

  it('the CLI reports a 502 whose body is two million "<" promptly', async () => {
    const server = await scriptedServer((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<'.repeat(OPEN_BRACKETS));
    });
    try {
      const result = await runCli(['token'], {
        env: { SPOT_BASE_URL: server.url, SPOT_CLIENT_ID: 'client', SPOT_CLIENT_SECRET: 'secret-value' },
        timeoutMs: 10_000,
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /The token request failed with HTTP 502: <{200}…/);
    } finally {
      await server.close();
    }
  });
});
