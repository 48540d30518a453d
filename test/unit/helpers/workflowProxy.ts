// A loopback proxy in front of the sandbox that can lose a reply after the sandbox has handled the
// request (the sandbox stored the upload, the client never hears of it): the one case that makes
// an upload uncertain, made to happen on purpose.
import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReplyInfo {
  method: string;
  path: string;
  status: number;
}

/**
 * 'lose': the sandbox has answered, but the client's connection is cut instead of getting the reply.
 * 'drip': the client gets the reply's status and headers, then `{"data":` and a space every 100 ms,
 * never the end (a reply that no idle timeout ends).
 */
export type ReplyVerdict = 'pass' | 'lose' | 'drip';

export interface WorkflowProxy {
  url: string;
  /** Replies lost (or dripped) so far. */
  lost: number;
  close(): Promise<void>;
}

export async function replyLosingProxy(target: string, decide: (reply: ReplyInfo) => ReplyVerdict | Promise<ReplyVerdict>): Promise<WorkflowProxy> {
  const upstream = new URL(target);
  const state = { lost: 0 };
  const server = createServer((req: IncomingMessage, res) => {
    const outgoing = forward({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, async (reply) => {
      const chunks: Buffer[] = [];
      for await (const chunk of reply) chunks.push(chunk as Buffer);
      const verdict = await decide({ method: req.method ?? 'GET', path: req.url ?? '/', status: reply.statusCode ?? 0 });
      if (verdict === 'lose') {
        state.lost++;
        req.socket.destroy();
        return;
      }
      if (verdict === 'drip') {
        state.lost++;
        res.writeHead(reply.statusCode ?? 502, { 'content-type': 'application/json' });
        res.write('{"data":');
        const timer = setInterval(() => res.write(' '), 100);
        req.socket.on('close', () => clearInterval(timer));
        return;
      }
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      res.end(Buffer.concat(chunks));
    });
    outgoing.on('error', () => req.socket.destroy());
    req.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get lost() {
      return state.lost;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
