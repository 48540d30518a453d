import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';
import { scriptedServer, json } from './helpers/scriptedServer';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { TokenSource } from '../../src/core/api/tokenSource';
import { ServiceError } from '../../src/core/api/errors';

describe('service client: what is retried and what is not', () => {
  let setup: CoreSetup | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'spot-faults-'));
  const file = join(dir, 'photo.jpg');
  writeFileSync(file, Buffer.alloc(200_000, 3));
  afterEach(async () => {
    await setup?.sandbox.close();
    setup = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function pendingGallery(): Promise<number> {
    return (await setup!.client.importSpot(spot(`faults-${Math.random()}`, { state: 2, fld_1_1: null }))).pendingGalleries[0].galleryId;
  }

  it('does not replay an upload answered 503, and says so', async () => {
    setup = await startCore();
    const galleryId = await pendingGallery();
    setup.sandbox.setFaults({ rate503: 1, appliesTo: ['upload'] });
    await assert.rejects(setup.client.uploadMedia(galleryId, file), (error: ServiceError) => error.status === 503);
    assert.equal(setup.sandbox.counters.faultsInjected, 1, 'sent once, not retried');
  });

  it('does not replay an upload whose connection dropped after the whole body went out; one cut off before is sent once more', async () => {
    setup = await startCore();
    const galleryId = await pendingGallery();
    setup.sandbox.setFaults({ rateDrop: 1, appliesTo: ['upload'] });
    // The sandbox drops the connection as soon as the request arrives: depending on the moment,
    // part of the body or all of it had been handed to the connection by then.
    const error = await setup.client.uploadMedia(galleryId, file).then(
      () => assert.fail('should fail'),
      (failure: ServiceError) => failure,
    );
    assert.equal(error.kind, 'network');
    assert.ok(error.requestSent === 'partly' || error.requestSent === 'whole', error.requestSent);
    // Cut off part-way, it is sent once more, and that second attempt meets the same drop; the
    // error is the last attempt's, so a 'whole' one may follow a first attempt cut off part-way.
    // Never a third: uploadPhases.test.ts shows each phase alone against a server it scripts.
    const sends = setup.sandbox.counters.faultsInjected;
    if (error.requestSent === 'partly') assert.equal(sends, 2, 'sent once more when it cannot have been stored');
    // Here only a third send is caught; a whole body sent again is caught in uploadPhases.test.ts.
    else assert.ok(sends === 1 || sends === 2, `sent ${sends} times (a third send would replay a whole body)`);
    setup.sandbox.setFaults({});
    assert.equal((await setup.client.getGallery(galleryId)).media.length, 0);
  });

  it('retries gallery reads through 429, 503 and drops', async () => {
    setup = await startCore();
    const galleryId = await pendingGallery();
    await setup.client.uploadMedia(galleryId, file);
    setup.sandbox.setFaults({ rate429: 0.2, rate503: 0.2, rateDrop: 0.1, appliesTo: ['gallery'], seed: 7 });
    const client = new ServiceClient({ baseUrl: setup.sandbox.baseUrl, tokens: setup.tokens, retry: { baseMs: 1, maxMs: 20, maxRetries: 15 } });
    for (let i = 0; i < 40; i++) assert.equal((await client.getGallery(galleryId)).media.length, 1);
    assert.ok(setup.sandbox.counters.faultsInjected > 5);
  });

  it('gives up after the bounded number of retries with the last status', async () => {
    setup = await startCore({ faults: { rate503: 1 } });
    const client = new ServiceClient({ baseUrl: setup.sandbox.baseUrl, tokens: setup.tokens, retry: { baseMs: 1, maxMs: 5, maxRetries: 3 } });
    await assert.rejects(client.importSpot(spot('never')), (error: ServiceError) => error.status === 503);
    assert.equal(setup.sandbox.counters.faultsInjected, 4, 'one try and three retries');
  });

  it('waits at least Retry-After before retrying', async () => {
    setup = await startCore({ faults: { rate429: 1, retryAfterSeconds: 1 } });
    const client = new ServiceClient({ baseUrl: setup.sandbox.baseUrl, tokens: setup.tokens, retry: { baseMs: 1, maxMs: 5000, maxRetries: 1 } });
    const started = Date.now();
    await assert.rejects(client.importSpot(spot('later')), (error: ServiceError) => error.status === 429);
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
  });

  it('stops at once, and says when to try again, when Retry-After is longer than the retry cap', async () => {
    setup = await startCore({ faults: { rate429: 1, retryAfterSeconds: 120 } });
    const client = new ServiceClient({ baseUrl: setup.sandbox.baseUrl, tokens: setup.tokens, retry: { baseMs: 1, maxMs: 1000, maxRetries: 2 } });
    const before = Date.now();
    await assert.rejects(client.importSpot(spot('much-later')), (error: ServiceError) => {
      assert.equal(error.status, 429);
      assert.equal(error.details.retryAfterMs, 120_000);
      // The day too when the wait ends after midnight (describeWait): a run just before midnight says it.
      assert.match(error.message, /asked to wait 120 s \(until (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d\)/, error.message);
      const retryAt = error.details.retryAt ?? 0;
      assert.ok(retryAt >= before + 120_000 && retryAt <= Date.now() + 120_000, `retryAt ${retryAt}`);
      return true;
    });
    assert.equal(setup.sandbox.counters.faultsInjected, 1, 'not sent again before the server said');
    // An upload (never retried) that meets Retry-After says when, too.
    setup.sandbox.setFaults({ rate429: 1, retryAfterSeconds: 5, appliesTo: ['upload'] });
    await assert.rejects(client.uploadMedia(1, file), (error: ServiceError) => error.status === 429 && /asked to wait 5 s \(until /.test(error.message));
  });

  it('keeps only the fields sent as pending, even when the server echoes numeric topic fields', async () => {
    const server = await scriptedServer((req, res) =>
      req.url?.includes('access_token')
        ? json(res, 200, { access_token: 'tok-abc-123', token_type: 'Bearer' })
        : json(res, 200, { data: { id: 5, attributes: { fld_1_1: 901, fld_1_2: 17, state: 2 } } }),
    );
    try {
      const client = new ServiceClient({
        baseUrl: server.url,
        tokens: new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, clientId: 'a', clientSecret: 'b' }),
      });
      const result = await client.importSpot(spot('echo', { state: 2, fld_1_1: null, fld_1_2: 17 }));
      assert.deepEqual(result.pendingGalleries, [{ field: 'fld_1_1', galleryId: 901 }]);
    } finally {
      await server.close();
    }
  });

  it('never repeats a token or a secret that the server echoes in an error', async () => {
    const server = await scriptedServer((req, res) =>
      req.url?.includes('access_token')
        ? req.url.includes('bad')
          ? json(res, 400, { error: 'invalid_request', error_description: 'got client_secret=s3cret-value' })
          : json(res, 200, { access_token: 'tok-abc-123', token_type: 'Bearer' })
        : json(res, 400, { message: 'bad request with Bearer tok-abc-123' }),
    );
    try {
      const tokens = new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, clientId: 'a', clientSecret: 'b' });
      const client = new ServiceClient({ baseUrl: server.url, tokens });
      await assert.rejects(
        client.importSpot(spot('echo')),
        (error: ServiceError) => !error.message.includes('tok-abc-123') && /Bearer \*\*\*/.test(error.message),
      );
      const bad = new TokenSource({ tokenUrl: `${server.url}/bad/access_token`, clientId: 'a', clientSecret: 's3cret-value' });
      await assert.rejects(bad.getToken(), (error: ServiceError) => !error.message.includes('s3cret-value') && /HTTP 400/.test(error.message));
    } finally {
      await server.close();
    }
  });
});
