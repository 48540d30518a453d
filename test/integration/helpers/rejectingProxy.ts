// A loopback pass-through in front of the test sandbox that can start refusing the client, as a
// service does when a client is revoked in the middle of a run: once `reject` is on, token
// requests get invalid_client and API requests 401. The sandbox itself cannot revoke a client.
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

const isTokenRequest = (request: IncomingMessage) => /access_token$/.test(request.url ?? '');

function refuse(request: IncomingMessage, response: ServerResponse, apiStatus: 401 | 403): void {
  request.resume();
  const isToken = isTokenRequest(request);
  response.writeHead(isToken ? 401 : apiStatus, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify(
      isToken
        ? { error: 'invalid_client', error_description: 'The client was revoked.' }
        : apiStatus === 401
          ? { errors: [{ status: '401', title: 'Unauthorized', detail: 'The access token is not valid.' }] }
          : { errors: [{ status: '403', title: 'Forbidden', detail: 'This client may not change this gallery.' }] },
    ),
  );
}

export class RejectingProxy {
  /** Refuse everything from now on. */
  reject = false;
  /**
   * Refuse only API requests, with this status, while tokens are still issued: a 401 then comes
   * with a fresh token too (access revoked at the service), a 403 says the client may not do it.
   */
  refuseApi?: 401 | 403;
  /** Import requests passed through to the sandbox. */
  importsForwarded = 0;
  /** Turns `reject` on once this many imports have been forwarded. */
  rejectAfterImports?: number;
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(targetBaseUrl: string): Promise<RejectingProxy> {
    const target = new URL(targetBaseUrl);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const self = new RejectingProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const isImport = /\/spots\/import$/.test(request.url ?? '');
      if (isImport && self.rejectAfterImports !== undefined && self.importsForwarded >= self.rejectAfterImports) self.reject = true;
      if (self.reject) return refuse(request, response, 401);
      if (self.refuseApi && !isTokenRequest(request)) return refuse(request, response, self.refuseApi);
      if (isImport) self.importsForwarded++;
      const upstream = forward({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers }, (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      });
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    });
    return self;
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
