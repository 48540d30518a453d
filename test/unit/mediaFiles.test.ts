// Media files as people see them: the sandbox's files route (no token, by the name the gallery
// lists, with and without renamed uploads), the core's download (limit, question, progress,
// cancel, redirects, server words), media addresses from templates, and reorder weights.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { CancelledError, ServiceError } from '../../src/core/api/errors';
import {
  applyOrderWeights,
  checkMediaUrlTemplate,
  downloadMedia,
  MediaTooLargeError,
  mediaDisplayName,
  mediaFileUrl,
  moveMediaIds,
  orderWeightsFor,
  stepMediaId,
} from '../../src/core/mediaFiles';
import { sandboxMediaUrlTemplate } from '../../src/sandbox/types';
import { spot, startCore, type CoreSetup } from './helpers/coreSetup';
import { scriptedServer } from './helpers/scriptedServer';

describe('media files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spot-media-files-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, bytes: Buffer): string {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  }

  describe('the sandbox files route', () => {
    let setup: CoreSetup | undefined;
    afterEach(async () => {
      await setup?.sandbox.close();
      setup = undefined;
    });

    async function galleryWith(sourceId: string, uploads: Array<{ name: string; bytes: Buffer }>): Promise<number> {
      const { client } = setup!;
      const galleryId = (await client.importSpot(spot(sourceId, { state: 2, fld_1_3: null }))).pendingGalleries[0].galleryId;
      for (const upload of uploads) await client.uploadMedia(galleryId, file(upload.name, upload.bytes), { fileName: upload.name });
      return galleryId;
    }

    it("serves each gallery's own bytes at the template address without a token, even for the same file name", async () => {
      setup = await startCore();
      const first = await galleryWith('files-a', [{ name: 'photo.jpg', bytes: Buffer.from('first gallery bytes') }]);
      const second = await galleryWith('files-b', [{ name: 'photo.jpg', bytes: Buffer.from('second gallery bytes') }]);
      const { client, sandbox } = setup;
      const template = sandboxMediaUrlTemplate(sandbox.baseUrl);
      const cases: Array<[number, string]> = [
        [first, 'first gallery bytes'],
        [second, 'second gallery bytes'],
      ];
      for (const [galleryId, expected] of cases) {
        const [media] = (await client.getGallery(galleryId)).media;
        assert.equal(media.file, 'photo.jpg');
        const url = mediaFileUrl(template, media);
        const reply = await request(url); // no Authorization header at all
        assert.equal(reply.statusCode, 200);
        assert.equal(reply.headers['content-type'], 'image/jpeg');
        assert.equal(reply.headers['x-content-type-options'], 'nosniff');
        assert.equal(await reply.body.text(), expected);
      }
      assert.equal(sandbox.counters.fileReads, 2);
      assert.equal(sandbox.counters.unauthorized, 0);
    });

    it('serves renamed uploads at their opaque stored names, slashes kept', async () => {
      setup = await startCore({ renameMedia: true });
      const galleryId = await galleryWith('files-renamed', [{ name: 'summit.png', bytes: Buffer.from('png bytes') }]);
      const [media] = (await setup.client.getGallery(galleryId)).media;
      assert.match(media.file, /^000001\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{24}\.png$/);
      const url = mediaFileUrl(sandboxMediaUrlTemplate(setup.sandbox.baseUrl), media);
      assert.ok(url.pathname.endsWith(`/files/${media.id}/${media.file}`), url.pathname);
      const downloaded = await downloadMedia(url);
      assert.equal(Buffer.from(downloaded.bytes).toString(), 'png bytes');
      assert.equal(downloaded.contentType, 'image/png');
    });

    it('answers 404 for a wrong name, an unknown id or an encoded slash, and HEAD without a body', async () => {
      setup = await startCore();
      const galleryId = await galleryWith('files-404', [{ name: 'a b#1.png', bytes: Buffer.from('x') }]);
      const [media] = (await setup.client.getGallery(galleryId)).media;
      const base = setup.sandbox.baseUrl;
      const good = mediaFileUrl(sandboxMediaUrlTemplate(base), media);
      assert.ok(good.pathname.endsWith('/a%20b%231.png'), good.pathname);
      const head = await request(good, { method: 'HEAD' });
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers['content-length'], '1');
      assert.equal(await head.body.text(), '');
      for (const path of [`/files/${media.id}/other.png`, `/files/999999/a%20b%231.png`, `/files/${media.id}/x%2Fa%20b%231.png`, `/files/abc/x.png`]) {
        const reply = await request(`${base}${path}`);
        assert.equal(reply.statusCode, 404, path);
        await reply.body.dump();
      }
      const post = await request(good, { method: 'POST', body: 'x' });
      assert.equal(post.statusCode, 405);
      await post.body.dump();
    });
  });

  describe('downloadMedia', () => {
    const big = Buffer.alloc(64 * 1024, 7);
    let server: Awaited<ReturnType<typeof scriptedServer>> | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    async function serve(): Promise<string> {
      server = await scriptedServer((req, res) => {
        switch (req.url) {
          case '/sized':
            res.writeHead(200, { 'content-type': 'image/png; charset=binary', 'content-length': String(big.length) });
            return res.end(big);
          case '/chunked':
            // No Content-Length: the size shows only while reading.
            res.writeHead(200, { 'content-type': 'image/png' });
            for (let offset = 0; offset < big.length; offset += 8192) res.write(big.subarray(offset, offset + 8192));
            return res.end();
          case '/moved':
            res.writeHead(302, { location: '/sized' });
            return res.end();
          case '/away':
            res.writeHead(302, { location: 'http://files.example.org/x.png' });
            return res.end();
          case '/hang':
            res.writeHead(200, { 'content-type': 'image/png' });
            return res.write('partial'); // never ends
          default:
            res.writeHead(404, { 'content-type': 'application/json' });
            return res.end(JSON.stringify({ message: 'No such image here.' }));
        }
      });
      return server.url;
    }

    it('returns the bytes with progress, and follows a redirect on this machine', async () => {
      const base = await serve();
      const progress: Array<[number, number | undefined]> = [];
      const result = await downloadMedia(`${base}/moved`, { onProgress: (received, total) => progress.push([received, total]) });
      assert.deepEqual(Buffer.from(result.bytes), big);
      assert.equal(result.contentType, 'image/png');
      assert.equal(result.url, `${base}/sized`);
      assert.deepEqual(progress.at(-1), [big.length, big.length]);
      assert.ok(progress.length >= 2, 'progress starts at 0 and reports as bytes arrive');
    });

    it('asks once above the limit: no keeps nothing, yes downloads it whole', async () => {
      const base = await serve();
      for (const path of ['/sized', '/chunked']) {
        const asked: Array<number | undefined> = [];
        await assert.rejects(
          downloadMedia(`${base}${path}`, { askAboveBytes: 1024, confirmLarge: async (size) => (asked.push(size), false) }),
          (error: unknown) => error instanceof CancelledError && /not downloaded \(larger than 1 KB\)/.test(error.message),
        );
        assert.deepEqual(asked, [path === '/sized' ? big.length : undefined], 'the announced size, or none');
        const yes = await downloadMedia(`${base}${path}`, { askAboveBytes: 1024, confirmLarge: async () => true });
        assert.deepEqual(Buffer.from(yes.bytes), big);
      }
      // Without a question to ask, the limit is a limit.
      await assert.rejects(
        downloadMedia(`${base}/chunked`, { askAboveBytes: 1024 }),
        (error: unknown) => error instanceof MediaTooLargeError && error.limitBytes === 1024,
      );
      await assert.rejects(downloadMedia(`${base}/sized`, { maxBytes: 10 }), /larger than 10 bytes \(64 KB\)/);
    });

    it("fails in the server's words, refuses a redirect off this machine over http, and stops when cancelled", async () => {
      const base = await serve();
      await assert.rejects(
        downloadMedia(`${base}/missing.png`, { what: 'Downloading missing.png' }),
        (error: unknown) =>
          error instanceof ServiceError &&
          error.kind === 'http' &&
          error.status === 404 &&
          /Downloading missing\.png failed with HTTP 404: No such image here/.test(error.message),
      );
      await assert.rejects(
        downloadMedia(`${base}/away`),
        (error: unknown) => error instanceof ServiceError && error.kind === 'configuration' && /must use https/.test(error.message),
      );
      await assert.rejects(downloadMedia('http://files.example.org/a.png'), /must use https/);
      const controller = new AbortController();
      const pending = downloadMedia(`${base}/hang`, { signal: controller.signal, onProgress: (received) => received > 0 && controller.abort() });
      await assert.rejects(pending, (error: unknown) => error instanceof ServiceError && error.kind === 'cancelled');
    });
  });

  describe('media addresses', () => {
    it('fills {file} segment by segment and {id}, https or this machine only', () => {
      assert.equal(
        mediaFileUrl('https://files.example.org/images/{file}?v={id}', { id: 7, file: '000037/2026/09/23/a b.jpg' }).toString(),
        'https://files.example.org/images/000037/2026/09/23/a%20b.jpg?v=7',
      );
      assert.equal(mediaFileUrl('http://127.0.0.1:8787/files/{id}/{file}', { id: 3, file: 'x?.png' }).toString(), 'http://127.0.0.1:8787/files/3/x%3F.png');
      assert.throws(() => mediaFileUrl('http://files.example.org/{file}', { id: 1, file: 'a.png' }), /must use https/);
      assert.throws(() => mediaFileUrl('https://files.example.org/img/{file}', { id: 1, file: '../../secret' }), /cannot be placed in an address/);
    });

    it('checks templates the way a person types them', () => {
      assert.equal(checkMediaUrlTemplate(''), undefined, 'empty: no previews');
      assert.equal(checkMediaUrlTemplate('https://files.example.org/{file}'), undefined);
      assert.match(checkMediaUrlTemplate('https://files.example.org/') ?? '', /Put \{file\}/);
      assert.match(checkMediaUrlTemplate('ftp://files.example.org/{file}') ?? '', /must use https/);
      assert.match(checkMediaUrlTemplate('not a url {file}') ?? '', /not a valid URL/);
    });

    it('names files for tabs by their last part, with an extension from the MIME type when they have none', () => {
      assert.equal(mediaDisplayName({ id: 1, file: '000037/2026/09/23/abc123', mimeType: 'image/png' }), 'abc123.png');
      assert.equal(mediaDisplayName({ id: 1, file: 'summit.JPG', mimeType: 'image/jpeg' }), 'summit.JPG');
      assert.equal(mediaDisplayName({ id: 9, file: '///', mimeType: 'video/mp4' }), 'media-9.mp4');
      assert.equal(mediaDisplayName({ id: 9, file: 'a:b', mimeType: 'application/x-unknown' }), 'a_b');
    });
  });

  describe('media order', () => {
    it('moves media to a place and steps them up and down', () => {
      assert.deepEqual(moveMediaIds([1, 2, 3, 4], [4], 'top'), [4, 1, 2, 3]);
      assert.deepEqual(moveMediaIds([1, 2, 3, 4], [1, 3], 'bottom'), [2, 4, 1, 3]);
      assert.deepEqual(moveMediaIds([1, 2, 3, 4], [1], { after: 3 }), [2, 3, 1, 4]);
      assert.deepEqual(moveMediaIds([1, 2, 3, 4], [4], { before: 2 }), [1, 4, 2, 3]);
      assert.deepEqual(moveMediaIds([1, 2, 3], [2], { before: 2 }), [1, 2, 3]);
      assert.deepEqual(stepMediaId([1, 2, 3], 3, -1), [1, 3, 2]);
      assert.deepEqual(stepMediaId([1, 2, 3], 1, 1), [2, 1, 3]);
      assert.deepEqual(stepMediaId([1, 2, 3], 1, -1), [1, 2, 3]);
    });

    it('sends every weight while any is unknown, then only the moved ones', () => {
      const all = orderWeightsFor([3, 1, 2], new Map());
      assert.deepEqual(all, [
        { id: 3, orderWeight: 1 },
        { id: 1, orderWeight: 2 },
        { id: 2, orderWeight: 3 },
      ]);
      const known = applyOrderWeights(new Map(), all);
      // Move 2 to the top: only 2 gets a weight, below the first.
      assert.deepEqual(orderWeightsFor([2, 3, 1], known), [{ id: 2, orderWeight: 0 }]);
      // Swap the first two: one weight is enough (1 goes above 3).
      assert.deepEqual(orderWeightsFor([1, 3, 2], known), [{ id: 1, orderWeight: 0 }]);
      // Move 1 up between 3 and 2... it is there already; move 3 between 1 and 2 instead.
      assert.deepEqual(
        orderWeightsFor(
          [1, 3, 2],
          applyOrderWeights(known, [
            { id: 1, orderWeight: 0.5 },
            { id: 3, orderWeight: 4 },
          ]),
        ),
        [{ id: 3, orderWeight: 1.75 }],
      );
      // To the bottom: above the last.
      assert.deepEqual(orderWeightsFor([1, 2, 3], known), [{ id: 3, orderWeight: 4 }]);
    });

    it('reads back from the sandbox in the order the weights say', async () => {
      const setup = await startCore();
      try {
        const galleryId = (await setup.client.importSpot(spot('order-weights', { state: 2, fld_1_3: null }))).pendingGalleries[0].galleryId;
        for (const name of ['a.png', 'b.png', 'c.png', 'd.png']) await setup.client.uploadMedia(galleryId, file(name, Buffer.from(name)));
        const ids = (await setup.client.getGallery(galleryId)).media.map((media) => media.id);
        let known = new Map<number, number>();
        for (const desired of [moveMediaIds(ids, [ids[3]], 'top'), stepMediaId(ids, ids[0], 1), moveMediaIds(ids, [ids[1]], 'bottom')]) {
          const entries = orderWeightsFor(desired, known);
          await setup.client.setMediaOrder(galleryId, entries);
          known = applyOrderWeights(known, entries);
          assert.deepEqual(
            (await setup.client.getGallery(galleryId)).media.map((media) => media.id),
            desired,
          );
        }
      } finally {
        await setup.sandbox.close();
      }
    });
  });
});
