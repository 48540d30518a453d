import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import * as http from 'node:http';
import { once } from 'node:events';
import { pendingGallery, useSandbox, waitFor, type RawReply } from './helpers/sandboxHttp';

const BOUNDARY = '----sandbox-upload-test';

/** A hand-written multipart upload whose body the test feeds chunk by chunk. */
function openUpload(url: string, token: string, fileName: string, size: number) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="data[attributes][file]"; filename="${fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const req = http.request(url, {
    method: 'POST',
    agent: false,
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      'Content-Length': String(head.length + size + tail.length),
    },
  });
  const response = new Promise<RawReply>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
  });
  const write = async (chunk: Buffer) => {
    if (!req.write(chunk)) await once(req, 'drain');
  };
  return { req, response, write, head, tail };
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function tempFiles(dir: string): Promise<string[]> {
  return (await fs.readdir(dir)).filter((name) => name.startsWith('.upload-'));
}

describe('sandbox: streamed uploads', () => {
  const ctx = useSandbox();

  it('streams a 256 MiB upload to disk with flat memory, byte for byte', async function () {
    this.timeout(120_000);
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'stream-1');
    // Chunks are views into one random source at shifting offsets: no copies on the sending side,
    // so the memory measured is the sandbox's, and a misplaced chunk still changes the hash.
    const source = randomBytes(2 * 1024 * 1024);
    const chunkSize = 64 * 1024;
    const chunks = 4096;
    const size = chunks * chunkSize;
    const upload = openUpload(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/${galleryId}/media`, ctx.token, 'big.jpg', size);

    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
    const hash = createHash('sha256');
    try {
      await upload.write(upload.head);
      for (let i = 0; i < chunks; i++) {
        const offset = (i * 7919) % (source.length - chunkSize);
        const chunk = source.subarray(offset, offset + chunkSize);
        hash.update(chunk);
        await upload.write(chunk);
      }
      upload.req.end(upload.tail);
      const reply = await upload.response;
      assert.equal(reply.status, 201, reply.text);
      const body = JSON.parse(reply.text);
      assert.deepEqual(body.data.attributes, { file: 'big.jpg', mimeType: 'image/jpeg', size });
      const media = ctx.sandbox.media(body.data.id);
      assert.ok(media);
      assert.equal((await fs.stat(media.path)).size, size);
      assert.equal(await sha256File(media.path), hash.digest('hex'));
    } finally {
      clearInterval(sampler);
    }
    const growth = peak - baseline;
    // Buffering the file would need at least 256 MiB; streaming needs a few socket and stream buffers.
    assert.ok(growth < 96 * 1024 * 1024, `array buffer memory grew by ${(growth / 1048576).toFixed(1)} MiB`);
  });

  it('deletes the partial file and records nothing when the client aborts mid-upload', async () => {
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'abort-1');
    const before = ctx.sandbox.counters.uploads;
    const upload = openUpload(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/${galleryId}/media`, ctx.token, 'cut.png', 64 * 1024 * 1024);
    upload.response.catch(() => undefined); // the connection is cut on purpose
    await upload.write(upload.head);
    await upload.write(randomBytes(2 * 1024 * 1024));
    // Wait until the sandbox really has a partial file on disk, so the abort happens mid-write.
    await waitFor(async () => {
      for (const name of await tempFiles(ctx.sandbox.mediaDir)) {
        if ((await fs.stat(`${ctx.sandbox.mediaDir}/${name}`)).size > 0) return true;
      }
      return false;
    }, 'a partial upload file');
    upload.req.destroy();
    await waitFor(async () => (await tempFiles(ctx.sandbox.mediaDir)).length === 0, 'the partial file to be deleted');
    assert.deepEqual(ctx.sandbox.gallery(galleryId)?.mediaIds, []);
    assert.equal(ctx.sandbox.counters.uploads, before + 1);
    const files = await fs.readdir(ctx.sandbox.mediaDir);
    assert.ok(!files.some((name) => name.endsWith('cut.png')), `no media file kept: ${files.join(', ')}`);
  });

  it('refuses an upload to an unknown gallery without reading a large body', async () => {
    const upload = openUpload(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/987654/media`, ctx.token, 'x.png', 512 * 1024 * 1024);
    upload.response.catch(() => undefined);
    await upload.write(upload.head);
    const reply = await upload.response;
    assert.equal(reply.status, 404);
    assert.equal(reply.headers.connection, 'close');
    upload.req.destroy();
  });
});
