// An upload's reply deadline runs from the end of its body, or from the reply's head when that
// comes first: a server that answers at once (a chunked 500, say), stops reading the body and then
// drips its reply never lets the body end, and without the second start the upload waited forever.
// A raw socket server on loopback; the file is larger than the loopback connection buffers, so
// its body cannot go out whole while the server does not read.
import * as assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { ServiceError } from '../../src/core/api/errors';
import type { AccessToken } from '../../src/core/api/tokenSource';

describe('an upload answered before its body went out', function () {
  this.timeout(10_000);
  const dir = mkdtempSync(join(tmpdir(), 'spot-early-'));
  const larger = join(dir, 'larger.bin');
  writeFileSync(larger, Buffer.alloc(64 * 1024 * 1024, 1));
  let server: Server;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  after(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => {
    for (const timer of timers) clearInterval(timer);
    for (const socket of sockets) socket.destroy();
    server?.close();
  });

  it('ends at the reply deadline when the server answers at once, stops reading and drips its reply', async () => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      let head = '';
      const onData = (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        // The request's head is in: answer, and read nothing more of its body.
        socket.off('data', onData);
        socket.pause();
        socket.write('HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n');
        const timer = setInterval(() => socket.write('1\r\nx\r\n'), 100);
        timers.add(timer);
        socket.on('close', () => clearInterval(timer));
      };
      socket.on('data', onData);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const token: AccessToken = { value: 'early-token', expiresAt: Date.now() + 3_600_000, lifetimeSeconds: 3600, fromServer: true };
    const client = new ServiceClient({ baseUrl, tokens: { getToken: async () => token, invalidate: () => undefined }, deadlineMs: 1000 });
    const error = await client.uploadMedia(7, larger).then(
      () => assert.fail('the upload should fail'),
      (reason: unknown) => reason,
    );
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal(error.kind, 'timeout', error.message);
    assert.equal(error.status, 500);
    // The body never went out whole: the message says it cannot have been stored, not that it was sent.
    assert.equal(error.requestSent, 'partly');
    assert.equal(
      error.message,
      `Uploading to gallery 7 (larger.bin) got no complete reply from ${new URL(baseUrl).host} within 1 s and was stopped; it cannot have been stored. The server may be overloaded: try again later.`,
    );
  });
});
