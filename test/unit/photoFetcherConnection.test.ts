// Photos fetched by web address when the connection fails in ways the server or a login causes: a
// server that closes the connection in the middle of a photo (with and without a Content-Length)
// or before it answers, and a login header whose value has a line break (undici refuses to send
// it). Each is a reason in plain words that says what to do, never undici's code, and nothing
// half-fetched is left in the cache.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchError, PhotoFetcher } from '../../src/core/media/remote/photoFetcher';
import { scriptedServer } from './helpers/scriptedServer';

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Buffer.from('JFIF photo bytes '.repeat(100))]);

/** The FetchError's message for `address`. */
async function problemOf(fetcher: PhotoFetcher, address: string): Promise<string> {
  try {
    await fetcher.fetch(address);
  } catch (error) {
    assert.ok(error instanceof FetchError, String(error));
    return error.message;
  }
  return assert.fail(`${address} was fetched`);
}

describe('core media: photos fetched by web address, when the connection or a login fails', () => {
  let cacheDir: string;
  const closing: Array<() => Promise<void>> = [];
  beforeEach(() => (cacheDir = mkdtempSync(join(tmpdir(), 'spot-fetch-cut-'))));
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('a connection the server closes in the middle of the photo, or before it answers, is said in plain words; nothing half-fetched is kept', async () => {
    const server = await scriptedServer((request, response) => {
      if (request.url === '/silent.jpg') {
        response.socket?.destroy();
        return;
      }
      // Half the photo, then the connection goes: with a Content-Length, and without one (chunked).
      response.writeHead(200, { 'content-type': 'image/jpeg', ...(request.url === '/cut.jpg' ? { 'content-length': String(JPEG.length * 2) } : {}) });
      response.write(JPEG, () => setTimeout(() => response.socket?.destroy(), 20));
    });
    closing.push(server.close);
    // Each is asked again as the retry policy says (photoFetcherRetry.test.ts), its waits made short
    // here; a run each, as a run asks a host that failed every attempt no more (that test too).
    const fetcher = () => new PhotoFetcher({ cacheDir, retry: { baseMs: 1 } });
    for (const path of ['/cut.jpg', '/cut-chunked.jpg']) {
      const problem = await problemOf(fetcher(), `${server.url}${path}`);
      assert.doesNotMatch(problem, /UND_ERR|other side closed/);
      assert.match(
        problem,
        /could not be fetched after 6 attempts: the server closed the connection before the photo was complete; try again later: the next run fetches it again/,
      );
    }
    const silent = await problemOf(fetcher(), `${server.url}/silent.jpg`);
    assert.doesNotMatch(silent, /UND_ERR|other side closed/);
    assert.match(silent, /could not be fetched after 6 attempts: the server closed the connection before it answered; try again later/);
    assert.deepEqual(readdirSync(cacheDir), [], 'no .part, no entry');
  });

  it('a login header whose value has a line break is said with where to fix it, and nothing is sent', async () => {
    const server = await scriptedServer((_, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG));
    closing.push(server.close);
    const host = new URL(server.url).host;
    // Where its value comes from, for the message (the command line's --photo-login variable).
    const fromEnvironment = { name: 'Authorization', value: 'Token abc\n', host, source: 'the environment variable KOBO_TOKEN' };
    const problem = await problemOf(new PhotoFetcher({ cacheDir, headers: [fromEnvironment] }), `${server.url}/a.jpg`);
    assert.doesNotMatch(problem, /UND_ERR/);
    assert.match(
      problem,
      new RegExp(
        `the login header Authorization for ${host.replace(/\./g, '\\.')} has a line break .*in its value; fix it in the environment variable KOBO_TOKEN`,
      ),
    );
    assert.ok(!problem.includes('abc'), 'the value is never shown');
    // Given without saying where it comes from (another caller of the core).
    const plain = await problemOf(new PhotoFetcher({ cacheDir, headers: [{ name: 'X-Key', value: 'a\r\nb' }] }), `${server.url}/b.jpg`);
    assert.match(plain, /the login header X-Key for .* has a line break .*in its value; fix its value/);
    assert.equal(server.requests, 0, 'nothing was sent');
  });
});
