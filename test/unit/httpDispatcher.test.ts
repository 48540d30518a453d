import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';
import { createDispatcher, proxyOptionsFromEnv } from '../../src/core/api/http';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { TokenSource, defaultTokenUrl } from '../../src/core/api/tokenSource';
import { DEMO_CLIENT } from '../../src/sandbox/types';

/** A CONNECT proxy on loopback that records where it was asked to go (and sends 127.0.0.2 to 127.0.0.1). */
async function startProxy(): Promise<{ url: string; targets: string[]; server: Server }> {
  const targets: string[] = [];
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, clientSocket, head) => {
    targets.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host === '127.0.0.2' ? '127.0.0.1' : host, () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, targets, server };
}

describe('HTTP dispatcher options', () => {
  let setup: CoreSetup | undefined;
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  afterEach(async () => {
    await setup?.sandbox.close();
    proxy?.server.closeAllConnections();
    proxy?.server.close();
    setup = proxy = undefined;
  });

  it('sends requests through the configured proxy', async () => {
    setup = await startCore();
    proxy = await startProxy();
    const dispatcher = createDispatcher({ proxyUrl: proxy.url }, {});
    // 127.0.0.2 is loopback for the https rule but not in the built-in no-proxy list.
    const baseUrl = setup.sandbox.baseUrl.replace('127.0.0.1', '127.0.0.2');
    const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(baseUrl), ...DEMO_CLIENT, dispatcher });
    const client = new ServiceClient({ baseUrl, tokens, dispatcher });
    assert.ok((await client.importSpot(spot('via-proxy'))).spotId > 0);
    assert.ok(proxy.targets.length >= 1 && proxy.targets.every((target) => target.startsWith('127.0.0.2:')), proxy.targets.join());
    await dispatcher.close();
  });

  it('never proxies 127.0.0.1 or hosts in the no-proxy list', async () => {
    setup = await startCore();
    proxy = await startProxy();
    const dispatcher = createDispatcher({ proxyUrl: proxy.url, noProxy: ['127.0.0.2'] }, {});
    for (const baseUrl of [setup.sandbox.baseUrl, setup.sandbox.baseUrl.replace('127.0.0.1', '127.0.0.2')]) {
      const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(baseUrl), ...DEMO_CLIENT, dispatcher });
      await new ServiceClient({ baseUrl, tokens, dispatcher }).importSpot(spot(`direct-${baseUrl}`)).catch((error: Error) => {
        // 127.0.0.2 is not served directly: a refused connection proves the proxy was bypassed.
        assert.match(error.message, /refused/);
      });
    }
    assert.deepEqual(proxy.targets, []);
    await dispatcher.close();
  });

  it('reads the usual proxy variables', () => {
    const options = proxyOptionsFromEnv({ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'a.example, b.example', NODE_TLS_REJECT_UNAUTHORIZED: '0' });
    assert.deepEqual(options, { proxyUrl: 'http://proxy:3128', noProxy: ['a.example', 'b.example'], strictSSL: false });
    assert.deepEqual(proxyOptionsFromEnv({}), { proxyUrl: undefined, noProxy: [], strictSSL: true });
  });
});
