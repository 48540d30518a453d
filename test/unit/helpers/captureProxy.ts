// A loopback pass-through in front of a sandbox that keeps the exact bytes of every import
// request body, so tests can compare what different paths put on the wire.
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const IMPORT = /\/spots\/import(?:\?|$)/;

export interface CaptureProxy {
  baseUrl: string;
  /** Bodies of the import requests, oldest first, byte for byte. */
  readonly imports: Buffer[];
  close(): Promise<void>;
}

export async function startCaptureProxy(targetBaseUrl: string): Promise<CaptureProxy> {
  const target = new URL(targetBaseUrl);
  const imports: Buffer[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (request.method === 'POST' && IMPORT.test(request.url ?? '')) imports.push(body);
      const upstream = forward({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers }, (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      });
      upstream.on('error', () => response.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    imports,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
