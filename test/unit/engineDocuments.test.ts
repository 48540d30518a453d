// The import engine on spot documents without media (what Import Folder and spot-import import
// send for a folder of documents): good ones imported, bad ones reported with their reason and
// never sent, the order kept, a bound on what is in flight, and a typed outcome whatever ends the
// run: refused credentials, a cancel, a cancellation from below the client, a defect.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';
import { journalAccountOf, runImport, type ImportRunOptions, type SpotInput } from '../../src/core/import';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { TokenSource, defaultTokenUrl } from '../../src/core/api/tokenSource';
import { AuthenticationError, CancelledError } from '../../src/core/api/errors';
import { testAccounts } from './helpers/testAccounts';

const input = (label: string, value: unknown): SpotInput => ({
  path: label,
  label,
  read: async () => (typeof value === 'string' ? value : JSON.stringify(value)),
  media: false,
});
const text = (sourceId: string) => JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 1, longitude: 2 } } });

describe('import engine: spot documents without media', () => {
  let setup: CoreSetup | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-documents-'));
  });
  afterEach(async () => {
    await setup?.sandbox.close();
    setup = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** The engine's options for a client: a journal in the test's folder. */
  function options(client: ImportRunOptions['client'] & { apiRoot?: string }, extra: Partial<ImportRunOptions> = {}): ImportRunOptions {
    return {
      client,
      journal: { accounts: testAccounts, dir: join(dir, '.spot-import'), account: journalAccountOf(client.apiRoot ?? 'http://127.0.0.1/api/v2.4', 'test') },
      media: false,
      ...extra,
    };
  }

  it('imports good documents, reports bad ones with their reason, typed, and keeps the order', async () => {
    setup = await startCore();
    const inputs = [
      input('a.json', spot('engine-a')),
      input('broken.json', '{ not json'),
      input('b.json', spot('engine-b', { state: 2, fld_1_5: null })),
      input('invalid.json', spot('engine-c', { latitude: 'north' })),
      { path: 'unreadable.json', read: () => Promise.reject(new Error('EACCES')) },
    ];
    const progress: number[] = [];
    const { spots, stop } = await runImport(
      inputs,
      options(setup.client, { concurrency: 2, onProgress: (event) => event.kind === 'spotDone' && progress.push(event.done) }),
    );
    assert.equal(stop, undefined);
    assert.deepEqual(
      spots.map((s) => [s.label, s.status, s.failure?.kind]),
      [
        ['a.json', 'done', undefined],
        ['broken.json', 'invalid', 'invalid'],
        ['b.json', 'done', undefined],
        ['invalid.json', 'invalid', 'invalid'],
        ['unreadable.json', 'failed', 'unreadable'],
      ],
    );
    assert.deepEqual(
      spots[2].galleries.map((g) => g.field),
      ['fld_1_5'],
      'the pending gallery, with its id',
    );
    assert.equal(spots[3].problems[0].pointer, '/data/attributes/latitude');
    assert.deepEqual(progress, [1, 2, 3, 4, 5]);
    assert.equal(setup.sandbox.counters.imports, 2, 'invalid documents were never sent');
    assert.deepEqual(
      spots.filter((s) => s.status === 'done').map((s) => s.change),
      ['new', 'new'],
    );
  });

  it('a second run sends nothing that is done: the spots are unchanged; a changed text is an update', async () => {
    setup = await startCore();
    const first = await runImport([input('a.json', spot('again-a')), input('b.json', spot('again-b'))], options(setup.client));
    assert.deepEqual(
      first.spots.map((s) => s.change),
      ['new', 'new'],
    );
    const second = await runImport([input('a.json', spot('again-a')), input('b.json', spot('again-b', { latitude: 48.3 }))], options(setup.client));
    assert.deepEqual(
      second.spots.map((s) => [s.change, s.sent]),
      [
        ['unchanged', false],
        ['updated', true],
      ],
    );
    assert.equal(setup.sandbox.counters.imports, 3);
  });

  it('sends each document with the source_id it reported, exactly as written', async () => {
    setup = await startCore();
    const { spots } = await runImport([input('spaced.json', spot(' trail-7 '))], options(setup.client));
    assert.equal(spots[0].sourceId, ' trail-7 ');
    const direct = await setup.client.importSpot(spot(' trail-7 '));
    assert.equal(spots[0].spotId, direct.spotId, 'Import Spot and the engine address the same spot');
    assert.equal(setup.sandbox.spotCount(), 1);
  });

  it('never has more than the limit in flight', async () => {
    setup = await startCore({ faults: { latencyMs: 30 } });
    let inFlight = 0;
    let peak = 0;
    const real = setup.client;
    const client = {
      apiRoot: real.apiRoot,
      getGallery: real.getGallery.bind(real),
      uploadMedia: real.uploadMedia.bind(real),
      setMediaOrder: real.setMediaOrder.bind(real),
      importSpot: async (...args: Parameters<ServiceClient['importSpot']>) => {
        peak = Math.max(peak, ++inFlight);
        try {
          return await real.importSpot(...args);
        } finally {
          inFlight--;
        }
      },
    };
    const inputs = (run: string) => Array.from({ length: 20 }, (_, i) => input(`${i}`, spot(`limit-${run}-${i}`)));
    await runImport(inputs('a'), options(client, { concurrency: 3 }));
    assert.equal(peak, 3);
    await runImport(inputs('b'), options(client, { concurrency: 99 }));
    assert.equal(peak, 16, 'the limit is capped at 16');
  });

  it('stops the run when the credentials are rejected, typed, and says what was not started', async () => {
    setup = await startCore();
    const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(setup.sandbox.baseUrl), clientId: 'topic_1_api', clientSecret: 'wrong' });
    const client = new ServiceClient({ baseUrl: setup.sandbox.baseUrl, tokens });
    const inputs = [input('bad.json', '{'), ...Array.from({ length: 30 }, (_, i) => input(`${i}`, spot(`auth-${i}`)))];
    const { spots, stop } = await runImport(inputs, options(client, { concurrency: 2 }));
    assert.equal(stop?.kind, 'credentials');
    assert.ok(stop.error instanceof AuthenticationError);
    assert.equal(spots.length, 31);
    assert.ok(spots.every((s) => s.status !== 'done'));
    assert.match(spots[0].reason ?? '', /JSON/, 'the invalid document keeps its own reason');
    const notStarted = spots.filter((s) => s.failure?.kind === 'not-started');
    assert.ok(notStarted.length >= 25, 'most were never started');
    assert.ok(notStarted.every((s) => s.failure?.because === 'credentials' && /credentials were refused/.test(s.reason ?? '')));
    assert.equal(setup.sandbox.counters.imports, 0);
  });

  it('stops when the service cannot be reached (after the client retried), instead of failing every document alike', async () => {
    setup = await startCore();
    const baseUrl = setup.sandbox.baseUrl;
    await setup.client.importSpot(spot('reach-token')); // a token first: only the imports meet the closed port
    await setup.sandbox.close();
    const { spots, stop } = await runImport(
      Array.from({ length: 6 }, (_, i) => input(`${i}`, spot(`unreachable-${i}`))),
      options(setup.client, {
        concurrency: 1,
        journal: { accounts: testAccounts, dir: join(dir, '.spot-import'), account: journalAccountOf(`${baseUrl}/api/v2.4`, 'test') },
      }),
    );
    setup = undefined;
    assert.equal(stop?.kind, 'network', JSON.stringify(stop?.error.message));
    assert.equal(spots[0].failure?.kind, 'network');
    assert.deepEqual(
      spots.slice(1).map((s) => s.failure?.because),
      [...Array(5).fill('network')],
    );
  });

  it('stops promptly when cancelled, and re-running finishes the job without duplicates', async () => {
    setup = await startCore({ faults: { latencyMs: 20 } });
    const inputs = Array.from({ length: 200 }, (_, i) => input(`${i}`, spot(`cancel-${i}`)));
    const controller = new AbortController();
    const cancelled = await runImport(
      inputs,
      options(setup.client, {
        concurrency: 4,
        signal: controller.signal,
        onProgress: (event) => event.kind === 'spotDone' && event.done === 10 && controller.abort(),
      }),
    );
    assert.equal(cancelled.stop?.kind, 'cancelled');
    const sentBeforeCancel = setup.sandbox.counters.imports;
    assert.ok(sentBeforeCancel < 30, `stopped promptly (${sentBeforeCancel} sent)`);
    assert.ok(cancelled.spots.filter((s) => s.status === 'done').length >= 10, 'what was imported is reported');
    assert.ok(cancelled.spots.filter((s) => s.failure?.because === 'cancelled').length >= 150);
    setup.sandbox.setFaults({});
    const again = await runImport(inputs, options(setup.client, { concurrency: 8 }));
    assert.ok(again.spots.every((s) => s.status === 'done'));
    assert.equal(setup.sandbox.spotCount(), 200);
  });

  // A defect in the client (a TypeError) is not a network failure: saying "could not reach" would
  // send the user after the wrong cause (and stop the run as if the network were down).
  it('reports a TypeError as an unexpected failure, not a network error, and imports the rest', async () => {
    let calls = 0;
    const client = {
      apiRoot: 'http://127.0.0.1:1/api/v2.4',
      async importSpot() {
        calls++;
        if (calls === 1) throw new TypeError("Cannot read properties of undefined (reading 'id')");
        return { spotId: 100000 + calls, pendingGalleries: [] };
      },
    } as unknown as ImportRunOptions['client'] & { apiRoot: string };
    const outcome = await runImport([input('a', text('a')), input('b', text('b'))], options(client, { concurrency: 1 }));
    const [first, second] = outcome.spots;
    assert.equal(first.status, 'failed');
    assert.equal(first.failure?.kind, 'unexpected');
    assert.equal(first.error, undefined, 'no ServiceError is made up for it');
    assert.match(first.reason ?? '', /^Unexpected failure \(TypeError\): Cannot read properties/);
    assert.equal(second.status, 'done');
    assert.equal(outcome.stop, undefined);
  });

  it('still stops on a cancellation that is not a ServiceError (an AbortError)', async () => {
    const client = {
      apiRoot: 'http://127.0.0.1:1/api/v2.4',
      async importSpot(): Promise<never> {
        throw Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
      },
    } as unknown as ImportRunOptions['client'] & { apiRoot: string };
    const outcome = await runImport([input('a', text('a')), input('b', text('b'))], options(client, { concurrency: 1 }));
    assert.equal(outcome.stop?.kind, 'cancelled');
    assert.ok(outcome.stop.error instanceof CancelledError, `stopped by ${String(outcome.stop.error)}`);
    assert.equal(outcome.spots[1].status, 'not-started', 'the second document was not started');
  });
});
