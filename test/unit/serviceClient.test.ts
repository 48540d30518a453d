import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';
import { scriptedServer, json } from './helpers/scriptedServer';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { AuthenticationError, MalformedReplyError, ServiceError, isCancellation } from '../../src/core/api/errors';

describe('service client against the sandbox', () => {
  let setup: CoreSetup | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'spot-client-'));
  afterEach(async () => {
    await setup?.sandbox.close();
    setup = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates, then updates the same spot by source_id', async () => {
    setup = await startCore();
    const created = await setup.client.importSpot(spot('upsert-1'));
    const updated = await setup.client.importSpot(spot('upsert-1', { latitude: 10 }));
    assert.equal(updated.spotId, created.spotId);
    assert.deepEqual(created.pendingGalleries, []);
    assert.equal(setup.sandbox.spotCount(), 1);
    assert.equal(setup.sandbox.spotBySourceId('upsert-1')?.attributes.latitude, 10);
  });

  it('round-trips pending galleries: import, upload to each, read back', async () => {
    setup = await startCore();
    const { client } = setup;
    const result = await client.importSpot(spot('gallery-1', { state: 2, fld_1_10: null, fld_1_11: null }));
    assert.equal(result.state, 2);
    assert.deepEqual(result.pendingGalleries.map((g) => g.field).sort(), ['fld_1_10', 'fld_1_11']);
    const again = await client.importSpot(spot('gallery-1', { state: 2, fld_1_10: null, fld_1_11: null }));
    assert.deepEqual(again.pendingGalleries, result.pendingGalleries, 're-import reuses the galleries');
    for (const [index, gallery] of result.pendingGalleries.entries()) {
      const file = join(dir, `photo-${index}.png`);
      writeFileSync(file, Buffer.alloc(5000 + index, 7));
      const progress: number[] = [];
      const upload = await client.uploadMedia(gallery.galleryId, file, { onProgress: (sent) => progress.push(sent) });
      assert.equal(upload.mimeType, 'image/png');
      assert.equal(upload.bytes, 5000 + index);
      assert.equal(progress[progress.length - 1], 5000 + index);
      const read = await client.getGallery(gallery.galleryId);
      assert.equal(read.id, gallery.galleryId);
      assert.deepEqual(
        read.media.map((m) => [m.file, m.mimeType]),
        [[`photo-${index}.png`, 'image/png']],
      );
    }
    assert.equal(setup.sandbox.counters.uploads, 2);
  });

  it('tells onFailure of each failure it throws, once, after the retries (the owner notes whose request it was)', async () => {
    setup = await startCore();
    const failures: unknown[] = [];
    const client = new ServiceClient({
      baseUrl: setup.sandbox.baseUrl,
      tokens: setup.tokens,
      retry: { baseMs: 2, maxMs: 10, maxRetries: 2 },
      onFailure: (error) => failures.push(error),
    });
    await client.importSpot(spot('told-1'));
    assert.equal(failures.length, 0, 'a success is not a failure');
    const notFound = await client.getGallery(987654).catch((error: unknown) => error);
    assert.ok(notFound instanceof ServiceError && notFound.status === 404);
    setup.sandbox.setFaults({ rate503: 1 });
    const busy = await client.getGallery(987654).catch((error: unknown) => error);
    assert.ok(busy instanceof ServiceError && busy.status === 503);
    assert.deepEqual(failures, [notFound, busy]);
  });

  it('renews the token once on 401 and replays', async () => {
    setup = await startCore();
    await setup.client.importSpot(spot('replay-1'));
    setup.sandbox.expireAllTokens();
    await setup.client.importSpot(spot('replay-2'));
    assert.equal(setup.sandbox.counters.tokenRequests, 2);
    setup.sandbox.expireAllTokens();
    const file = join(dir, 'replay.txt');
    writeFileSync(file, 'hello');
    const gallery = (await setup.client.importSpot(spot('replay-3', { state: 2, fld_1_1: null }))).pendingGalleries[0];
    setup.sandbox.expireAllTokens();
    assert.equal((await setup.client.uploadMedia(gallery.galleryId, file)).mimeType, 'text/plain');
  });

  it('gives up with an AuthenticationError when a fresh token is refused too', async () => {
    const server = await scriptedServer((req, res) =>
      req.url?.includes('access_token')
        ? json(res, 200, { access_token: 'tok-123', token_type: 'Bearer', expires_in: 60 })
        : json(res, 401, { errors: [{ detail: 'nope' }] }),
    );
    try {
      const { TokenSource } = await import('../../src/core/api/tokenSource');
      const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, clientId: 'a', clientSecret: 'b' });
      const client = new ServiceClient({ baseUrl: server.url, tokens });
      await assert.rejects(client.importSpot(spot('x')), (error: ServiceError) => error instanceof AuthenticationError && !error.message.includes('tok-123'));
      assert.equal(server.requests, 4, 'token, import, token, import');
    } finally {
      await server.close();
    }
  });

  it('imports 500 spots exactly once each under 20% injected 429, 503 and dropped connections', async function () {
    this.timeout(60_000);
    setup = await startCore({ faults: { rate429: 0.07, rate503: 0.07, rateDrop: 0.06, retryAfterSeconds: 0 } });
    const client = new ServiceClient({ baseUrl: setup.sandbox.baseUrl, tokens: setup.tokens, retry: { baseMs: 2, maxMs: 40, maxRetries: 12 } });
    const ids = new Map<string, number>();
    const sources = Array.from({ length: 500 }, (_, i) => `fault-${i}`);
    for (let i = 0; i < sources.length; i += 25) {
      const batch = sources.slice(i, i + 25);
      const results = await Promise.all(batch.map((sourceId) => client.importSpot(spot(sourceId))));
      batch.forEach((sourceId, index) => ids.set(sourceId, results[index].spotId));
    }
    assert.equal(setup.sandbox.spotCount(), 500);
    for (const sourceId of sources) assert.equal(setup.sandbox.spotBySourceId(sourceId)?.id, ids.get(sourceId));
    assert.ok(setup.sandbox.counters.faultsInjected > 50, `faults were injected (${setup.sandbox.counters.faultsInjected})`);
  });

  it('reports the server words and the status, never the token', async () => {
    setup = await startCore();
    const token = (await setup.tokens.getToken()).value;
    await assert.rejects(
      setup.client.importSpot({ data: { type: 'spots', attributes: { topic_id: 1, source_id: 'bad', latitude: 200, longitude: 0 } } }),
      (error: ServiceError) => {
        assert.equal(error.kind, 'http');
        assert.ok(error.status === 400 || error.status === 422);
        assert.match(error.message, /latitude/);
        assert.ok(!error.message.includes(token));
        return true;
      },
    );
    await assert.rejects(setup.client.getGallery(999_999), (error: ServiceError) => error.status === 404 && /HTTP 404/.test(error.message));
    await assert.rejects(setup.client.getGallery(-1), (error: ServiceError) => error.kind === 'configuration');
  });

  describe('malformed API replies become typed errors', () => {
    const replies: Array<[string, number, string]> = [
      ['import reply not JSON', 200, 'OK'],
      ['import reply without data.id', 200, '{"data":{}}'],
      ['import reply with a text id', 200, '{"data":{"id":"12"}}'],
    ];
    for (const [name, status, body] of replies) {
      it(name, async () => {
        const server = await scriptedServer((req, res) =>
          req.url?.includes('access_token') ? json(res, 200, { access_token: 't', token_type: 'bearer' }) : json(res, status, body),
        );
        try {
          const { TokenSource } = await import('../../src/core/api/tokenSource');
          const client = new ServiceClient({ baseUrl: server.url, tokens: new TokenSource({ tokenUrl: `${server.url}/t`, clientId: 'a', clientSecret: 'b' }) });
          await assert.rejects(client.importSpot(spot('x')), MalformedReplyError);
          await assert.rejects(client.getGallery(1), MalformedReplyError);
        } finally {
          await server.close();
        }
      });
    }
  });

  it('cancels an upload promptly and stores nothing', async function () {
    this.timeout(30_000);
    setup = await startCore({ faults: { latencyMs: 0 } });
    const gallery = (await setup.client.importSpot(spot('cancel-1', { state: 2, fld_1_1: null }))).pendingGalleries[0];
    const file = join(dir, 'big.bin');
    writeFileSync(file, Buffer.alloc(64 * 1024 * 1024, 1));
    const controller = new AbortController();
    const started = Date.now();
    const upload = setup.client.uploadMedia(gallery.galleryId, file, {
      signal: controller.signal,
      onProgress: (sent) => sent > 1024 * 1024 && controller.abort(),
    });
    await assert.rejects(upload, (error) => isCancellation(error));
    assert.ok(Date.now() - started < 10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await setup.client.getGallery(gallery.galleryId)).media.length, 0);
  });

  it('refuses a missing file and a folder with a clear message', async () => {
    setup = await startCore();
    await assert.rejects(setup.client.uploadMedia(1, join(dir, 'nope.png')), /does not exist/);
    await assert.rejects(setup.client.uploadMedia(1, dir), /is not a file/);
  });

  it('names a refused connection clearly', async () => {
    setup = await startCore();
    const baseUrl = setup.sandbox.baseUrl;
    const tokens = setup.tokens;
    await tokens.getToken();
    await setup.sandbox.close();
    setup = undefined;
    const client = new ServiceClient({ baseUrl, tokens, retry: { maxRetries: 1, baseMs: 1 } });
    await assert.rejects(client.importSpot(spot('gone')), (error: ServiceError) => error.kind === 'network' && /refused/.test(error.message));
  });
});
