// The sandbox's count of requests in flight, and the most there have been at once: the benches
// compare how many requests each client keeps open against the same service.
import * as assert from 'node:assert/strict';
import { rawRequest, useSandbox, waitFor } from './helpers/sandboxHttp';

describe('sandbox: requests in flight', () => {
  const ctx = useSandbox();
  afterEach(() => ctx.sandbox.setFaults({}));

  it('counts requests from their arrival to the end of their reply, and keeps the most there were at once', async () => {
    const counters = ctx.sandbox.counters;
    assert.equal(counters.requestsInFlight, 0);
    const before = counters.maxRequestsInFlight;
    // Held by the latency, five requests on five connections are all in flight together.
    ctx.sandbox.setFaults({ latencyMs: 150 });
    const url = `${ctx.sandbox.baseUrl}/api/v2.4/galleries/1`;
    const replies = Array.from({ length: 5 }, () => rawRequest(url, { headers: { Authorization: `Bearer ${ctx.token}` } }));
    await waitFor(() => counters.requestsInFlight === 5, 'five requests in flight');
    // The control endpoints are not counted: reading the counters does not change them.
    const read = JSON.parse((await rawRequest(`${ctx.sandbox.baseUrl}/__sandbox/counters`)).text) as { requestsInFlight: number; maxRequestsInFlight: number };
    assert.equal(read.requestsInFlight, 5);
    assert.equal(read.maxRequestsInFlight, Math.max(before, 5));
    await Promise.all(replies);
    await waitFor(() => counters.requestsInFlight === 0, 'every reply to end');
    assert.equal(counters.maxRequestsInFlight, Math.max(before, 5));

    // One at a time never raises the most beyond one.
    ctx.sandbox.setFaults({});
    for (let i = 0; i < 3; i++) await rawRequest(url, { headers: { Authorization: `Bearer ${ctx.token}` } });
    assert.equal(counters.requestsInFlight, 0);
    assert.equal(counters.maxRequestsInFlight, Math.max(before, 5));
  });
});
