import * as assert from 'node:assert/strict';
import { getGallery, importSpot, send, spotDocument, useSandbox } from './helpers/sandboxHttp';

describe('sandbox: spot import', () => {
  const ctx = useSandbox({ maxImportBytes: 64 * 1024 });
  const post = (document: unknown, version?: string) => importSpot(ctx.sandbox.baseUrl, ctx.token, document, version);
  const postRaw = (body: string, contentType: string) =>
    send(`${ctx.sandbox.baseUrl}/api/v2.4/spots/import`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ctx.token}`, 'Content-Type': contentType },
      body,
    });

  it('creates a spot and answers 200 {data:{id}}', async () => {
    const reply = await post(spotDocument('create-1'));
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type') ?? '', /^application\/vnd\.api\+json/);
    const stored = ctx.sandbox.spotBySourceId('create-1');
    assert.ok(stored);
    assert.deepEqual(reply.json, { data: { id: stored.id } });
    // Defaults from the shared schema are applied.
    assert.equal(stored.attributes.state, 1);
    assert.equal(stored.attributes.privacy_type, 0);
  });

  it('updates the spot with the same source_id and keeps its id', async () => {
    const count = ctx.sandbox.spotCount();
    const first = await post(spotDocument('upsert-1', { latitude: 10 }));
    const second = await post(spotDocument('upsert-1', { latitude: 20, privacy_type: 1 }));
    assert.equal(second.status, 200);
    assert.equal(second.json.data.id, first.json.data.id);
    assert.equal(ctx.sandbox.spotCount(), count + 1);
    assert.equal(ctx.sandbox.spotBySourceId('upsert-1')?.attributes.latitude, 20);
    assert.equal(ctx.sandbox.spotBySourceId('upsert-1')?.attributes.privacy_type, 1);
  });

  it('gives different spots different ids', async () => {
    const a = await post(spotDocument('distinct-a'));
    const b = await post(spotDocument('distinct-b'));
    assert.notEqual(a.json.data.id, b.json.data.id);
  });

  it('creates a gallery for each pending (null) gallery field and answers them with state 2', async () => {
    const reply = await post(spotDocument('pending-1', { state: 2, fld_1_2: null, fld_1_3: null }));
    assert.equal(reply.status, 200);
    const { fld_1_2: first, fld_1_3: second } = reply.json.data.attributes;
    assert.deepEqual(reply.json, { data: { id: reply.json.data.id, attributes: { fld_1_2: first, fld_1_3: second, state: 2 } } });
    assert.ok(Number.isInteger(first) && Number.isInteger(second) && first !== second);
    assert.equal(ctx.sandbox.gallery(first)?.field, 'fld_1_2');
    assert.equal(ctx.sandbox.gallery(first)?.spotId, reply.json.data.id);
    const gallery = await getGallery(ctx.sandbox.baseUrl, ctx.token, first);
    assert.equal(gallery.status, 200);
    assert.deepEqual(gallery.json.data.relationships.media.data, []);
    assert.equal(ctx.sandbox.spotBySourceId('pending-1')?.attributes.fld_1_2, first, 'the stored field holds its gallery id');
  });

  it('reuses the galleries when the same spot is imported again (no pile-up)', async () => {
    const first = await post(spotDocument('pending-2', { state: 2, fld_1_2: null }));
    const galleryId = first.json.data.attributes.fld_1_2;
    const again = await post(spotDocument('pending-2', { state: 2, fld_1_2: null, fld_1_4: null }));
    assert.equal(again.json.data.attributes.fld_1_2, galleryId);
    assert.notEqual(again.json.data.attributes.fld_1_4, galleryId);
    const third = await post(spotDocument('pending-2', { state: 2, fld_1_2: null, fld_1_4: null }));
    assert.deepEqual(third.json, again.json);
    // The same field on another spot is another gallery.
    const other = await post(spotDocument('pending-3', { state: 2, fld_1_2: null }));
    assert.notEqual(other.json.data.attributes.fld_1_2, galleryId);
  });

  it('stores any other fld_ value as given and answers the plain form', async () => {
    const reply = await post(spotDocument('fields-1', { fld_1_5: 'text', fld_1_6: 12345, fld_1_7: [1, 2], custom: { a: true } }));
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, { data: { id: reply.json.data.id } });
    const stored = ctx.sandbox.spotBySourceId('fields-1')?.attributes;
    assert.equal(stored?.fld_1_5, 'text');
    assert.equal(stored?.fld_1_6, 12345);
    assert.deepEqual(stored?.fld_1_7, [1, 2]);
    assert.deepEqual(stored?.custom, { a: true });
  });

  it('refuses a pending gallery with state 1 (or no state) with 422 pointing at the field', async () => {
    for (const extra of [{ state: 1, fld_1_2: null }, { fld_1_2: null }]) {
      const reply = await post(spotDocument('pending-bad', extra));
      assert.equal(reply.status, 422);
      assert.equal(reply.json.errors.length, 1);
      assert.equal(reply.json.errors[0].status, '422');
      assert.equal(reply.json.errors[0].source.pointer, '/data/attributes/fld_1_2');
      assert.match(reply.json.errors[0].detail, /state/);
    }
    assert.equal(ctx.sandbox.spotBySourceId('pending-bad'), undefined);
  });

  it('answers one 422 error per problem, each with its pointer', async () => {
    const reply = await post({ data: { type: 'spots', attributes: { topic_id: 1.5, source_id: '', latitude: 91, longitude: -181, state: 3 } } });
    assert.equal(reply.status, 422);
    const pointers = reply.json.errors.map((error: { source: { pointer: string } }) => error.source.pointer).sort();
    assert.deepEqual(pointers, [
      '/data/attributes/latitude',
      '/data/attributes/longitude',
      '/data/attributes/source_id',
      '/data/attributes/state',
      '/data/attributes/topic_id',
    ]);
    for (const error of reply.json.errors) assert.ok(error.detail.length > 0);
  });

  it('points at missing members and a wrong data.type', async () => {
    const missing = await post({ data: { type: 'spots', attributes: { source_id: 'x', latitude: 1, longitude: 1 } } });
    assert.deepEqual(
      missing.json.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ['/data/attributes/topic_id'],
    );
    const wrongType = await post({ data: { type: 'spot', attributes: spotDocument('x').data.attributes } });
    assert.equal(wrongType.status, 422);
    assert.equal(wrongType.json.errors[0].source.pointer, '/data/type');
    const notObject = await post([1, 2]);
    assert.equal(notObject.status, 422);
    assert.equal(notObject.json.errors[0].source.pointer, '');
  });

  it('requires root_id to name an existing spot', async () => {
    const unknown = await post(spotDocument('child-1', { root_id: 424242 }));
    assert.equal(unknown.status, 422);
    assert.equal(unknown.json.errors[0].source.pointer, '/data/attributes/root_id');
    assert.match(unknown.json.errors[0].detail, /424242/);
    assert.equal(ctx.sandbox.spotBySourceId('child-1'), undefined);

    const parent = await post(spotDocument('parent-1'));
    const child = await post(spotDocument('child-1', { root_id: parent.json.data.id }));
    assert.equal(child.status, 200);
    assert.equal(ctx.sandbox.spotBySourceId('child-1')?.attributes.root_id, parent.json.data.id);
    const self = await post(spotDocument('parent-1', { root_id: parent.json.data.id }));
    assert.equal(self.status, 422, 'a spot cannot be its own parent');
  });

  it('answers malformed JSON with 400 and pointer ""', async () => {
    const reply = await postRaw('{"data": ', 'application/json');
    assert.equal(reply.status, 400);
    assert.equal(reply.json.errors[0].status, '400');
    assert.equal(reply.json.errors[0].source.pointer, '');
    assert.match(reply.json.errors[0].detail, /not valid JSON/);
  });

  it('accepts JSON:API media type and a charset parameter', async () => {
    assert.equal((await postRaw(JSON.stringify(spotDocument('vnd-1')), 'application/vnd.api+json')).status, 200);
    assert.equal((await postRaw(JSON.stringify(spotDocument('charset-1')), 'application/json; charset=utf-8')).status, 200);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const reply = await postRaw('topic_id=1', 'application/x-www-form-urlencoded');
    assert.equal(reply.status, 415);
    assert.equal(reply.json.errors[0].code, 'unsupported_media_type');
  });

  it('refuses an oversized body with 413', async () => {
    const reply = await post(spotDocument('big-1', { fld_1_1: 'x'.repeat(70 * 1024) }));
    assert.equal(reply.status, 413);
    assert.equal(reply.json.errors[0].status, '413');
    assert.equal(ctx.sandbox.spotBySourceId('big-1'), undefined);
  });

  it('accepts any vN or vN.N version in the path and records which', async () => {
    const before = ctx.sandbox.counters.apiVersions['v2.6'] ?? 0;
    assert.equal((await post(spotDocument('version-1'), 'v2.6')).status, 200);
    assert.equal((await post(spotDocument('version-2'), 'v3')).status, 200);
    assert.equal(ctx.sandbox.counters.apiVersions['v2.6'], before + 1);
    assert.equal(ctx.sandbox.counters.apiVersions.v3, 1);
    assert.equal((await post(spotDocument('version-3'), 'version2')).status, 404);
  });

  it('counts every authenticated import, refused or not', async () => {
    const before = ctx.sandbox.counters.imports;
    await post(spotDocument('count-1'));
    await post({ bad: true });
    assert.equal(ctx.sandbox.counters.imports, before + 2);
  });
});
