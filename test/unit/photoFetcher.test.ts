// Photos fetched by their web address (PhotoFetcher) from test servers on this machine: the cache
// answers a second time without a request, redirects are followed and a login header never
// follows one to another host, and a server that refuses, answers something that is no photo,
// sends too much or drips gets a clear problem that names the address without its query.
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchError, PhotoFetcher } from '../../src/core/media/remote/photoFetcher';
import { addressLabel } from '../../src/core/media/remote/photoAddress';

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Buffer.from('JFIF photo bytes '.repeat(100))]);

interface Seen {
  path: string;
  authorization?: string;
  ifNoneMatch?: string;
}

/** A server on 127.0.0.1 whose routes answer as the test says; every request is noted. */
async function serve(
  routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void>,
): Promise<{ base: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    seen.push({ path, authorization: request.headers.authorization, ifNoneMatch: request.headers['if-none-match'] as string | undefined });
    (routes[path] ?? ((_, res) => res.writeHead(404).end('not here')))(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('core media: photos fetched by their web address', () => {
  let cacheDir: string;
  const servers: Server[] = [];
  beforeEach(() => (cacheDir = mkdtempSync(join(tmpdir(), 'spot-fetch-'))));
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('fetches a photo once: the cache answers the next time without a request; refresh asks with its ETag and keeps it on 304', async () => {
    const photo = await serve({
      '/p/1.jpg': (request, response) => {
        if (request.headers['if-none-match'] === '"v1"') response.writeHead(304).end();
        else response.writeHead(200, { 'content-type': 'image/jpeg', etag: '"v1"' }).end(JPEG);
      },
    });
    servers.push(photo.server);
    const first = await new PhotoFetcher({ cacheDir }).fetch(`${photo.base}/p/1.jpg`);
    assert.equal(first.from, 'server');
    assert.equal(first.type, 'image/jpeg');
    assert.deepEqual(readFileSync(first.path), JPEG);
    const again = await new PhotoFetcher({ cacheDir }).fetch(`${photo.base}/p/1.jpg`);
    assert.equal(again.from, 'cache');
    assert.equal(photo.seen.length, 1, 'the second run asks nothing');
    const refreshing = new PhotoFetcher({ cacheDir, refresh: true });
    assert.equal((await refreshing.fetch(`${photo.base}/p/1.jpg`)).from, 'cache');
    // A run asks once per address, however many rows name it.
    assert.equal((await refreshing.fetch(`${photo.base}/p/1.jpg`)).from, 'cache');
    assert.deepEqual(
      photo.seen.map((request) => request.ifNoneMatch),
      [undefined, '"v1"'],
    );
    // The cache does not keep the address (its query may hold a token), only its hash.
    const kept = readdirSync(cacheDir).filter((name) => name.endsWith('.json'));
    assert.ok(!readFileSync(join(cacheDir, kept[0]), 'utf8').includes('127.0.0.1'));
  });

  it('follows redirects; the login header goes to its host only, never across a redirect to another', async () => {
    const elsewhere = await serve({ '/moved.jpg': (_, response) => response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(JPEG) });
    servers.push(elsewhere.server);
    // localhost is another host than 127.0.0.1, though the same machine.
    const otherHost = elsewhere.base.replace('127.0.0.1', 'localhost');
    const photo = await serve({
      '/a.jpg': (_, response) => response.writeHead(302, { location: '/b.jpg' }).end(),
      '/b.jpg': (_, response) => response.writeHead(301, { location: `${otherHost}/moved.jpg` }).end(),
      '/loop.jpg': (_, response) => response.writeHead(302, { location: '/loop.jpg' }).end(),
      '/nowhere.jpg': (_, response) => response.writeHead(302, { location: 'http://[not an address' }).end(),
      '/refused.jpg': (_, response) => response.writeHead(401).end(),
    });
    servers.push(photo.server);
    const host = new URL(photo.base).host;
    const refusedBy: string[] = [];
    const fetcher = new PhotoFetcher({
      cacheDir,
      headers: [{ name: 'Authorization', value: 'Token s3cret', host }],
      onLoginRefused: (by) => refusedBy.push(by),
    });
    const fetched = await fetcher.fetch(`${photo.base}/a.jpg?access=1`);
    assert.deepEqual(readFileSync(fetched.path), JPEG, 'an octet-stream that is a JPEG by its bytes is one');
    assert.deepEqual(
      photo.seen.map((request) => [request.path, request.authorization]),
      [
        ['/a.jpg', 'Token s3cret'],
        ['/b.jpg', 'Token s3cret'],
      ],
    );
    assert.deepEqual(
      elsewhere.seen.map((request) => [request.path, request.authorization]),
      [['/moved.jpg', undefined]],
      'not across the redirect to another host',
    );
    await assert.rejects(fetcher.fetch(`${photo.base}/loop.jpg`), (error: Error) => error instanceof FetchError && /more than 5 redirects/.test(error.message));
    await assert.rejects(
      fetcher.fetch(`${photo.base}/nowhere.jpg`),
      (error: Error) => error instanceof FetchError && /redirected it to something that is no address/.test(error.message),
    );
    await assert.rejects(
      fetcher.fetch(`${photo.base}/refused.jpg`),
      (error: Error) => error instanceof FetchError && /the login sent was refused/.test(error.message),
    );
    assert.deepEqual(refusedBy, [host], 'a refused login is said, for the editor to drop it');
  });

  it('says why a photo could not be had: a refusal, a page that is no photo, too many bytes, a server that drips, http elsewhere; never the query', async () => {
    const photo = await serve({
      '/secret.jpg': (_, response) => response.writeHead(401).end(),
      '/login.jpg': (_, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html><body>Please log in</body></html>'),
      '/big.jpg': (_, response) => response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(JPEG.length) }).end(JPEG),
      '/chunked.jpg': (_, response) => {
        response.writeHead(200, { 'content-type': 'image/jpeg' });
        response.write(JPEG);
        response.end(JPEG);
      },
      '/drip.jpg': (_, response) => {
        response.writeHead(200, { 'content-type': 'image/jpeg' });
        response.write(JPEG.subarray(0, 10));
      },
    });
    servers.push(photo.server);
    const fetcher = new PhotoFetcher({ cacheDir, maxBytes: 1000, idleTimeoutMs: 300 });
    const problem = async (path: string) => {
      try {
        await fetcher.fetch(`${photo.base}${path}?token=abc`);
      } catch (error) {
        assert.ok(error instanceof FetchError, String(error));
        assert.ok(!error.message.includes('abc'), error.message);
        return error.message;
      }
      assert.fail(`${path} was fetched`);
    };
    assert.match(await problem('/secret.jpg'), /\/secret\.jpg\?… could not be fetched: the server answered 401 \(it needs a login/);
    assert.match(
      await problem('/login.jpg'),
      /login\.jpg\?… is not a photo or video a gallery takes: its first bytes are no accepted type \(the server called it image\/jpeg\)/,
    );
    assert.match(await problem('/big.jpg'), /big\.jpg\?… could not be fetched: it is 1[.,]7 KB, more than 1000 bytes/);
    assert.match(await problem('/chunked.jpg'), /chunked\.jpg\?… could not be fetched: it is more than 1000 bytes/);
    assert.match(await problem('/drip.jpg'), /drip\.jpg\?… could not be fetched: the server sent nothing for 0[.,]3 s/);
    await assert.rejects(
      fetcher.fetch('http://example.com/photo.jpg'),
      (error: Error) => error instanceof FetchError && /photos are fetched over https only \(http only from this machine\)/.test(error.message),
    );
    // Nothing half-fetched is left in the cache.
    assert.deepEqual(
      (await import('node:fs')).readdirSync(cacheDir).filter((name) => name.endsWith('.part')),
      [],
    );
  });

  it('names a photo without its query: two addresses that differ only there stay two, and no token is written', () => {
    const one = addressLabel('https://example.org/a.jpg?token=abc');
    const two = addressLabel('https://example.org/a.jpg?token=def');
    assert.match(one, /^https:\/\/example\.org\/a\.jpg\?…#[0-9a-f]{12}$/);
    assert.notEqual(one, two);
    assert.ok(!one.includes('abc'));
    assert.equal(addressLabel('https://example.org/b.jpg'), 'https://example.org/b.jpg');
  });
});
