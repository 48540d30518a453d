import * as assert from 'node:assert/strict';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelayMs, sleep } from '../../src/core/api/retryPolicy';
import { isCancellation } from '../../src/core/api/errors';

describe('retry policy', () => {
  it('waits a random share of an exponential step, capped', () => {
    const max = { ...DEFAULT_RETRY_POLICY, random: () => 1 };
    assert.equal(retryDelayMs(0, max), 250);
    assert.equal(retryDelayMs(3, max), 2000);
    assert.equal(retryDelayMs(20, max), 30_000);
    assert.equal(retryDelayMs(3, { ...max, random: () => 0 }), 0);
    assert.equal(retryDelayMs(3, { ...max, random: () => 0.5 }), 1000);
  });

  it('never waits less than Retry-After, nor more than the cap', () => {
    const none = { ...DEFAULT_RETRY_POLICY, random: () => 0 };
    assert.equal(retryDelayMs(0, none, 3000), 3000);
    assert.equal(retryDelayMs(0, none, 3_600_000), 30_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    assert.equal(parseRetryAfter(['0']), 0);
    const now = Date.parse('2026-11-22T00:00:00Z');
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 00:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Sun, 21 Nov 2026 00:00:05 GMT', now), 0);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });

  it('stops sleeping when cancelled', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(sleep(10_000, controller.signal), (error) => isCancellation(error));
    assert.ok(Date.now() - started < 5000);
  });
});
