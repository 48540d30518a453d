// Connection handling: a reply sent before the body was read (401, 413, 415) reaches the client,
// and idle or stalled sockets are closed after a timeout.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { Agent, request } from 'undici';
import { startSandbox } from '../../src/sandbox';
import type { RunningSandbox } from '../../src/sandbox/types';
import { newToken, startSandboxCli, type SandboxChild } from './helpers/sandboxHttp';

const MiB = 1024 * 1024;

describe('sandbox: early replies reach the client', () => {
  // The sandbox runs in its own process here: in the test's process it would share the event
  // loop with the client, which hides the race between the client reading and the server closing.
  let running: SandboxChild;
  let token: string;
  let dispatcher: Agent;
  before(async () => {
    running = await startSandboxCli(['--port', '0']);
    token = await newToken(running.baseUrl);
    dispatcher = new Agent();
  });
  after(async () => {
    await dispatcher.close();
    running.child.kill('SIGKILL');
  });

  /** Posts `size` bytes with undici and answers the status, or the error the client saw instead. */
  async function post(path: string, size: number, headers: Record<string, string>): Promise<number | string> {
    try {
      const response = await request(`${running.baseUrl}${path}`, { method: 'POST', dispatcher, headers, body: Buffer.alloc(size, 0x20) });
      await response.body.text();
      return response.statusCode;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      return `${(error as { code?: string }).code ?? (error as Error).name}${cause?.code ? ` (${cause.code})` : ''}: ${(error as Error).message}`;
    }
  }

  it('lets 30 clients with an 11-20 MB body read their 413, 401 or 415, never EPIPE or a reset', async function () {
    this.timeout(120_000);
    const seen: Array<string | number> = [];
    for (let i = 0; i < 30; i++) {
      const size = Math.round((11 + (i * 9) / 29) * MiB);
      const kind = i % 3;
      const expected = kind === 0 ? 413 : kind === 1 ? 401 : 415;
      const headers: Record<string, string> =
        kind === 0
          ? { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
          : kind === 1
            ? { authorization: 'Bearer not-a-token', 'content-type': 'application/json' }
            : { authorization: `Bearer ${token}`, 'content-type': 'text/plain' };
      const outcome = await post('/api/v2.4/spots/import', size, headers);
      if (outcome !== expected) seen.push(`#${i} ${size} bytes: expected ${expected}, got ${outcome}`);
    }
    assert.deepEqual(seen, []);
  });
});

describe('sandbox: socket timeouts', () => {
  let sandbox: RunningSandbox;
  let token: string;
  before(async () => {
    sandbox = await startSandbox({ headersTimeoutMs: 300, idleTimeoutMs: 300 });
    token = await newToken(sandbox.baseUrl);
  });
  after(() => sandbox.close());

  /** Opens a raw connection, writes `text`, and resolves once the server closes it (bounded). */
  function closedByServer(text: string): Promise<{ closed: boolean; reply: string }> {
    return new Promise((resolve) => {
      const socket = net.connect(sandbox.port, '127.0.0.1');
      let reply = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ closed: false, reply });
      }, 10_000);
      socket.on('connect', () => {
        if (text) socket.write(text);
      });
      socket.on('data', (chunk) => (reply += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ closed: true, reply });
      });
    });
  }

  it('closes a connection that never sends a request', async () => {
    const outcome = await closedByServer('');
    assert.ok(outcome.closed, 'the server kept an idle connection open');
  });

  it('closes a connection whose headers stall', async () => {
    const outcome = await closedByServer('GET /__sandbox/counters HTTP/1.1\r\nHost: x\r\n');
    assert.ok(outcome.closed, 'the server kept a connection with unfinished headers open');
  });

  it('closes a connection whose body stalls', async () => {
    const outcome = await closedByServer(
      `POST /api/v2.4/spots/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"data":`,
    );
    assert.ok(outcome.closed, 'the server kept a connection with a stalled body open');
  });

  it('still serves ordinary requests with these short timeouts', async () => {
    const response = await fetch(`${sandbox.baseUrl}/__sandbox/counters`);
    assert.equal(response.status, 200);
    await response.text();
  });
});
