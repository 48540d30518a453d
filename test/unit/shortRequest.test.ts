import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { scriptedServer, json } from './helpers/scriptedServer';
import { spot } from './helpers/coreSetup';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { TokenSource } from '../../src/core/api/tokenSource';
import { isCancellation, MalformedReplyError, type ServiceError } from '../../src/core/api/errors';
import { MAX_REPLY_BYTES } from '../../src/core/api/readReply';
import { shortRequest } from '../../src/core/api/shortRequest';
import { RequestDeadline } from '../../src/core/api/deadline';

// The client's imports, gallery reads and orderings go through undici's dispatcher API with the
// reply collected by a handler of ours (shortRequest.ts), not undici.request's stream: the limits
// and failures that stream gave for free are each the handler's now.
describe('service client: short requests through the dispatcher', function () {
  this.timeout(20_000);
  const token = (url: string) => new TokenSource({ tokenUrl: `${url}/api/v2/access_token`, clientId: 'a', clientSecret: 'b' });
  const answerToken = (response: ServerResponse) => json(response, 200, { access_token: 'short-token', token_type: 'Bearer', expires_in: 3600 });

  it('stops reading a reply larger than the limit, says so, and drops the connection', async () => {
    let closed = 0;
    const server = await scriptedServer((request, response) => {
      if (request.url?.includes('access_token')) return answerToken(response);
      request.socket.on('close', () => closed++);
      response.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      // One MiB more than the limit, then the reply never ends: only the limit stops the client.
      for (let sent = 0; sent <= MAX_REPLY_BYTES; sent += chunk.length) response.write(chunk);
    });
    try {
      const client = new ServiceClient({ baseUrl: server.url, tokens: token(server.url), deadlineMs: 10_000 });
      const error = await client.importSpot(spot('too-large')).then(
        () => assert.fail('should fail'),
        (failure: ServiceError) => failure,
      );
      assert.ok(error instanceof MalformedReplyError, String(error));
      // The request named where a sentence begins, not as "an unexpected reply to The import".
      assert.equal(error.message, 'The import failed: the reply is larger than 8 MiB.');
      for (const started = Date.now(); closed === 0 && Date.now() - started < 5000;) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(closed, 1, 'the connection was dropped');
    } finally {
      await server.close();
    }
  });

  it('a token reply larger than the limit is named the same way, read as a stream', async () => {
    const server = await scriptedServer((_request, response) => {
      // No content-length: read chunk by chunk against the limit (readText), not shortRequest.
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      for (let sent = 0; sent <= MAX_REPLY_BYTES; sent += chunk.length) response.write(chunk);
    });
    try {
      const error = await token(server.url)
        .getToken()
        .then(
          () => assert.fail('should fail'),
          (failure: ServiceError) => failure,
        );
      assert.ok(error instanceof MalformedReplyError, String(error));
      assert.equal(error.message, 'The token request failed: the reply is larger than 8 MiB.');
    } finally {
      await server.close();
    }
  });

  it('reads a reply that comes in many pieces, and passes on the status and Retry-After of a refusal', async () => {
    const server = await scriptedServer((request, response) => {
      if (request.url?.includes('access_token')) return answerToken(response);
      if (request.url?.includes('galleries')) {
        response.writeHead(503, { 'retry-after': '120', 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: 'down for maintenance' }));
        return;
      }
      const reply = JSON.stringify({ data: { type: 'spots', id: 77, attributes: { fld_1_3: 5, pad: 'x'.repeat(200_000) } } });
      response.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      for (let at = 0; at < reply.length; at += 7_000) response.write(reply.slice(at, at + 7_000));
      response.end();
    });
    try {
      const client = new ServiceClient({ baseUrl: server.url, tokens: token(server.url), retry: { maxRetries: 0 } });
      const result = await client.importSpot(spot('pieces', { state: 2, fld_1_3: null }));
      assert.deepEqual(result.pendingGalleries, [{ field: 'fld_1_3', galleryId: 5 }]);
      assert.equal(result.spotId, 77);
      const error = await client.getGallery(5).then(
        () => assert.fail('should fail'),
        (failure: ServiceError) => failure,
      );
      assert.equal(error.status, 503);
      assert.match(error.message, /Reading gallery 5 failed with HTTP 503: down for maintenance\. The server asked to wait 120 s/);
    } finally {
      await server.close();
    }
  });

  it("reads a reply that begins with a byte-order mark, as undici.request's text() did", async () => {
    const server = await scriptedServer((request, response) => {
      if (request.url?.includes('access_token')) return answerToken(response);
      const reply = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ data: { type: 'spots', id: 12, attributes: {} } }))]);
      response.writeHead(200, { 'content-type': 'application/vnd.api+json', 'content-length': String(reply.length) });
      response.end(reply);
    });
    try {
      const client = new ServiceClient({ baseUrl: server.url, tokens: token(server.url) });
      assert.equal((await client.importSpot(spot('bom'))).spotId, 12);
    } finally {
      await server.close();
    }
  });

  it('a 401 whose body breaks off still renews the token and sends the request once more', async () => {
    let imports = 0;
    let tokensIssued = 0;
    const server = await scriptedServer((request, response) => {
      if (request.url?.includes('access_token')) {
        tokensIssued++;
        return answerToken(response);
      }
      if (++imports === 1) {
        // The head of a refusal, then the connection goes before the promised body.
        response.writeHead(401, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"message":"expired');
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      }
      json(response, 200, { data: { type: 'spots', id: 13, attributes: {} } });
    });
    try {
      const client = new ServiceClient({ baseUrl: server.url, tokens: token(server.url), retry: { maxRetries: 0 } });
      assert.equal((await client.importSpot(spot('refused-then-cut'))).spotId, 13);
      assert.equal(imports, 2, 'sent once more');
      assert.equal(tokensIssued, 2, 'with a new token');
    } finally {
      await server.close();
    }
  });

  it('a request still waiting for a connection ends at once when the caller cancels, and never goes out', async () => {
    let imports = 0;
    let answerFirst: (() => void) | undefined;
    const server = await scriptedServer((request, response) => {
      if (request.url?.includes('access_token')) return answerToken(response);
      imports++;
      // The first import holds the only connection until the test lets it go.
      answerFirst = () => json(response, 200, { data: { type: 'spots', id: 1, attributes: {} } });
    });
    const dispatcher = new Agent({ connections: 1 });
    const dispatch = dispatcher.dispatch.bind(dispatcher);
    let dispatched = 0;
    dispatcher.dispatch = (options, handler) => {
      dispatched++;
      return dispatch(options, handler);
    };
    const until = async (done: () => boolean, what: string) => {
      for (const started = Date.now(); !done(); await new Promise((resolve) => setTimeout(resolve, 10))) {
        if (Date.now() - started > 5000) assert.fail(`waited 5 s for ${what}`);
      }
    };
    try {
      const client = new ServiceClient({ baseUrl: server.url, tokens: token(server.url), dispatcher, deadlineMs: 15_000 });
      const holding = client.importSpot(spot('holds-the-connection'));
      await until(() => imports === 1, 'the first import to reach the server');
      const cancel = new AbortController();
      const waiting = client.importSpot(spot('waits'), { signal: cancel.signal });
      await until(() => dispatched === 2, 'the second import to wait for the connection');
      const cancelledAt = Date.now();
      cancel.abort();
      await assert.rejects(waiting, (error) => isCancellation(error));
      assert.ok(Date.now() - cancelledAt < 1000, 'rejected at once, not when a connection came free');
      answerFirst!();
      assert.equal((await holding).spotId, 1);
      // The connection is free now: a request still queued would go out on it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(imports, 1, 'the cancelled import never reached the server');
    } finally {
      await dispatcher.close();
      await server.close();
    }
  });

  it('an address it cannot send to rejects the promise, as every other failure does, and is never thrown', async () => {
    const dispatcher = new Agent();
    try {
      const deadline = new RequestDeadline(undefined, 5_000);
      let reply: Promise<unknown> | undefined;
      assert.doesNotThrow(() => {
        reply = shortRequest(dispatcher, 'not an address', { method: 'GET', headers: {}, deadline, what: () => 'The test request' });
      });
      await assert.rejects(reply!, /Invalid URL/);
      deadline.dispose();
    } finally {
      await dispatcher.close();
    }
  });
});
