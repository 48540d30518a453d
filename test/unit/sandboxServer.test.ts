import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as net from 'node:net';
import { resolve } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { newToken, rawRequest, send, useSandbox } from './helpers/sandboxHttp';

describe('sandbox: routing and errors', () => {
  const ctx = useSandbox();

  it('listens on 127.0.0.1 and reports its base URL', () => {
    assert.match(ctx.sandbox.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(ctx.sandbox.baseUrl, `http://127.0.0.1:${ctx.sandbox.port}`);
  });

  it('answers unknown paths with a JSON:API 404', async () => {
    for (const path of [
      '/',
      '/api/v2.4/spots',
      '/api/v2.4/spots/import/',
      '/api/v2.4//galleries/1',
      '/api/latest/galleries/1',
      '/api/v2.4/galleries/1/media/x',
    ]) {
      const reply = await send(`${ctx.sandbox.baseUrl}${path}`, { headers: { Authorization: `Bearer ${ctx.token}` } });
      assert.equal(reply.status, 404, path);
      assert.equal(reply.json.errors[0].status, '404');
      assert.match(reply.headers.get('content-type') ?? '', /^application\/vnd\.api\+json/);
    }
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/api/v2.4/spots/import', 'POST'],
      ['DELETE', '/api/v2.4/galleries/1', 'GET, HEAD'],
      ['PUT', '/api/v2.4/galleries/1/media', 'POST'],
      ['POST', '/__sandbox/counters', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const reply = await send(`${ctx.sandbox.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${ctx.token}` } });
      assert.equal(reply.status, 405, `${method} ${path}`);
      assert.equal(reply.headers.get('allow'), allow);
      assert.equal(reply.json.errors[0].code, 'method_not_allowed');
    }
  });

  it('answers a garbage request line without crashing and keeps serving', async () => {
    const socket = net.connect(ctx.sandbox.port, '127.0.0.1');
    socket.write('THIS IS NOT HTTP\r\n\r\n');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.equal((await rawRequest(`${ctx.sandbox.baseUrl}/__sandbox/counters`)).status, 200);
  });
});

describe('sandbox: internal errors', () => {
  it('answers a genuine internal error with a bare 500: no stack, no message', async () => {
    let broken = false;
    const seen: unknown[] = [];
    const sandbox = await startSandbox({
      now: () => {
        if (broken) throw new Error('clock exploded in /secret/place');
        return Date.now();
      },
      onInternalError: (error) => seen.push(error),
    });
    try {
      const token = await newToken(sandbox.baseUrl);
      broken = true;
      const reply = await send(`${sandbox.baseUrl}/api/v2.4/galleries/1`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(reply.status, 500);
      assert.deepEqual(reply.json, {
        errors: [{ status: '500', code: 'internal_error', title: 'Internal Server Error', detail: 'The sandbox failed to handle this request.' }],
      });
      assert.ok(!reply.text.includes('exploded') && !reply.text.includes('    at '));
      assert.equal(seen.length, 1);
      assert.match(String(seen[0]), /clock exploded/);
      broken = false;
      assert.equal((await send(`${sandbox.baseUrl}/api/v2.4/galleries/1`, { headers: { Authorization: `Bearer ${token}` } })).status, 404, 'still serving');
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox: start and close', () => {
  it('refuses invalid options', async () => {
    await assert.rejects(startSandbox({ port: 70000 }), /port/);
    await assert.rejects(startSandbox({ tokenTtlSeconds: 0 }), /tokenTtlSeconds/);
    await assert.rejects(startSandbox({ clients: [] }), /clients/);
    await assert.rejects(startSandbox({ faults: { rateDrop: 3 } }), /rateDrop/);
  });

  it('fails to start on a port in use', async () => {
    const first = await startSandbox();
    try {
      await assert.rejects(startSandbox({ port: first.port }), /EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  it('closes promptly with open keep-alive connections, and removes its temporary media directory', async () => {
    const sandbox = await startSandbox();
    const token = await newToken(sandbox.baseUrl); // fetch keeps this connection alive
    await send(`${sandbox.baseUrl}/api/v2.4/galleries/1`, { headers: { Authorization: `Bearer ${token}` } });
    assert.ok(existsSync(sandbox.mediaDir));
    const started = Date.now();
    await sandbox.close();
    assert.ok(Date.now() - started < 1000, `close took ${Date.now() - started} ms`);
    assert.ok(!existsSync(sandbox.mediaDir));
    await assert.rejects(rawRequest(`${sandbox.baseUrl}/__sandbox/counters`), /ECONNREFUSED/);
    await sandbox.close(); // a second close is harmless
  });

  it('removes its temporary media directory even when the process exits without close()', () => {
    const entry = resolve(__dirname, '../../src/sandbox/index.js');
    const script = `require(${JSON.stringify(entry)}).startSandbox().then((s) => { console.log(s.mediaDir); process.exit(0); })`;
    const mediaDir = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
    assert.match(mediaDir, /spot-sandbox-/);
    assert.ok(!existsSync(mediaDir), `${mediaDir} was left behind`);
  });

  it('runs several sandboxes side by side with separate data', async () => {
    const [a, b] = await Promise.all([startSandbox(), startSandbox()]);
    try {
      assert.notEqual(a.port, b.port);
      const token = await newToken(a.baseUrl);
      const reply = await send(`${b.baseUrl}/api/v2.4/galleries/1`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(reply.status, 401, "one sandbox's token means nothing to another");
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
