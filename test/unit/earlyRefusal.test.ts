// Uploads after the token expired (or the server restarted): the server answers 401 before it reads
// the body and closes the connection, so the client may be cut off while still writing and never
// see the 401. Such an upload must end in the renew-and-send-again a 401 gets, never a network
// error: a body that did not go out whole cannot have been stored.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';
import { earlyRefusalServer, type EarlyRefusalServer } from './helpers/scriptedServer';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { TokenSource } from '../../src/core/api/tokenSource';

const RUNS = 50;

describe('uploads refused early for an expired token', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'spot-early-'));
  const file = join(dir, 'photo.jpg');
  writeFileSync(file, Buffer.alloc(3 * 1024 * 1024, 9));
  let setup: CoreSetup | undefined;
  let plain: EarlyRefusalServer | undefined;
  afterEach(async () => {
    await setup?.sandbox.close();
    await plain?.close();
    setup = plain = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs `RUNS` uploads, each after all tokens were made invalid; returns the failures' texts. */
  async function uploadAfterExpiry(client: ServiceClient, galleryId: number, expire: () => void): Promise<string[]> {
    const failures: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      expire();
      try {
        await client.uploadMedia(galleryId, file);
      } catch (error) {
        failures.push(`run ${run}: ${(error as Error).message}`);
      }
    }
    return failures;
  }

  it(`renews and sends again, ${RUNS} times out of ${RUNS}, against a plain node:http server that resets`, async () => {
    plain = await earlyRefusalServer();
    const tokens = new TokenSource({ tokenUrl: `${plain.url}/api/v2/access_token`, clientId: 'a', clientSecret: 'secret-b' });
    const client = new ServiceClient({ baseUrl: plain.url, tokens });
    const failures = await uploadAfterExpiry(client, 4, () => plain!.expireAllTokens());
    assert.deepEqual(failures, []);
    assert.equal(plain.counters.stored, RUNS, 'each upload arrived once');
    assert.equal(plain.counters.tokens, RUNS, 'one new token per run');
    // (A first attempt can also meet a kept-alive connection the server just closed: sent again
    // with a new token all the same, it never reaches the refusal.)
    assert.ok(plain.counters.refused > 0 && plain.counters.refused <= RUNS, `refused ${plain.counters.refused}`);
  });

  it(`renews and sends again, ${RUNS} times out of ${RUNS}, against the sandbox`, async () => {
    setup = await startCore();
    const gallery = (await setup.client.importSpot(spot('early-401', { state: 2, fld_1_1: null }))).pendingGalleries[0];
    const tokensBefore = setup.sandbox.counters.tokenRequests;
    const failures = await uploadAfterExpiry(setup.client, gallery.galleryId, () => setup!.sandbox.expireAllTokens());
    assert.deepEqual(failures, []);
    assert.equal(setup.sandbox.counters.uploads, RUNS);
    assert.equal(setup.sandbox.counters.tokenRequests - tokensBefore, RUNS);
  });
});
