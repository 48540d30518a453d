import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { getGallery, pendingGallery, send, uploadForm, useSandbox } from './helpers/sandboxHttp';

function fileForm(bytes: Buffer | string, name: string, type = '', field = 'data[attributes][file]'): FormData {
  const form = new FormData();
  form.append(field, new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), name);
  return form;
}

describe('sandbox: galleries and media', () => {
  const ctx = useSandbox();

  it('takes one file per upload: a second file is refused (422) and nothing is stored, not silently dropped', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'two-files-1');
    const two = fileForm('first', 'a.png', 'image/png');
    two.append('data[attributes][file]', new Blob(['second'], { type: 'image/png' }), 'b.png');
    const twoFiles = await uploadForm(two, ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(twoFiles.status, 422, twoFiles.text);
    assert.match(twoFiles.text, /one file/);
    assert.deepEqual((await getGallery(ctx.sandbox.baseUrl, ctx.token, galleryId)).json.data.relationships.media.data, []);
  });

  it('answers a gallery in exactly the interface shape, media in upload order', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'shape-1');
    const first = await uploadForm(fileForm('first image', 'a.png', 'image/png'), ctx.sandbox.baseUrl, ctx.token, galleryId);
    const second = await uploadForm(fileForm('second', 'b.jpg'), ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    const reply = await getGallery(ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, {
      data: {
        id: galleryId,
        type: 'galleries',
        attributes: { type: 1, state: 1 },
        relationships: {
          media: {
            data: [
              { id: first.json.data.id, type: 'media' },
              { id: second.json.data.id, type: 'media' },
            ],
          },
        },
        included: [
          { id: first.json.data.id, type: 'media', attributes: { file: 'a.png', mimeType: 'image/png' } },
          { id: second.json.data.id, type: 'media', attributes: { file: 'b.jpg', mimeType: 'image/jpeg' } },
        ],
      },
    });
  });

  it('answers an unknown gallery with 404 and a non-integer id with 400', async () => {
    const unknown = await getGallery(ctx.sandbox.baseUrl, ctx.token, 999_999);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.errors[0].status, '404');
    for (const id of ['abc', '1.5', '-3', '0x10', '%20']) {
      const reply = await getGallery(ctx.sandbox.baseUrl, ctx.token, id);
      assert.equal(reply.status, 400, `gallery id ${id}`);
      assert.equal(reply.json.errors[0].source.parameter, 'id');
    }
  });

  it('answers HEAD on a gallery without a body', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'head-1');
    const reply = await send(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/${galleryId}`, { method: 'HEAD', headers: { Authorization: `Bearer ${ctx.token}` } });
    assert.equal(reply.status, 200);
    assert.equal(reply.text, '');
  });

  it('stores an upload byte for byte and answers 201 with file, mimeType and size', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'upload-1');
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    const reply = await uploadForm(fileForm(bytes, 'photo.png', 'image/png'), ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(reply.status, 201);
    assert.deepEqual(reply.json, {
      data: { id: reply.json.data.id, type: 'media', attributes: { file: 'photo.png', mimeType: 'image/png', size: bytes.length } },
    });
    const media = ctx.sandbox.media(reply.json.data.id);
    assert.ok(media);
    assert.equal(media.galleryId, galleryId);
    assert.ok(readFileSync(media.path).equals(bytes), 'the file on disk matches what was sent');
    assert.deepEqual(ctx.sandbox.gallery(galleryId)?.mediaIds, [media.id]);
  });

  it('takes the MIME type from the file name when the part says application/octet-stream', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'mime-1');
    const cases: Array<[string, string, string]> = [
      ['scan.jpeg', 'application/octet-stream', 'image/jpeg'],
      ['clip.mp4', '', 'video/mp4'], // a Blob without type is sent as application/octet-stream
      ['notes.unknownext', '', 'application/octet-stream'],
      ['render.bin', 'image/webp', 'image/webp'], // a declared type wins over the name
    ];
    for (const [name, type, expected] of cases) {
      const reply = await uploadForm(fileForm('content', name, type), ctx.sandbox.baseUrl, ctx.token, galleryId);
      assert.equal(reply.status, 201);
      assert.equal(reply.json.data.attributes.mimeType, expected, name);
    }
  });

  it('keeps a non-ASCII file name and strips any directory from it', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'names-1');
    const utf8 = await uploadForm(fileForm('x', 'Straße ü.jpg'), ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(utf8.json.data.attributes.file, 'Straße ü.jpg');
    const traversal = await uploadForm(fileForm('x', '../../etc/passwd.png'), ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(traversal.json.data.attributes.file, 'passwd.png');
    const stored = ctx.sandbox.media(traversal.json.data.id);
    assert.ok(stored?.path.startsWith(ctx.sandbox.mediaDir));
  });

  it('accepts the file in another field when its part has a file name', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'field-1');
    const form = fileForm('image bytes', 'other.gif', '', 'data[attributes][image]');
    form.append('note', 'a text field is ignored');
    const reply = await uploadForm(form, ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(reply.status, 201);
    assert.equal(reply.json.data.attributes.mimeType, 'image/gif');
  });

  it('refuses a form without a file with 422, and says so when the file field was sent as text', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'nofile-1');
    const noFile = new FormData();
    noFile.append('title', 'no file here');
    const reply = await uploadForm(noFile, ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(reply.status, 422);
    assert.match(reply.json.errors[0].detail, /No file/);
    const asText = new FormData();
    asText.append('data[attributes][file]', 'just text');
    const textReply = await uploadForm(asText, ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(textReply.status, 422);
    assert.match(textReply.json.errors[0].detail, /text field/);
    const empty = await uploadForm(fileForm('', 'empty.png', 'image/png'), ctx.sandbox.baseUrl, ctx.token, galleryId);
    assert.equal(empty.status, 422);
    assert.deepEqual(ctx.sandbox.gallery(galleryId)?.mediaIds, []);
  });

  it('refuses uploads to unknown galleries (404), bad ids (400), non-multipart (415) and broken multipart (400)', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'errors-1');
    assert.equal((await uploadForm(fileForm('x', 'a.png'), ctx.sandbox.baseUrl, ctx.token, 999_999)).status, 404);
    assert.equal((await uploadForm(fileForm('x', 'a.png'), ctx.sandbox.baseUrl, ctx.token, 'abc')).status, 400);
    const url = `${ctx.sandbox.baseUrl}/api/v2.4/galleries/${galleryId}/media`;
    const auth = { Authorization: `Bearer ${ctx.token}` };
    const json = await send(url, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{}' });
    assert.equal(json.status, 415);
    const noBoundary = await send(url, { method: 'POST', headers: { ...auth, 'Content-Type': 'multipart/form-data' }, body: 'x' });
    assert.equal(noBoundary.status, 400);
    const truncated = await send(url, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="data[attributes][file]"; filename="a.png"\r\n\r\nhalf a fi',
    });
    assert.equal(truncated.status, 400);
    assert.deepEqual(ctx.sandbox.gallery(galleryId)?.mediaIds, []);
  });

  it('reorders media with the form fields the platform documents, and with JSON', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'order-1');
    const ids: number[] = [];
    for (const name of ['1.png', '2.png', '3.png']) {
      ids.push((await uploadForm(fileForm('x', name), ctx.sandbox.baseUrl, ctx.token, galleryId)).json.data.id);
    }
    const url = `${ctx.sandbox.baseUrl}/api/v2.4/galleries/${galleryId}/media/order`;
    const auth = { Authorization: `Bearer ${ctx.token}` };
    const form = new URLSearchParams();
    for (const [id, weight] of [
      [ids[0], 3],
      [ids[1], 2],
      [ids[2], 1],
    ]) {
      form.append('data[][id]', String(id));
      form.append('data[][attributes][orderWeight]', String(weight));
    }
    const reordered = await send(url, { method: 'POST', headers: auth, body: form });
    assert.equal(reordered.status, 204);
    assert.equal(reordered.text, '');
    const order = async () => (await getGallery(ctx.sandbox.baseUrl, ctx.token, galleryId)).json.data.relationships.media.data.map((m: { id: number }) => m.id);
    assert.deepEqual(await order(), [ids[2], ids[1], ids[0]]);

    const json = await send(url, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: [{ id: ids[2], attributes: { orderWeight: 10 } }] }),
    });
    assert.equal(json.status, 204);
    assert.deepEqual(await order(), [ids[1], ids[0], ids[2]]);

    const foreign = await send(url, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        data: [
          { id: 1, attributes: { orderWeight: 1 } },
          { id: ids[0], attributes: {} },
        ],
      }),
    });
    assert.equal(foreign.status, 422);
    assert.deepEqual(
      foreign.json.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ['/data/0/id', '/data/1/attributes/orderWeight'],
    );
    assert.deepEqual(await order(), [ids[1], ids[0], ids[2]], 'a refused order changes nothing');
  });

  it('counts gallery reads, uploads and media orders', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'count-1');
    const before = { ...ctx.sandbox.counters };
    await getGallery(ctx.sandbox.baseUrl, ctx.token, galleryId);
    await uploadForm(fileForm('x', 'c.png'), ctx.sandbox.baseUrl, ctx.token, galleryId);
    const order = await send(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/${galleryId}/media/order`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: [] }),
    });
    assert.equal(order.status, 422);
    assert.equal(ctx.sandbox.counters.galleryReads, before.galleryReads + 1);
    assert.equal(ctx.sandbox.counters.uploads, before.uploads + 1);
    assert.equal(ctx.sandbox.counters.mediaOrders, before.mediaOrders + 1);
  });
});
