import * as assert from 'node:assert/strict';
import { mkdtempSync, promises as fs, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { getGallery, importSpot, newToken, spotDocument, uploadForm } from './helpers/sandboxHttp';

describe('sandbox: --data persistence', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'spot-sandbox-data-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('leaves files of its own media folder alone that are not its own (a --data folder chosen by mistake loses nothing)', async () => {
    const mediaDir = join(dataDir, 'media');
    await fs.mkdir(join(mediaDir, 'photos'), { recursive: true });
    await fs.writeFile(join(mediaDir, 'holiday.jpg'), 'mine');
    await fs.writeFile(join(mediaDir, 'photos', 'beach.jpg'), 'mine too');
    // What the sandbox itself leaves behind when killed: a partial upload and an unacknowledged one.
    await fs.writeFile(join(mediaDir, '.upload-0c6f1f8e-1e4c-4c1b-9d7a-5b2a3f0c9e11'), 'partial');
    await fs.writeFile(join(mediaDir, '300001-unacknowledged.png'), 'never acknowledged');
    const sandbox = await startSandbox({ dataDir });
    await sandbox.close();
    assert.deepEqual((await fs.readdir(mediaDir)).sort(), ['holiday.jpg', 'photos']);
    assert.equal(readFileSync(join(mediaDir, 'photos', 'beach.jpg'), 'utf8'), 'mine too');
  });

  it('keeps spots, galleries and media across a restart', async () => {
    const bytes = Buffer.from('persisted image bytes');
    let first = await startSandbox({ dataDir });
    let spotId: number;
    let galleryId: number;
    let mediaId: number;
    try {
      const token = await newToken(first.baseUrl);
      const imported = await importSpot(first.baseUrl, token, spotDocument('keep-1', { state: 2, fld_1_2: null, fld_1_3: 'text' }));
      spotId = imported.json.data.id;
      galleryId = imported.json.data.attributes.fld_1_2;
      const form = new FormData();
      form.append('data[attributes][file]', new Blob([bytes], { type: 'image/png' }), 'kept.png');
      mediaId = (await uploadForm(form, first.baseUrl, token, galleryId)).json.data.id;
      assert.equal(first.mediaDir, join(dataDir, 'media'));
    } finally {
      await first.close();
    }

    const files = await fs.readdir(dataDir);
    assert.deepEqual(files.sort(), ['media', 'state.json'], 'no temporary state files are left behind');
    first = await startSandbox({ dataDir });
    try {
      const token = await newToken(first.baseUrl);
      assert.equal(first.spotBySourceId('keep-1')?.id, spotId);
      assert.equal(first.spotBySourceId('keep-1')?.attributes.fld_1_3, 'text');
      const gallery = await getGallery(first.baseUrl, token, galleryId);
      assert.equal(gallery.status, 200);
      assert.deepEqual(gallery.json.data.included, [{ id: mediaId, type: 'media', attributes: { file: 'kept.png', mimeType: 'image/png' } }]);
      const media = first.media(mediaId);
      assert.ok(media);
      assert.ok(readFileSync(media.path).equals(bytes));

      // Re-importing reuses the persisted gallery; new records get fresh ids, never reused ones.
      const again = await importSpot(first.baseUrl, token, spotDocument('keep-1', { state: 2, fld_1_2: null }));
      assert.equal(again.json.data.id, spotId);
      assert.equal(again.json.data.attributes.fld_1_2, galleryId);
      const other = await importSpot(first.baseUrl, token, spotDocument('keep-2', { state: 2, fld_1_2: null }));
      assert.ok(other.json.data.id > spotId);
      assert.ok(other.json.data.attributes.fld_1_2 > galleryId);
    } finally {
      await first.close();
    }
  });

  it('writes the state file as JSON after many concurrent imports', async () => {
    const sandbox = await startSandbox({ dataDir });
    try {
      const token = await newToken(sandbox.baseUrl);
      await Promise.all(Array.from({ length: 60 }, (_, i) => importSpot(sandbox.baseUrl, token, spotDocument(`burst-${i}`))));
    } finally {
      await sandbox.close();
    }
    const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
    assert.equal(state.format, 2);
    assert.equal(state.spots.length, 60, 'the last write holds every import');
  });

  it('clears partial uploads left over from a crash', async () => {
    await fs.mkdir(join(dataDir, 'media'), { recursive: true });
    await fs.writeFile(join(dataDir, 'media', '.upload-leftover'), 'partial');
    const sandbox = await startSandbox({ dataDir });
    await sandbox.close();
    assert.deepEqual(await fs.readdir(join(dataDir, 'media')), []);
  });

  it('removes media files the state does not know, and leftovers of earlier runs, on start', async () => {
    await fs.mkdir(join(dataDir, 'media'), { recursive: true });
    await fs.writeFile(join(dataDir, 'media', '300001-never-recorded.png'), 'orphan');
    await fs.writeFile(join(dataDir, 'journal-7.log'), '');
    // A temporary state file of the atomic write, as it names them now and as earlier versions did.
    await fs.writeFile(join(dataDir, '.state.json.123.abcd.tmp'), '{');
    await fs.writeFile(join(dataDir, 'state.json.123.abcd.tmp'), '{');
    const sandbox = await startSandbox({ dataDir });
    await sandbox.close();
    assert.deepEqual(await fs.readdir(join(dataDir, 'media')), []);
    assert.deepEqual((await fs.readdir(dataDir)).sort(), ['media', 'state.json']);
  });

  it('replays the journal on top of the snapshot, up to a torn last line', async () => {
    const spot = (id: number, sourceId: string) => ({ id, user: 'default', sourceId, attributes: { source_id: sourceId }, galleries: {}, apiVersion: 'v2.4' });
    const snapshot = {
      format: 2,
      generation: 3,
      nextIds: { spot: 100_002, gallery: 200_001, media: 300_001 },
      spots: [spot(100_001, 'in-snapshot')],
      galleries: [],
      media: [],
    };
    const line = JSON.stringify({ ids: { spot: 100_003, gallery: 200_001, media: 300_001 }, spots: [spot(100_002, 'in-journal')] });
    const torn = JSON.stringify({ ids: { spot: 100_004, gallery: 200_001, media: 300_001 }, spots: [spot(100_003, 'torn')] }).slice(0, 40);
    await fs.writeFile(join(dataDir, 'state.json'), JSON.stringify(snapshot));
    await fs.writeFile(join(dataDir, 'journal-3.log'), `${line}\n${torn}`);
    // A journal of another generation is stale (its changes are in the snapshot or were never acknowledged).
    await fs.writeFile(
      join(dataDir, 'journal-2.log'),
      `${JSON.stringify({ ids: { spot: 100_010, gallery: 200_001, media: 300_001 }, spots: [spot(100_009, 'stale')] })}\n`,
    );
    const sandbox = await startSandbox({ dataDir });
    try {
      assert.equal(sandbox.spotBySourceId('in-snapshot')?.id, 100_001);
      assert.equal(sandbox.spotBySourceId('in-journal')?.id, 100_002);
      assert.equal(sandbox.spotBySourceId('torn'), undefined);
      assert.equal(sandbox.spotBySourceId('stale'), undefined);
      const token = await newToken(sandbox.baseUrl);
      assert.equal((await importSpot(sandbox.baseUrl, token, spotDocument('next'))).json.data.id, 100_003);
    } finally {
      await sandbox.close();
    }
    assert.deepEqual((await fs.readdir(dataDir)).sort(), ['media', 'state.json']);
  });

  it('refuses to start on a corrupt state file, naming it', async () => {
    await fs.writeFile(join(dataDir, 'state.json'), '{"format": 1, "spots": "nope"');
    await assert.rejects(startSandbox({ dataDir }), (error: Error) => error.message.includes('state.json') && /not valid JSON/.test(error.message));
    await fs.writeFile(join(dataDir, 'state.json'), '{"format": 3}');
    await assert.rejects(startSandbox({ dataDir }), /not a sandbox state file/);
  });

  it('keeps memory-only data to itself: a new sandbox without --data starts empty', async () => {
    const a = await startSandbox();
    const token = await newToken(a.baseUrl);
    await importSpot(a.baseUrl, token, spotDocument('memory-1'));
    await a.close();
    const b = await startSandbox();
    try {
      assert.equal(b.spotCount(), 0);
    } finally {
      await b.close();
    }
  });
});
