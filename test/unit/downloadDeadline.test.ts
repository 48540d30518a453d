// A server that drips its reply (a byte at a time, each before the idle timeout) never trips an
// idle timeout: a photo fetched by its web address and a gallery's media file each have an overall
// deadline, which ends the fetch and says so, whether the server drips the photo itself, the body
// of a redirect or the body of an error. A loopback server drips; the tests pass a small deadline.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchError, PhotoFetcher } from '../../src/core/media/remote/photoFetcher';
import { downloadDeadlineMs, downloadMedia, MAX_MEDIA_BYTES } from '../../src/core/mediaFiles/downloadMedia';
import { ServiceError } from '../../src/core/api/errors';
import { scriptedServer } from './helpers/scriptedServer';

const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]);

describe('a download that drips is ended by its deadline', function () {
  this.timeout(10_000);
  let server: Awaited<ReturnType<typeof scriptedServer>>;
  let base: string;
  let cacheDir: string;
  const closed: string[] = [];

  before(async () => {
    server = await scriptedServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      const head: Record<string, [number, Record<string, string>]> = {
        '/photo.jpg': [200, { 'content-type': 'image/jpeg' }],
        '/moved.jpg': [302, { location: '/photo.jpg' }],
        '/broken.jpg': [500, { 'content-type': 'text/plain' }],
      };
      const [status, headers] = head[path] ?? [404, {}];
      response.writeHead(status, headers);
      response.write(status === 200 ? JPEG_HEAD : 'a');
      // One byte every 100 ms, never ending: each well inside any idle timeout.
      const timer = setInterval(() => response.write(status === 200 ? Buffer.from([0]) : 'a'), 100);
      response.on('close', () => {
        clearInterval(timer);
        closed.push(path);
      });
    });
    base = server.url;
  });
  after(() => server.close());
  beforeEach(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'spot-deadline-'));
    closed.length = 0;
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  /** Every dripping reply was dropped by the client: nothing is left reading. */
  async function allDropped(paths: string[]): Promise<void> {
    for (const started = Date.now(); closed.length < paths.length && Date.now() - started < 3000;) await new Promise((resolve) => setTimeout(resolve, 20));
    // A redirect's drip is dropped as the deadline ends its fetch, as is the photo's it led to.
    assert.deepEqual(new Set(closed), new Set(paths));
  }

  it('a photo fetch ends at its deadline, names the address without its query, and keeps nothing', async () => {
    const fetcher = new PhotoFetcher({ cacheDir, idleTimeoutMs: 5000, deadlineMs: 600 });
    for (const path of ['/photo.jpg', '/moved.jpg', '/broken.jpg']) {
      await assert.rejects(fetcher.fetch(`${base}${path}?token=tok123`), (error: Error) => {
        assert.ok(error instanceof FetchError, String(error));
        assert.equal(
          error.message,
          `${base}${path}?… could not be fetched: it did not arrive whole within 0.6 s (the server sends it too slowly). Try again later: the next run fetches it again`,
        );
        return true;
      });
    }
    await allDropped(['/photo.jpg', '/moved.jpg', '/broken.jpg']);
    assert.deepEqual(
      readdirSync(cacheDir).filter((name) => name.endsWith('.part')),
      [],
    );
  });

  it("a media file download's deadline grows with the most it may hold: a gigabyte at 128 KiB/s, never under 15 minutes", () => {
    assert.equal(downloadDeadlineMs(10 * 1024 * 1024), 15 * 60_000);
    assert.equal(downloadDeadlineMs(MAX_MEDIA_BYTES), 8192 * 1000);
  });

  it('a media file download ends at its deadline and says so', async () => {
    for (const path of ['/photo.jpg', '/moved.jpg', '/broken.jpg']) {
      await assert.rejects(downloadMedia(`${base}${path}`, { deadlineMs: 600 }), (error: Error) => {
        assert.ok(error instanceof ServiceError && error.kind === 'timeout', String(error));
        assert.equal(
          error.message,
          `Downloading the media file got no complete reply from ${new URL(base).host} within 0.6 s and was stopped. The server may be overloaded: try again later.`,
        );
        return true;
      });
    }
    await allDropped(['/photo.jpg', '/moved.jpg', '/broken.jpg']);
  });
});
