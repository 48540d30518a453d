import * as assert from 'node:assert/strict';
import { FaultInjector, mulberry32, validateFaults } from '../../src/sandbox/faults';
import { pendingGallery, rawRequest, requestToken, useSandbox, type RawReply } from './helpers/sandboxHttp';

describe('sandbox: fault draws', () => {
  it('honours each rate over a large seeded sample', () => {
    const injector = new FaultInjector({ rate429: 0.2, rate503: 0.1, rateDrop: 0.05, seed: 7 });
    const seen = { '429': 0, '503': 0, drop: 0, none: 0 };
    const draws = 100_000;
    for (let i = 0; i < draws; i++) seen[injector.draw() ?? 'none']++;
    assert.ok(Math.abs(seen['429'] / draws - 0.2) < 0.01, `429 share ${seen['429'] / draws}`);
    assert.ok(Math.abs(seen['503'] / draws - 0.1) < 0.01, `503 share ${seen['503'] / draws}`);
    assert.ok(Math.abs(seen.drop / draws - 0.05) < 0.01, `drop share ${seen.drop / draws}`);
  });

  it('repeats the same sequence for the same seed, and draws nothing while off', () => {
    const a = new FaultInjector({ rate429: 0.5, seed: 42 });
    const b = new FaultInjector({ rate429: 0.5, seed: 42 });
    const sequence = (injector: FaultInjector) => Array.from({ length: 50 }, () => injector.draw());
    assert.deepEqual(sequence(a), sequence(b));
    assert.equal(new FaultInjector({}).draw(), undefined);
    const random = mulberry32(1);
    for (let i = 0; i < 1000; i++) {
      const value = random();
      assert.ok(value >= 0 && value < 1);
    }
  });

  it('refuses invalid settings with a message naming the member', () => {
    assert.throws(() => validateFaults({ rate429: 1.5 }), /rate429 must be a number from 0 to 1/);
    assert.throws(() => validateFaults({ rate429: 0.6, rate503: 0.6 }), /must not exceed 1/);
    assert.throws(() => validateFaults({ latencyMs: -1 }), /latencyMs/);
    assert.throws(() => validateFaults({ appliesTo: ['import', 'everything'] }), /appliesTo/);
    assert.throws(() => validateFaults({ rate_429: 0.1 }), /unknown fault setting "rate_429"/);
    assert.deepEqual(validateFaults({ rate503: 0.25, appliesTo: ['token', 'token'] }), { rate503: 0.25, appliesTo: ['token'] });
  });
});

describe('sandbox: fault injection over HTTP', () => {
  const ctx = useSandbox();
  afterEach(() => ctx.sandbox.setFaults({}));

  async function outcome(url: string, token: string): Promise<RawReply | 'dropped'> {
    try {
      return await rawRequest(url, { headers: { Authorization: `Bearer ${token}` } });
    } catch {
      return 'dropped';
    }
  }

  it('answers roughly the configured shares with 429 (Retry-After), 503 and cut connections', async function () {
    this.timeout(60_000);
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'faults-1');
    ctx.sandbox.setFaults({ rate429: 0.2, rate503: 0.1, rateDrop: 0.05, retryAfterSeconds: 3, seed: 2024 });
    const before = { ...ctx.sandbox.counters };
    const seen = { 200: 0, 429: 0, 503: 0, dropped: 0, other: 0 };
    const total = 600;
    for (let i = 0; i < total; i++) {
      const reply = await outcome(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/${galleryId}`, ctx.token);
      if (reply === 'dropped') seen.dropped++;
      else if (reply.status === 200 || reply.status === 429 || reply.status === 503) {
        seen[reply.status]++;
        if (reply.status === 429) assert.equal(reply.headers['retry-after'], '3');
        if (reply.status !== 200) assert.equal(JSON.parse(reply.text).errors[0].status, String(reply.status));
      } else seen.other++;
    }
    assert.equal(seen.other, 0);
    // Seeded, so the numbers are the same every run; the tolerance only says "roughly the rate".
    assert.ok(Math.abs(seen[429] / total - 0.2) < 0.05, `429: ${seen[429]}`);
    assert.ok(Math.abs(seen[503] / total - 0.1) < 0.05, `503: ${seen[503]}`);
    assert.ok(Math.abs(seen.dropped / total - 0.05) < 0.04, `dropped: ${seen.dropped}`);
    assert.ok(seen.dropped > 0);
    const counters = ctx.sandbox.counters;
    assert.equal(counters.faultsInjected - before.faultsInjected, seen[429] + seen[503] + seen.dropped);
    assert.equal(counters.galleryReads - before.galleryReads, seen[200], 'faulted requests are not counted as reads');
  });

  it('leaves the token endpoint alone by default, and hits it when asked, answering in its error shape', async () => {
    ctx.sandbox.setFaults({ rate503: 1 });
    assert.equal((await requestToken(ctx.sandbox.baseUrl)).status, 200);
    ctx.sandbox.setFaults({ rate503: 1, appliesTo: ['token'] });
    const faulted = await requestToken(ctx.sandbox.baseUrl);
    assert.equal(faulted.status, 503);
    // In the token endpoint's own error shape (error, error_description, message), as the interface shows it.
    const body = JSON.parse(faulted.text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description', 'message']);
    assert.equal(body.message, body.error_description);
    const galleryId = 1;
    const reply = await outcome(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/${galleryId}`, ctx.token);
    assert.ok(reply !== 'dropped' && reply.status === 404, 'gallery reads are not faulted when appliesTo names only the token');
  });

  it('adds latency to API requests only', async () => {
    ctx.sandbox.setFaults({ latencyMs: 150 });
    let started = Date.now();
    await outcome(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/1`, ctx.token);
    assert.ok(Date.now() - started >= 140, `API request took ${Date.now() - started} ms`);
    started = Date.now();
    await requestToken(ctx.sandbox.baseUrl);
    assert.ok(Date.now() - started < 140, `token request took ${Date.now() - started} ms`);
  });

  it('throws on invalid faults from setFaults() and keeps the old ones', async () => {
    ctx.sandbox.setFaults({ rate429: 1 });
    assert.throws(() => ctx.sandbox.setFaults({ rate429: 2 }), TypeError);
    const reply = await outcome(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/1`, ctx.token);
    assert.ok(reply !== 'dropped' && reply.status === 429);
  });
});

describe('sandbox: /__sandbox endpoints', () => {
  const ctx = useSandbox();

  it('GET /__sandbox/counters answers the live counters as JSON, without a token', async () => {
    await requestToken(ctx.sandbox.baseUrl);
    const reply = await rawRequest(`${ctx.sandbox.baseUrl}/__sandbox/counters`);
    assert.equal(reply.status, 200);
    assert.match(reply.headers['content-type'] ?? '', /^application\/json/);
    const counters = JSON.parse(reply.text);
    assert.deepEqual(counters, JSON.parse(JSON.stringify(ctx.sandbox.counters)));
    assert.equal(counters.tokenRequests, 2, 'the suite token and this one');
    for (const key of ['imports', 'uploads', 'galleryReads', 'faultsInjected', 'tokensIssued', 'unauthorized', 'mediaOrders']) {
      assert.equal(typeof counters[key], 'number', key);
    }
  });

  it('POST /__sandbox/faults sets faults (JSON) and answers them; GET reads them back', async () => {
    const set = await rawRequest(`${ctx.sandbox.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ rate503: 1, appliesTo: ['import'] }),
    });
    assert.equal(set.status, 200);
    assert.deepEqual(JSON.parse(set.text), { rate503: 1, appliesTo: ['import'] });
    const imported = await rawRequest(`${ctx.sandbox.baseUrl}/api/v2.4/spots/import`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(imported.status, 503);
    const read = await rawRequest(`${ctx.sandbox.baseUrl}/__sandbox/faults`);
    assert.deepEqual(JSON.parse(read.text), { rate503: 1, appliesTo: ['import'] });
    const off = await rawRequest(`${ctx.sandbox.baseUrl}/__sandbox/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    assert.deepEqual(JSON.parse(off.text), {});
  });

  it('refuses invalid faults with 400 and a reason, and non-JSON with 415', async () => {
    const bad = await rawRequest(`${ctx.sandbox.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ rate429: 'lots' }),
    });
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.text).errors[0].detail, /rate429/);
    const form = await rawRequest(`${ctx.sandbox.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'rate429=1',
    });
    assert.equal(form.status, 415);
  });
});
