// Loopback servers that answer whatever a test scripts: for replies no honest server sends.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** `body`: the request body as text, read whole before the handler runs. */
export type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

export async function scriptedServer(handler: Handler): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server = createServer((request, response) => {
    state.requests++;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export interface DripServer {
  url: string;
  /** Requests that reached the dripping part, by path. */
  readonly dripping: string[];
  /** Connections of dripping requests that the client closed (the server saw them go). */
  readonly closedByClient: number;
  close(): Promise<void>;
}

/**
 * Reads the whole request, answers 200 and then sends its body one byte every `intervalMs`, never
 * finishing: no idle timeout ever fires. With `silent`, it answers nothing at all after reading
 * the request. Paths for which `serve` returns a reply are answered normally instead (a token,
 * say). Each drip stops when the client goes away or the server closes.
 */
export async function dripServer(
  serve: (request: IncomingMessage) => { status: number; body: unknown } | undefined = () => undefined,
  intervalMs = 200,
  silent = false,
): Promise<DripServer> {
  const state = { dripping: [] as string[], closedByClient: 0, closing: false };
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const answer = serve(request);
      if (answer) return json(response, answer.status, answer.body);
      state.dripping.push(request.url ?? '');
      if (!silent) response.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => silent || response.write(' '), intervalMs);
      timers.add(timer);
      response.socket?.on('close', () => {
        clearInterval(timer);
        timers.delete(timer);
        if (!state.closing) state.closedByClient++;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get dripping() {
      return state.dripping;
    },
    get closedByClient() {
      return state.closedByClient;
    },
    close: () =>
      new Promise<void>((resolve) => {
        state.closing = true;
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface EarlyRefusalServer {
  url: string;
  /** Makes every token issued so far invalid, as an expiry or a restart does. */
  expireAllTokens(): void;
  readonly counters: { tokens: number; refused: number; stored: number };
  close(): Promise<void>;
}

/**
 * A plain node:http service that issues tokens and stores uploads, and refuses a request whose
 * token it does not know the way many real servers do: it answers 401 as soon as the headers are
 * in, without reading the body, and drops the connection at once (a reset, since the body is
 * unread). A client still writing the body may then never see the 401.
 */
export async function earlyRefusalServer(): Promise<EarlyRefusalServer> {
  const valid = new Set<string>();
  const counters = { tokens: 0, refused: 0, stored: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    if (request.url?.includes('access_token')) {
      request.resume();
      request.on('end', () => {
        const token = `early-${++counters.tokens}-${Math.random().toString(36).slice(2)}`;
        valid.add(token);
        json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
      });
      return;
    }
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!valid.has(token)) {
      counters.refused++;
      response.writeHead(401, { 'content-type': 'application/json', connection: 'close' });
      response.end(JSON.stringify({ errors: [{ status: '401', title: 'Unauthorized', detail: 'The access token expired.' }] }));
      request.socket.resetAndDestroy();
      return;
    }
    request.resume();
    request.on('end', () => {
      counters.stored++;
      json(response, 200, { data: { id: counters.stored, type: 'media' } });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    expireAllTokens: () => valid.clear(),
    counters,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
