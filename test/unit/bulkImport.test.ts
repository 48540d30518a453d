import * as assert from 'node:assert/strict';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';
import { bulkImport, type BulkItem } from '../../src/core/import/bulkImport';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { TokenSource, defaultTokenUrl } from '../../src/core/api/tokenSource';
import { AuthenticationError, isCancellation } from '../../src/core/api/errors';

const item = (label: string, value: unknown): BulkItem => ({ label, read: async () => (typeof value === 'string' ? value : JSON.stringify(value)) });

describe('bulk import', () => {
  let setup: CoreSetup | undefined;
  afterEach(async () => {
    await setup?.sandbox.close();
    setup = undefined;
  });

  it('imports good items, skips bad ones with their reason, and keeps order', async () => {
    setup = await startCore();
    const items = [
      item('a.json', spot('bulk-a')),
      item('broken.json', '{ not json'),
      item('b.json', spot('bulk-b', { state: 2, fld_1_5: null })),
      item('invalid.json', spot('bulk-c', { latitude: 'north' })),
      { label: 'unreadable.json', read: () => Promise.reject(new Error('EACCES')) },
    ];
    const progress: number[] = [];
    const { results, stoppedBy } = await bulkImport(items, setup.client, { concurrency: 2, onProgress: (done) => progress.push(done) });
    assert.equal(stoppedBy, undefined);
    assert.deepEqual(results.map((r) => [r.label, r.ok]), [['a.json', true], ['broken.json', false], ['b.json', true], ['invalid.json', false], ['unreadable.json', false]]);
    const b = results[2];
    assert.ok(b.ok && b.result.pendingGalleries.length === 1 && b.sourceId === 'bulk-b');
    const invalid = results[3];
    assert.ok(!invalid.ok && invalid.problems?.[0].pointer === '/data/attributes/latitude');
    assert.deepEqual(progress, [1, 2, 3, 4, 5]);
    assert.equal(setup.sandbox.counters.imports, 2, 'invalid items were never sent');
  });

  it('sends each file with the source_id it reported, exactly as written', async () => {
    setup = await startCore();
    const { results } = await bulkImport([item('spaced.json', spot(' trail-7 '))], setup.client);
    assert.ok(results[0].ok && results[0].sourceId === ' trail-7 ');
    const direct = await setup.client.importSpot(spot(' trail-7 '));
    assert.ok(results[0].ok && results[0].result.spotId === direct.spotId, 'Import Spot and bulk import address the same spot');
    assert.ok(setup.sandbox.spotBySourceId(' trail-7 '));
    assert.equal(setup.sandbox.spotCount(), 1);
  });

  it('never has more than the limit in flight', async () => {
    setup = await startCore({ faults: { latencyMs: 30 } });
    let inFlight = 0;
    let peak = 0;
    const client = {
      importSpot: async (document: unknown) => {
        peak = Math.max(peak, ++inFlight);
        try {
          return await setup!.client.importSpot(document);
        } finally {
          inFlight--;
        }
      },
    };
    const items = Array.from({ length: 20 }, (_, i) => item(`${i}`, spot(`limit-${i}`)));
    await bulkImport(items, client, { concurrency: 3 });
    assert.equal(peak, 3);
    await bulkImport(items, client, { concurrency: 99 });
    assert.equal(peak, 16, "the limit is capped at 16");
  });

  it('stops the run when the credentials are rejected, and says what was not attempted', async () => {
    setup = await startCore();
    const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(setup.sandbox.baseUrl), clientId: 'topic_1_api', clientSecret: 'wrong' });
    const client = new ServiceClient({ baseUrl: setup.sandbox.baseUrl, tokens });
    const items = [item('bad.json', '{'), ...Array.from({ length: 30 }, (_, i) => item(`${i}`, spot(`auth-${i}`)))];
    const { results, stoppedBy } = await bulkImport(items, client, { concurrency: 2 });
    assert.ok(stoppedBy instanceof AuthenticationError);
    assert.equal(results.length, 31);
    assert.ok(results.every((r) => !r.ok));
    assert.match((results[0] as { reason: string }).reason, /JSON/, 'the invalid file keeps its own reason');
    assert.ok(results.filter((r) => !r.ok && r.notAttempted).length >= 25, 'most were never attempted');
    assert.equal(setup.sandbox.counters.imports, 0);
  });

  it('stops promptly when cancelled, and re-running finishes the job without duplicates', async () => {
    setup = await startCore({ faults: { latencyMs: 20 } });
    const items = Array.from({ length: 200 }, (_, i) => item(`${i}`, spot(`cancel-${i}`)));
    const controller = new AbortController();
    const cancelled = await bulkImport(items, setup.client, { concurrency: 4, signal: controller.signal, onProgress: (done) => done === 10 && controller.abort() });
    assert.ok(isCancellation(cancelled.stoppedBy));
    const sentBeforeCancel = setup.sandbox.counters.imports;
    assert.ok(sentBeforeCancel < 30, `stopped promptly (${sentBeforeCancel} sent)`);
    assert.ok(cancelled.results.filter((r) => r.ok).length >= 10, 'what was imported is reported');
    assert.ok(cancelled.results.filter((r) => !r.ok && r.notAttempted).length >= 150);
    setup.sandbox.setFaults({});
    const { results } = await bulkImport(items, setup.client, { concurrency: 8 });
    assert.ok(results.every((r) => r.ok));
    assert.equal(setup.sandbox.spotCount(), 200);
  });
});
