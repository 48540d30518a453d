// An upload sends the file's bytes exactly, as one multipart part whose length it announces, read
// from the file it opened once: a file that changes size while it is sent fails clearly and is
// never reported as stored, and a path that is not a file is refused before anything is sent.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import busboy from 'busboy';
import { Agent, request } from 'undici';
import { waitFor } from './helpers/sandboxHttp';
import { json } from './helpers/scriptedServer';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { TokenSource } from '../../src/core/api/tokenSource';
import { ServiceError, isCancellation } from '../../src/core/api/errors';
import { HeldFile } from '../../src/core/api/heldFile';

interface Received {
  contentLength: number;
  fileName?: string;
  mimeType?: string;
  sha256?: string;
  bytes: number;
  complete: boolean;
}

interface UploadServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

type Hook = (request: IncomingMessage, readSoFar: number) => void;

/** Issues tokens; parses every upload with busboy and answers 200 with a media id. `hook` sees the body as it arrives. */
async function uploadServer(hook?: Hook): Promise<UploadServer> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.includes('access_token')) {
      request.resume();
      request.on('end', () => json(response, 200, { access_token: `upload-token-${received.length}`, token_type: 'Bearer', expires_in: 3600 }));
      return;
    }
    const entry: Received = { contentLength: Number(request.headers['content-length']), bytes: 0, complete: false };
    received.push(entry);
    const hash = createHash('sha256');
    const parser = busboy({ headers: request.headers });
    parser.on('file', (_field, stream, info) => {
      entry.fileName = info.filename;
      entry.mimeType = info.mimeType;
      stream.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        entry.bytes += chunk.length;
      });
      stream.on('end', () => (entry.sha256 = hash.digest('hex')));
    });
    parser.on('close', () => {
      entry.complete = true;
      json(response, 200, { data: { id: String(received.length), type: 'media' } });
    });
    parser.on('error', () => request.socket.destroy());
    let read = 0;
    request.on('data', (chunk: Buffer) => {
      read += chunk.length;
      hook?.(request, read);
    });
    request.pipe(parser);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Issues tokens; answers every other request with `status` as soon as its head arrives. */
async function scriptedServerAnsweringAtOnce(status: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.url?.includes('access_token')) {
      request.resume();
      request.on('end', () => json(response, 200, { access_token: 'early-token', token_type: 'Bearer', expires_in: 3600 }));
      return;
    }
    json(response, status, { errors: [{ detail: 'not this one' }] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function clientFor(server: { url: string }): ServiceClient {
  return new ServiceClient({
    baseUrl: server.url,
    tokens: new TokenSource({ tokenUrl: `${server.url}/api/v2/access_token`, clientId: 'a', clientSecret: 'secret-b' }),
  });
}

/** How many of this process's descriptors are open on `file` (Linux's /proc). */
function openDescriptors(file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      // /proc names the real path: a temporary folder reached through a link would never match.
      return readlinkSync(`/proc/self/fd/${fd}`) === realpathSync(file);
    } catch {
      return false; // closed meanwhile
    }
  }).length;
}

/** Counts the buffers of `bytes` or more made while it counts (Buffer.alloc, allocUnsafe, allocUnsafeSlow). */
function countLargeBuffers(bytes: number): { count(): number; restore(): void } {
  const original = { alloc: Buffer.alloc, allocUnsafe: Buffer.allocUnsafe, allocUnsafeSlow: Buffer.allocUnsafeSlow };
  let count = 0;
  const counting = <F extends (size: number, ...rest: never[]) => Buffer>(make: F): F =>
    function (this: unknown, size: number, ...rest: never[]) {
      if (size >= bytes) count++;
      return make.call(this, size, ...rest);
    } as F;
  Buffer.alloc = counting(original.alloc);
  Buffer.allocUnsafe = counting(original.allocUnsafe);
  Buffer.allocUnsafeSlow = counting(original.allocUnsafeSlow);
  return {
    count: () => count,
    restore: () => Object.assign(Buffer, original),
  };
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

describe('uploading a file', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'spot-upload-'));
  let server: UploadServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('sends the bytes of files of every size exactly, with the announced length, name and type', async () => {
    server = await uploadServer();
    const client = clientFor(server);
    // Empty, one read, exactly one read's worth (1 MiB), and several reads with a short last one.
    const sizes = [0, 200 * 1024, 1024 * 1024, 2.5 * 1024 * 1024];
    for (const [index, size] of sizes.entries()) {
      const data = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4096) data[i] = (i / 4096 + index) % 251;
      const file = join(dir, `file-${index}.png`);
      writeFileSync(file, data);
      const progress: Array<[number, number]> = [];
      const result = await client.uploadMedia(7, file, { onProgress: (sent, total) => progress.push([sent, total]) });
      const got: Received = server!.received[index];
      assert.equal(got.bytes, size, `${size} bytes`);
      assert.equal(got.sha256, sha256(data), `${size} bytes`);
      assert.equal(got.fileName, `file-${index}.png`);
      assert.equal(got.mimeType, 'image/png');
      assert.ok(got.complete);
      assert.ok(got.contentLength > size && got.contentLength < size + 512, `Content-Length ${got.contentLength} for ${size} bytes`);
      assert.equal(result.bytes, size);
      assert.deepEqual(result.reply, { data: { id: String(index + 1), type: 'media' } });
      assert.deepEqual(progress.at(-1), [size, size]);
    }
  });

  for (const change of ['grows', 'shrinks'] as const) {
    it(`fails clearly, sent once and not stored, when the file ${change} while it is being sent`, async () => {
      const file = join(dir, `changing-${change}.bin`);
      writeFileSync(file, Buffer.alloc(16 * 1024 * 1024, 5));
      let changed = false;
      // Once 1 MiB arrived, the server stops reading (the client waits on the connection with
      // most of the file unread), changes the file, and reads on.
      server = await uploadServer((request, read) => {
        if (changed || read < 1024 * 1024) return;
        changed = true;
        request.pause();
        if (change === 'grows') appendFileSync(file, Buffer.alloc(1024, 6));
        else truncateSync(file, 2 * 1024 * 1024);
        setTimeout(() => request.resume(), 50);
      });
      const error = await clientFor(server)
        .uploadMedia(7, file)
        .then(
          () => assert.fail('the upload should fail'),
          (reason: unknown) => reason,
        );
      assert.ok(error instanceof ServiceError, String(error));
      assert.equal(error.kind, 'configuration');
      assert.equal(error.requestSent, 'partly');
      assert.match(
        error.message,
        new RegExp(
          `changing-${change}\\.bin changed while it was being sent \\(it ${change === 'grows' ? 'grew' : 'shrank'} from 16777216 bytes\\).*cannot have been stored`,
        ),
      );
      assert.ok(changed);
      assert.equal(server.received.length, 1, 'not sent again');
      assert.equal(server.received[0].complete, false, 'the server never got a whole body');
    });
  }

  for (const size of [200 * 1024, 2.5 * 1024 * 1024]) {
    it(`holdEnd: the file's last byte and the framing after it wait for it (${size} bytes); when it fails, the upload fails with its error and nothing is stored`, async () => {
      const file = join(dir, `held-end-${size}.bin`);
      writeFileSync(file, Buffer.alloc(size, 7));
      let arrived = 0;
      server = await uploadServer((_request, read) => (arrived = read));
      const client = clientFor(server);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const upload = client.uploadMedia(7, file, { holdEnd: gate });
      // All but the final piece (the file's last byte and the closing boundary, under 200 bytes)
      // arrives, and then nothing until the gate opens: the parser has not seen the file end.
      await waitFor(() => server!.received.length > 0 && arrived >= server!.received[0].contentLength - 200, 'all but the final piece to arrive', 10_000);
      const before = arrived;
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(arrived, before, 'nothing more arrives while the gate is shut');
      assert.ok(arrived < server.received[0].contentLength, 'the final piece is held');
      assert.equal(server.received[0].sha256, undefined, "the file's part has not ended at the server");
      assert.ok(server.received[0].bytes < size, "the file's last byte is held");
      assert.equal(server.received[0].complete, false);
      release();
      const result = await upload;
      assert.equal(result.bytes, size);
      assert.equal(server.received[0].complete, true);
      assert.equal(server.received[0].bytes, size);

      const refusal = new Error('the journal could not be written');
      const refused = Promise.reject(refusal);
      refused.catch(() => undefined); // the caller handles it (as the media workflow does)
      const failed = await client.uploadMedia(7, file, { holdEnd: refused }).then(
        () => assert.fail('the upload should fail'),
        (reason: unknown) => reason,
      );
      assert.equal(failed, refusal, "the gate's own error, not a network error");
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(server.received.length, 2, 'sent once, not replayed');
      assert.equal(server.received[1].complete, false, 'the server never got a whole body');
    });
  }

  it('held content goes out as the held bytes themselves, not a copy: the framing around them, the last byte with the closing framing as the final piece', async () => {
    const content = Buffer.alloc(300 * 1024);
    for (let i = 0; i < content.length; i += 512) content[i] = (i / 512) % 251;
    const head = Buffer.from('--b\r\nContent-Disposition: form-data; name="f"; filename="x.jpg"\r\n\r\n');
    const tail = Buffer.from('\r\n--b--\r\n');
    const seen: Uint8Array[] = [];
    const chunks: Buffer[] = [];
    for await (const chunk of new HeldFile('x.jpg', 'image/jpeg', content).framed(head, tail, (bytes) => seen.push(bytes))) chunks.push(chunk);
    assert.ok(Buffer.concat(chunks).equals(Buffer.concat([head, content, tail])), 'the body is the framing around the bytes');
    const shared = chunks.filter((chunk) => chunk.buffer === content.buffer);
    assert.equal(shared.length, 1, 'one chunk is a view of the held bytes');
    assert.equal(shared[0].byteOffset, content.byteOffset);
    assert.equal(shared[0].length, content.length - 1, 'every byte but the last, in place');
    assert.deepEqual([...chunks.at(-1)!], [content.at(-1)!, ...tail], 'the final piece: the last byte and the closing framing');
    assert.deepEqual(seen, [content], 'the file bytes, seen once');
  });

  it('held content is sent without reading the file, and its final piece waits for holdEnd', async () => {
    const size = 200 * 1024;
    const held = Buffer.alloc(size, 3);
    const file = join(dir, 'held-content.jpg');
    // What is on disk is not what goes out: the bytes held are.
    writeFileSync(file, Buffer.alloc(size, 9));
    let arrived = 0;
    server = await uploadServer((_request, read) => (arrived = read));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const upload = clientFor(server).uploadMedia(7, file, { content: held, holdEnd: gate });
    await waitFor(() => server!.received.length > 0 && arrived >= server!.received[0].contentLength - 200, 'all but the final piece to arrive', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(arrived < server.received[0].contentLength, 'the final piece is held');
    assert.ok(server.received[0].bytes < size, "the file's last byte is held");
    release();
    assert.equal((await upload).bytes, size);
    assert.equal(server.received[0].sha256, sha256(held), 'the held bytes arrived');
  });

  it('holds the file open no longer than the upload: stored, refused before its body was read, cancelled part-way', async function () {
    if (!existsSync('/proc/self/fd')) this.skip();
    const file = join(dir, 'held.bin');
    writeFileSync(file, Buffer.alloc(16 * 1024 * 1024, 4));
    server = await uploadServer();
    const client = clientFor(server);
    await client.uploadMedia(7, file);
    assert.equal(openDescriptors(file), 0, 'stored');

    const controller = new AbortController();
    let openWhileSent = 0;
    const cancelled = await client
      .uploadMedia(7, file, {
        signal: controller.signal,
        onProgress: (sent) => {
          if (sent <= 1024 * 1024 || controller.signal.aborted) return;
          openWhileSent = openDescriptors(file);
          controller.abort();
        },
      })
      .then(
        () => assert.fail('should be cancelled'),
        (reason: unknown) => reason,
      );
    assert.ok(isCancellation(cancelled), String(cancelled));
    assert.equal(openWhileSent, 1, 'the count sees the file while it is open');
    assert.equal(openDescriptors(file), 0, 'cancelled');

    // Answers at once, without reading the body: the client stops sending it.
    const refusing = await scriptedServerAnsweringAtOnce(415);
    try {
      const refused = await clientFor(refusing)
        .uploadMedia(7, file)
        .then(
          () => assert.fail('should be refused'),
          (reason: unknown) => reason,
        );
      assert.ok(refused instanceof ServiceError, String(refused));
      assert.equal(refused.status, 415);
      assert.equal(openDescriptors(file), 0, 'refused');
    } finally {
      await refusing.close();
    }
  });

  it('reads large files into the same few buffers, upload after upload, not into a new buffer per read', async () => {
    server = await uploadServer();
    const client = clientFor(server);
    const file = join(dir, 'same-buffers.bin');
    const data = randomBytes(5 * 1024 * 1024 + 123);
    writeFileSync(file, data);
    // The first upload may make the buffers the next ones use.
    await client.uploadMedia(7, file);
    const buffers = countLargeBuffers(256 * 1024);
    try {
      for (let i = 0; i < 3; i++) await client.uploadMedia(7, file);
    } finally {
      buffers.restore();
    }
    // Before: a new buffer of up to 1 MiB for each read, 6 per upload of this file.
    assert.equal(buffers.count(), 0, 'no buffer of 256 KiB or more made for the later uploads');
    assert.deepEqual(
      server.received.map((got) => got.sha256),
      Array.from({ length: 4 }, () => sha256(data)),
    );
  });

  it('sends the bytes read, each of them, when the connection keeps the client waiting: read buffers are used again only once written, by uploads at once and one after another', async () => {
    // The server stops reading for a moment every 256 KiB, so each 1 MiB read waits on the
    // connection in pieces: a buffer read into again while a connection still held it would send
    // the wrong bytes.
    const paused = new WeakMap<IncomingMessage, number>();
    server = await uploadServer((request, read) => {
      if (read - (paused.get(request) ?? 0) < 256 * 1024) return;
      paused.set(request, read);
      request.pause();
      setTimeout(() => request.resume(), 2);
    });
    const client = clientFor(server);
    const files = [3.3 * 1024 * 1024, 4.1 * 1024 * 1024, 2 * 1024 * 1024 + 1].map((size, index) => {
      const path = join(dir, `written-first-${index}.bin`);
      const data = randomBytes(Math.round(size));
      writeFileSync(path, data);
      return { path, name: `written-first-${index}.bin`, sha256: sha256(data) };
    });
    for (let round = 0; round < 2; round++) await Promise.all(files.map((file) => client.uploadMedia(7, file.path)));
    for (const file of files) await client.uploadMedia(7, file.path);
    assert.equal(server.received.length, 9);
    for (const got of server.received) {
      const file = files.find((candidate) => candidate.name === got.fileName)!;
      assert.equal(got.sha256, file.sha256, `${got.fileName} arrived as it is on disk`);
    }
  });

  it("undici asks for a body's next chunk only once the connection has written all of the one before (what lets OpenedFile read into a buffer again)", async () => {
    // A server that reads slowly, so the client's writes wait on the connection.
    const slow = createServer((incoming, response) => {
      let read = 0;
      incoming.on('data', (chunk: Buffer) => {
        read += chunk.length;
        incoming.pause();
        setTimeout(() => incoming.resume(), 1);
      });
      incoming.on('end', () => response.end(String(read)));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    let socket: Socket | undefined;
    const onHeaders = (message: unknown) => (socket = (message as { socket: Socket }).socket);
    subscribe('undici:client:sendHeaders', onHeaders);
    const dispatcher = new Agent();
    try {
      const chunks = 8;
      const unwritten: number[] = [];
      async function* body() {
        for (let i = 0; i < chunks; i++) {
          // Bytes of earlier chunks the connection still holds (Node's writable buffer, or a write the system has not taken yet).
          if (i > 0) unwritten.push(socket!.writableLength);
          yield randomBytes(1024 * 1024);
        }
      }
      const reply = await request(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, {
        method: 'POST',
        dispatcher,
        headers: { 'content-length': String(chunks * 1024 * 1024) },
        body: body() as unknown as NonNullable<Parameters<typeof request>[1]>['body'],
      });
      assert.equal(await reply.body.text(), String(chunks * 1024 * 1024));
      assert.deepEqual(
        unwritten,
        Array.from({ length: chunks - 1 }, () => 0),
        'nothing of the chunks before is waiting to be written',
      );
    } finally {
      unsubscribe('undici:client:sendHeaders', onHeaders);
      await dispatcher.close();
      await new Promise<void>((resolve) => {
        slow.closeAllConnections();
        slow.close(() => resolve());
      });
    }
  });

  it('refuses a named pipe as not a file, without waiting for a writer', async function () {
    if (process.platform === 'win32') this.skip();
    server = await uploadServer();
    const pipe = join(dir, 'pipe.jpg');
    execFileSync('mkfifo', [pipe]);
    const error = await clientFor(server)
      .uploadMedia(7, pipe)
      .then(
        () => assert.fail('the upload should fail'),
        (reason: unknown) => reason,
      );
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal(error.kind, 'configuration');
    assert.match(error.message, /pipe\.jpg is not a file/);
    assert.equal(server.received.length, 0);
  });
});
