import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport } from '../../src/core/import';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { startCaptureProxy, type CaptureProxy } from './helpers/captureProxy';
import { spot, useCoreWorkspace } from './helpers/coreSetup';
import { writeSpot } from './helpers/workflowFixtures';

// The workflow sends through the one send policy (parseSpotText + sendSpot): the validated text,
// less a leading byte-order mark, which a strict server refuses as JSON.
describe('media workflow: documents that start with a byte-order mark', () => {
  const workspace = useCoreWorkspace('spot-media-bom-');
  let proxy: CaptureProxy;
  let client: ServiceClient;
  beforeEach(async () => {
    proxy = await startCaptureProxy(workspace.setup.sandbox.baseUrl);
    client = new ServiceClient({ baseUrl: proxy.baseUrl, tokens: workspace.setup.tokens, retry: { baseMs: 5, maxMs: 100 } });
  });
  afterEach(() => proxy.close());
  const options = () => workspace.workflowOptions({ client });
  // The sandbox, like many JSON readers, would forgive the mark: the bytes on the wire must not carry it.
  const assertNoMarkSent = () => {
    assert.ok(proxy.imports.length > 0, 'imports went through the capture');
    for (const body of proxy.imports) assert.notDeepEqual([...body.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'an import body starts with a byte-order mark');
  };

  it('imports a plain document with a BOM', async () => {
    const path = join(workspace.dir, 'plain.spot.json');
    writeFileSync(path, '\uFEFF' + JSON.stringify(spot('bom-plain'), null, 2));
    const run = await runImport([{ path }], options());
    assert.equal(run.spots[0].status, 'done', run.spots[0].reason);
    assert.equal(workspace.setup.sandbox.spotBySourceId('bom-plain')?.attributes.latitude, 48.2);
    assertNoMarkSent();
  });

  it('imports a document with media and a BOM, and keeps the mark when writing back', async () => {
    const fixture = writeSpot(workspace.dir, 'walk', { fld_1_3: ['01.jpg', '02.jpg'] });
    writeFileSync(fixture.path, '\uFEFF' + readFileSync(fixture.path, 'utf8'));
    const run = await runImport([{ path: fixture.path }], options());
    assert.equal(run.spots[0].status, 'done', run.spots[0].reason);
    const written = readFileSync(fixture.path, 'utf8');
    assert.ok(written.startsWith('\uFEFF'), 'the mark stays in the file');
    assert.match(written, /"state": 1/);
    assertNoMarkSent();
  });
});
