// Photos fetched by web address from a server that says "not now": 429 and 503, with Retry-After
// or without, and a connection dropped once. They are tried again by the service client's policy
// (retryPolicy.ts: Retry-After honoured, a bounded number of retries), the wait ends when the run
// is cancelled, and a server that never stops refusing gets a message that says how often it was
// asked and when to come back. Loopback servers only.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCancellation } from '../../src/core/api/errors';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/core/api/retryPolicy';
import { FetchError, PhotoFetcher } from '../../src/core/media/remote/photoFetcher';
import { scriptedServer } from './helpers/scriptedServer';

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Buffer.from('JFIF photo bytes '.repeat(100))]);

describe('core media: photos fetched by web address from a busy server', function () {
  this.timeout(20_000);
  let cacheDir: string;
  const closing: Array<() => Promise<void>> = [];
  beforeEach(() => (cacheDir = mkdtempSync(join(tmpdir(), 'spot-fetch-retry-'))));
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  /** A server whose n-th request (from 1) gets what `answer` says; the times the requests came, in ms. */
  async function server(answer: (n: number, response: import('node:http').ServerResponse) => void) {
    const times: number[] = [];
    const serving = await scriptedServer((_, response) => {
      times.push(Date.now());
      answer(times.length, response);
    });
    closing.push(serving.close);
    return { url: `${serving.url}/photo.jpg`, times };
  }

  const fetcher = (retry?: Partial<RetryPolicy>) => new PhotoFetcher({ cacheDir, ...(retry ? { retry } : {}) });

  it('429 with Retry-After: 1 is asked again after that second, and the photo is had', async () => {
    const busy = await server((n, response) => {
      if (n === 1) response.writeHead(429, { 'retry-after': '1' }).end('slow down');
      else response.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    });
    const fetched = await fetcher().fetch(busy.url);
    assert.deepEqual(readFileSync(fetched.path), JPEG);
    assert.equal(busy.times.length, 2);
    assert.ok(busy.times[1] - busy.times[0] >= 950, `asked again after ${busy.times[1] - busy.times[0]} ms, not the second asked for`);
  });

  it('503 every time: asked as often as the policy says (1 + its retries), then a message that says so and when to try', async () => {
    const down = await server((_, response) => response.writeHead(503).end('maintenance'));
    // The policy's number of retries, its waits made short.
    const problem = await fetcher({ baseMs: 1 })
      .fetch(down.url)
      .then(
        () => assert.fail('fetched'),
        (error: Error) => error,
      );
    assert.ok(problem instanceof FetchError, String(problem));
    assert.equal(down.times.length, 1 + DEFAULT_RETRY_POLICY.maxRetries);
    assert.match(
      problem.message,
      new RegExp(`photo\\.jpg could not be fetched after ${1 + DEFAULT_RETRY_POLICY.maxRetries} attempts: the server answered 503`),
    );
    assert.match(problem.message, /try again later/);
  });

  it("a host that failed every attempt is not asked again for the run's other photos: they fail at once, naming the first failure", async () => {
    const down = await server((_, response) => response.writeHead(503).end('maintenance'));
    const run = fetcher({ baseMs: 1 });
    await assert.rejects(run.fetch(down.url), FetchError);
    const asked = down.times.length;
    const started = Date.now();
    await assert.rejects(
      run.fetch(down.url.replace('photo.jpg', 'other.jpg')),
      (error: Error) => error instanceof FetchError && /other\.jpg was not fetched: .* did not answer earlier in this run.*503/.test(error.message),
    );
    assert.equal(down.times.length, asked, 'not asked again');
    assert.ok(Date.now() - started < 500, 'at once');
    // A later run asks again.
    await assert.rejects(fetcher({ baseMs: 1 }).fetch(down.url.replace('photo.jpg', 'other.jpg')), FetchError);
    assert.equal(down.times.length, asked * 2);
  });

  it('a Retry-After longer than the policy ever waits is not waited for: the message says when to come back', async () => {
    const later = await server((_, response) => response.writeHead(429, { 'retry-after': '3600' }).end());
    await assert.rejects(
      fetcher().fetch(later.url),
      (error: Error) => error instanceof FetchError && /could not be fetched: the server answered 429.*asked to wait 3600 s/.test(error.message),
    );
    assert.equal(later.times.length, 1);
  });

  it('a connection dropped once is tried again; a wait is ended by cancelling', async () => {
    const dropping = await server((n, response) => {
      if (n === 1) response.socket?.destroy();
      else response.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    });
    assert.deepEqual(readFileSync((await fetcher({ baseMs: 1 }).fetch(dropping.url)).path), JPEG);
    assert.equal(dropping.times.length, 2);

    const waiting = await server((_, response) => response.writeHead(503, { 'retry-after': '10' }).end());
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    await assert.rejects(fetcher().fetch(waiting.url, controller.signal), (error: Error) => isCancellation(error));
    assert.ok(Date.now() - started < 5000, 'not the 10 s asked for');
    assert.equal(waiting.times.length, 1);
  });
});
