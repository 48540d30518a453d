import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';

describe('media order and renamed uploads', () => {
  let setup: CoreSetup | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'spot-order-'));
  afterEach(async () => {
    await setup?.sandbox.close();
    setup = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function galleryWithThree(): Promise<{ galleryId: number; ids: number[] }> {
    const { client } = setup!;
    const result = await client.importSpot(spot('order-1', { state: 2, fld_1_3: null }));
    const galleryId = result.pendingGalleries[0].galleryId;
    for (const name of ['a.png', 'b.png', 'c.png']) {
      const file = join(dir, name);
      writeFileSync(file, Buffer.from(name));
      await client.uploadMedia(galleryId, file);
    }
    const gallery = await client.getGallery(galleryId);
    return { galleryId, ids: gallery.media.map((m) => m.id) };
  }

  it('setMediaOrder sends only the given weights and the gallery reads back in the new order', async () => {
    setup = await startCore();
    const { galleryId, ids } = await galleryWithThree();
    await setup.client.setMediaOrder(galleryId, [{ id: ids[2], orderWeight: -1 }]);
    const after = await setup.client.getGallery(galleryId);
    assert.deepEqual(
      after.media.map((m) => m.id),
      [ids[2], ids[0], ids[1]],
    );
    assert.equal(setup.sandbox.counters.mediaOrders, 1);
  });

  it('setMediaOrder with a media id of another gallery is refused with the server words', async () => {
    setup = await startCore();
    const { galleryId } = await galleryWithThree();
    await assert.rejects(setup.client.setMediaOrder(galleryId, [{ id: 999_999, orderWeight: 1 }]), /HTTP 422.*999999 is not a media id/);
  });

  it('renameMedia stores uploads under generated names', async () => {
    setup = await startCore({ renameMedia: true });
    const { galleryId } = await galleryWithThree();
    const gallery = await setup.client.getGallery(galleryId);
    for (const media of gallery.media) {
      assert.match(media.file, /^000001\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{24}\.png$/);
      assert.equal(media.mimeType, 'image/png');
    }
  });
});
