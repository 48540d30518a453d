import * as assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { useSandbox } from './helpers/sandboxHttp';

describe('sandbox: generated map tiles', () => {
  const ctx = useSandbox();

  it('serves a 256×256 PNG for a tile that exists, without a token, over real HTTP', async () => {
    const reply = await fetch(`${ctx.sandbox.baseUrl}/__sandbox/tiles/3/4/2.png`);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('content-type'), 'image/png');
    const body = Buffer.from(await reply.arrayBuffer());
    assert.equal(Number(reply.headers.get('content-length')), body.length);
    assert.deepEqual([...body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    assert.equal(body.subarray(12, 16).toString('ascii'), 'IHDR');
    assert.equal(body.readUInt32BE(16), 256);
    assert.equal(body.readUInt32BE(20), 256);
    // The image data inflates to 256 rows of a filter byte and 256 RGB pixels.
    const idat = body.indexOf('IDAT');
    const pixels = inflateSync(body.subarray(idat + 4, idat + 4 + body.readUInt32BE(idat - 4)));
    assert.equal(pixels.length, 256 * (1 + 256 * 3));
    assert.ok(body.length < 4096, `a small tile: ${body.length} bytes`);
  });

  it('answers HEAD without a body, and 404 for tiles outside the zoom level or past zoom 19', async () => {
    const head = await fetch(`${ctx.sandbox.baseUrl}/__sandbox/tiles/0/0/0.png`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    for (const path of [
      '/__sandbox/tiles/1/2/0.png',
      '/__sandbox/tiles/1/0/2.png',
      '/__sandbox/tiles/20/0/0.png',
      '/__sandbox/tiles/1/0/0.jpg',
      '/__sandbox/tiles/a/0/0.png',
    ]) {
      assert.equal((await fetch(`${ctx.sandbox.baseUrl}${path}`)).status, 404, path);
    }
  });
});
