// Redirects a download follows: a photo fetched by its web address and a gallery's media file
// both refuse one from https down to http, and one from another host to this machine (a server
// on the internet must not make this machine fetch from its own local services and upload what
// they answer). The "other host" is an https server on loopback that the test's dispatcher
// resolves photos.example.test to: no traffic leaves this machine.
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { hasOpenssl, makeTestCertificates, type TestCertificates } from '../integration/helpers/testCertificates';
import { FetchError, PhotoFetcher } from '../../src/core/media/remote/photoFetcher';
import { downloadMedia } from '../../src/core/mediaFiles/downloadMedia';
import { refusedRedirect } from '../../src/core/api/redirectPolicy';

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Buffer.from('JFIF internal bytes '.repeat(10))]);

describe('redirect policy', () => {
  const refused = (from: string, to: string) => refusedRedirect(new URL(from), new URL(to));

  it('refuses https to http, and another host to this machine; follows the rest', () => {
    assert.equal(
      refused('https://a.example/x', 'http://b.example/y'),
      'a.example redirected from https to http://b.example, which is not followed. Give an https address for the file',
    );
    assert.match(refused('https://localhost:8443/x', 'http://localhost:8080/y') ?? '', /^localhost:8443 redirected from https to http:\/\/localhost:8080/);
    // Also the other ways of writing this machine: 0 and 0.0.0.0 (connecting there reaches it), [::], an IPv4-mapped 127 address, a name under localhost.
    for (const local of [
      'https://127.0.0.1/y',
      'http://localhost:3000/y',
      'https://[::1]:1/y',
      'http://127.8.9.1/y',
      'https://0/y',
      'https://0.0.0.0:8443/y',
      'https://[::]/y',
      'https://[::ffff:127.0.0.1]/y',
      'https://[0:0:0:0:0:0:0:1]/y',
      'https://admin.localhost/y',
    ]) {
      assert.match(refused('https://a.example/x', local) ?? '', /on this machine, which is not followed from another host/, local);
    }
    assert.equal(refused('https://a.example/x', 'https://b.example/y'), undefined);
    assert.equal(refused('http://127.0.0.1:1/x', 'http://localhost:2/y'), undefined);
    assert.equal(refused('http://127.0.0.1:1/x', 'https://b.example/y'), undefined);
    assert.equal(refused('https://127.0.0.1:1/x', 'https://localhost:2/y'), undefined);
  });
});

describe('redirects a download follows', function () {
  this.timeout(20_000);
  let certificates: TestCertificates;
  let cacheDir: string;
  let internal: Server;
  let internalHits: string[];
  let remote: Server;
  let remotePort: number;
  let dispatcher: Agent;

  before(async function () {
    if (!hasOpenssl()) this.skip();
    certificates = makeTestCertificates();
    // A plain-http service on this machine (a local admin interface, say) that answers anything.
    internalHits = [];
    internal = createHttpServer((request, response) => {
      internalHits.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    });
    internal.listen(0, '127.0.0.1');
    await once(internal, 'listening');
    const internalPort = (internal.address() as AddressInfo).port;
    // The photo host: reached as photos.example.test, it redirects to this machine.
    remote = createHttpsServer({ key: certificates.key, cert: certificates.cert }, (request, response) => {
      if (request.url === '/to-http.jpg') return response.writeHead(302, { location: `http://127.0.0.1:${internalPort}/admin/export` }).end();
      if (request.url === '/to-loopback.jpg') return response.writeHead(302, { location: `https://127.0.0.1:${remotePort}/internal.jpg` }).end();
      if (request.url === '/internal.jpg') {
        internalHits.push(request.url);
        return response.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      }
      return response.writeHead(404).end();
    });
    remote.listen(0, '127.0.0.1');
    await once(remote, 'listening');
    remotePort = (remote.address() as AddressInfo).port;
    dispatcher = new Agent({
      connect: {
        rejectUnauthorized: false,
        lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options?.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)) as never,
      },
    });
  });
  after(async () => {
    await dispatcher?.close();
    for (const server of [internal, remote]) {
      server?.closeAllConnections();
      server?.close();
    }
    certificates?.cleanup();
  });
  beforeEach(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'spot-redirect-'));
    internalHits.length = 0;
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  const remoteAddress = (path: string) => `https://photos.example.test:${remotePort}${path}`;

  it('a photo host that redirects from https to http on this machine is not followed', async () => {
    const fetcher = new PhotoFetcher({ cacheDir, dispatcher });
    await assert.rejects(fetcher.fetch(remoteAddress('/to-http.jpg')), (error: Error) => {
      assert.ok(error instanceof FetchError, String(error));
      assert.equal(
        error.message,
        `https://photos.example.test:${remotePort}/to-http.jpg could not be fetched: photos.example.test:${remotePort} redirected to http://127.0.0.1:${(internal.address() as AddressInfo).port} on this machine, which is not followed from another host. If the file is on this machine, give its address there`,
      );
      return true;
    });
    assert.deepEqual(internalHits, []);
  });

  it('a photo host that redirects to https on this machine is not followed', async () => {
    const fetcher = new PhotoFetcher({ cacheDir, dispatcher });
    await assert.rejects(
      fetcher.fetch(remoteAddress('/to-loopback.jpg')),
      (error: Error) => error instanceof FetchError && /redirected to https:\/\/127\.0\.0\.1:\d+ on this machine, which is not followed/.test(error.message),
    );
    assert.deepEqual(internalHits, []);
  });

  it('a media file host that redirects to this machine is not followed either', async () => {
    for (const path of ['/to-http.jpg', '/to-loopback.jpg']) {
      await assert.rejects(downloadMedia(remoteAddress(path), { dispatcher }), (error: Error) =>
        /^Downloading the media file failed: photos\.example\.test:\d+ redirected to https?:\/\/127\.0\.0\.1:\d+ on this machine/.test(error.message),
      );
    }
    assert.deepEqual(internalHits, []);
  });
});
