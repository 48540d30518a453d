// A server that drips its reply (a byte now and then, never the end) defeats idle timeouts: every
// request to it needs an overall deadline, and a shared token request that nobody waits for any
// more must stop.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dripServer, json, type DripServer } from './helpers/scriptedServer';
import { waitFor } from './helpers/sandboxHttp';
import { spot } from './helpers/coreSetup';
import { TokenSource, type TokenSourceOptions } from '../../src/core/api/tokenSource';
import { ServiceClient, type ServiceClientOptions } from '../../src/core/api/serviceClient';
import { ServiceError, isCancellation } from '../../src/core/api/errors';

const TOKEN_REPLY = { status: 200, body: { access_token: 'drip-token', token_type: 'Bearer', expires_in: 3600 } };

/** Settles `promise`, or fails the test if it is still pending after `ms` (the old hang). */
async function settleWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<PromiseSettledResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still had no outcome after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.allSettled([promise]).then(([result]) => result), bound]);
  } finally {
    clearTimeout(timer);
  }
}

function rejection(result: PromiseSettledResult<unknown>): ServiceError {
  assert.equal(result.status, 'rejected', 'it should fail');
  const reason = (result as PromiseRejectedResult).reason;
  assert.ok(reason instanceof ServiceError, String(reason));
  return reason;
}

describe('deadlines against a server that drips its replies', function () {
  this.timeout(20_000);
  let server: DripServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('the token request fails at its deadline with a clear timeout', async () => {
    server = await dripServer();
    const tokens = new TokenSource({
      tokenUrl: `${server.url}/api/v2/access_token`,
      clientId: 'a',
      clientSecret: 'secret-b',
      deadlineMs: 800,
    } as TokenSourceOptions);
    const error = rejection(await settleWithin(tokens.getToken(), 8000, 'getToken'));
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /token request .*no complete reply .*within 0\.8 s/i);
    await waitFor(() => server!.closedByClient === 1, 'the server to see the request closed');
  });

  it('aborts the shared token request when every waiting caller has cancelled', async () => {
    server = await dripServer();
    const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, clientId: 'a', clientSecret: 'secret-b' });
    const first = new AbortController();
    const second = new AbortController();
    const waiting = [tokens.getToken(first.signal), tokens.getToken(second.signal)];
    await waitFor(() => server!.dripping.length === 1, 'one shared token request');
    first.abort();
    await assert.rejects(waiting[0], (error) => isCancellation(error));
    second.abort();
    await assert.rejects(waiting[1], (error) => isCancellation(error));
    await waitFor(() => server!.closedByClient === 1, 'the server to see the shared request closed');
    assert.equal(server.dripping.length, 1);
  });

  it('keeps the shared token request while one caller still waits, and a cancel is not a failure to remember', async () => {
    // The token arrives after 400 ms; one of two callers gives up before.
    const slow = createServer((request, response) => {
      request.resume();
      request.on('end', () => setTimeout(() => json(response, 200, TOKEN_REPLY.body), 400));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/api/v2/access_token`;
      const tokens = new TokenSource({ tokenUrl: url, clientId: 'a', clientSecret: 'secret-b' });
      const impatient = new AbortController();
      const gaveUp = tokens.getToken(impatient.signal);
      const patient = tokens.getToken();
      impatient.abort();
      await assert.rejects(gaveUp, (error) => isCancellation(error));
      assert.equal((await patient).value, 'drip-token');
      // Every caller cancels: the next caller asks again at once, not served a remembered failure.
      tokens.clear();
      const alone = new AbortController();
      const cancelled = tokens.getToken(alone.signal);
      alone.abort();
      await assert.rejects(cancelled, (error) => isCancellation(error));
      assert.equal((await tokens.getToken()).value, 'drip-token');
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  const calls: Array<[string, (client: ServiceClient) => Promise<unknown>]> = [
    ['an import', (client) => client.importSpot(spot('drip'))],
    ['a gallery read', (client) => client.getGallery(7)],
  ];
  for (const [name, call] of calls) {
    it(`${name} fails at the deadline of its attempt, and is not sent again`, async () => {
      server = await dripServer((request) => (request.url?.includes('access_token') ? TOKEN_REPLY : undefined));
      const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, clientId: 'a', clientSecret: 'secret-b' });
      const client = new ServiceClient({ baseUrl: server.url, tokens, deadlineMs: 800, retry: { baseMs: 1, maxMs: 5 } } as ServiceClientOptions);
      const error = rejection(await settleWithin(call(client), 8000, name));
      assert.equal(error.kind, 'timeout');
      assert.match(error.message, /no complete reply .*within 0\.8 s/);
      await waitFor(() => server!.closedByClient === 1, 'the server to see the request closed');
      assert.equal(server.dripping.length, 1, 'a deadline is not retried');
    });
  }

  for (const [when, silent] of [
    ['while their replies drip', false],
    ['before any reply', true],
  ] as const) {
    it(`imports in flight under one caller signal are all stopped as cancelled when it fires (${when}), and a request under a new signal goes through`, async () => {
      let answer = false;
      server = await dripServer(
        (request) => (request.url?.includes('access_token') ? TOKEN_REPLY : answer ? { status: 200, body: { data: { id: 5 } } } : undefined),
        200,
        silent,
      );
      const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, clientId: 'a', clientSecret: 'secret-b' });
      const client = new ServiceClient({ baseUrl: server.url, tokens, retry: { baseMs: 1, maxMs: 5 } } as ServiceClientOptions);
      const stop = new AbortController();
      const imports = [1, 2, 3].map((i) => client.importSpot(spot(`cancel-${i}`), { signal: stop.signal }));
      await waitFor(() => server!.dripping.length === 3, 'the three imports to reach the server');
      stop.abort();
      for (const result of await Promise.all(imports.map((call) => settleWithin(call, 3000, 'a cancelled import')))) {
        assert.ok(isCancellation(rejection(result)), 'cancelled, not failed');
      }
      await waitFor(() => server!.closedByClient === 3, 'the server to see the three requests closed');
      await assert.rejects(
        client.importSpot(spot('late'), { signal: stop.signal }),
        (error) => isCancellation(error),
        'a request under a fired signal is not sent',
      );
      answer = true;
      const next = new AbortController();
      assert.equal((await client.importSpot(spot('next'), { signal: next.signal })).spotId, 5);
    });
  }

  // The server reads the whole upload, then answers headers and drips the body (the trial's
  // case), or answers nothing at all: after the file went out whole, the reply has the deadline
  // every other request has, and the failure still says the file went out.
  const replies: Array<[string, 'answered' | 'whole', boolean]> = [
    ['whose reply drips', 'answered', false],
    ['that gets no reply at all', 'whole', true],
  ];
  for (const [name, requestSent, silent] of replies) {
    it(`an upload ${name} after its whole body was read fails at the deadline, and says the file was sent`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'spot-deadline-'));
      const file = join(dir, 'x.png');
      writeFileSync(file, Buffer.alloc(2048, 7));
      server = await dripServer((request) => (request.url?.includes('access_token') ? TOKEN_REPLY : undefined), 200, silent);
      try {
        const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, clientId: 'a', clientSecret: 'secret-b' });
        const client = new ServiceClient({ baseUrl: server.url, tokens, deadlineMs: 300 } as ServiceClientOptions);
        const error = rejection(await settleWithin(client.uploadMedia(3, file), 8000, 'uploadMedia'));
        assert.equal(error.kind, 'timeout', error.message);
        assert.match(error.message, /x\.png.*was sent.*reply .*did not finish within 0\.3 s/);
        assert.equal(error.requestSent, requestSent, 'the body went out whole: the workflow checks the gallery, never sends it blindly');
        await waitFor(() => server!.closedByClient === 1, 'the server to see the request closed');
        assert.equal(server.dripping.length, 1, 'an upload is not sent again');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it("does not cut an upload whose body flows for longer than the deadline: the reply's deadline starts when the body was sent", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spot-deadline-'));
    const file = join(dir, 'slow.bin');
    // Larger than what the loopback connection's buffers hold, so the client is still sending
    // when the server's slow reading ends (checked below).
    const size = 24 * 1024 * 1024;
    writeFileSync(file, Buffer.alloc(size, 5));
    const slowForMs = 600; // twice the deadline
    let sentWhenSlowEnded: number | undefined;
    let sent = 0;
    // Reads the body slowly but steadily (a pause after each chunk) for twice the deadline, then
    // at full speed, and answers as soon as it is all in.
    const slowReader = createServer((request, response) => {
      if (request.url?.includes('access_token')) {
        request.resume();
        request.on('end', () => json(response, 200, TOKEN_REPLY.body));
        return;
      }
      const slowUntil = Date.now() + slowForMs;
      request.on('data', () => {
        if (Date.now() >= slowUntil) {
          sentWhenSlowEnded ??= sent;
          return;
        }
        request.pause();
        setTimeout(() => request.resume(), 20);
      });
      request.on('end', () => json(response, 200, { data: { id: 1, type: 'media' } }));
    });
    await new Promise<void>((resolve) => slowReader.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(slowReader.address() as AddressInfo).port}`;
      const tokens = new TokenSource({ tokenUrl: `${url}/api/v2/access_token`, clientId: 'a', clientSecret: 'secret-b' });
      const client = new ServiceClient({ baseUrl: url, tokens, deadlineMs: 300 } as ServiceClientOptions);
      const outcome = await settleWithin(client.uploadMedia(3, file, { onProgress: (bytes) => (sent = bytes) }), 15_000, 'uploadMedia');
      assert.equal(outcome.status, 'fulfilled', outcome.status === 'rejected' ? String(outcome.reason) : '');
      assert.equal((outcome as PromiseFulfilledResult<{ bytes: number }>).value.bytes, size);
      assert.ok(
        sentWhenSlowEnded !== undefined && sentWhenSlowEnded < size,
        `the body was still going out after ${slowForMs} ms (else this proves nothing): ${sentWhenSlowEnded} of ${size} bytes`,
      );
    } finally {
      slowReader.closeAllConnections();
      await new Promise<void>((resolve) => slowReader.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
