// A loopback pass-through in front of the test sandbox, over http or https (with a certificate the
// test made), that can cut upload requests at a chosen point. The in-process sandbox's own drop
// fault cuts a request as soon as it arrives, so how much of the body went out first is up to
// timing; this proxy decides instead: part-way through the body, or after all of it (before any
// answer). Everything else is passed through to the sandbox unchanged.
import { createServer as createHttpServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'http';
import { createServer as createHttpsServer } from 'https';
import type { AddressInfo } from 'net';

/**
 * What happens to upload requests (POST …/galleries/{id}/media):
 * - 'forward': passed to the sandbox.
 * - { dropAfterBytes }: the connection is destroyed once that many body bytes were read.
 * - 'dropAfterBody': the whole body is read, then the connection is destroyed without an answer.
 */
export type UploadBehaviour = 'forward' | { dropAfterBytes: number } | 'dropAfterBody';

export interface CutUpload {
  /** The request's Content-Length (undefined when it came chunked). */
  contentLength: number | undefined;
  /** Body bytes the proxy read before it cut the connection. */
  bytesRead: number;
  /** The body had ended when the connection was cut. */
  wholeBodyRead: boolean;
}

const UPLOAD = /\/galleries\/\d+\/media(?:\?|$)/;

export class LoopbackProxy {
  uploads: UploadBehaviour = 'forward';
  /** Upload requests this proxy cut, oldest first. */
  readonly cut: CutUpload[] = [];
  /** Requests seen, by path (token, import, gallery, upload…). */
  readonly requests: string[] = [];
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  /** `tls`: serve https with this key and certificate; plain http without. */
  static async start(targetBaseUrl: string, tls?: { key: string; cert: string }): Promise<LoopbackProxy> {
    const target = new URL(targetBaseUrl);
    const server: Server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }) : createHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const scheme = tls ? 'https' : 'http';
    const self = new LoopbackProxy(server, `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      self.requests.push(request.url ?? '');
      const behaviour = request.method === 'POST' && UPLOAD.test(request.url ?? '') ? self.uploads : 'forward';
      if (behaviour === 'forward') return pass(target, request, response);
      self.cutUpload(request, behaviour);
    });
    // A client that gives up on our certificate closes the handshake: not the test's failure.
    server.on('tlsClientError', () => undefined);
    return self;
  }

  private cutUpload(request: IncomingMessage, behaviour: Exclude<UploadBehaviour, 'forward'>): void {
    const header = request.headers['content-length'];
    const record: CutUpload = { contentLength: header === undefined ? undefined : Number(header), bytesRead: 0, wholeBodyRead: false };
    let cut = false;
    const cutNow = () => {
      if (cut) return;
      cut = true;
      this.cut.push(record);
      request.socket.destroy();
    };
    request.on('data', (chunk: Buffer) => {
      record.bytesRead += chunk.length;
      if (typeof behaviour === 'object' && record.bytesRead >= behaviour.dropAfterBytes) cutNow();
    });
    request.on('end', () => {
      record.wholeBodyRead = true;
      cutNow();
    });
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

function pass(target: URL, request: IncomingMessage, response: ServerResponse): void {
  const upstream = forward({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers }, (reply) => {
    response.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(response);
  });
  upstream.on('error', () => response.destroy());
  request.pipe(upstream);
}
