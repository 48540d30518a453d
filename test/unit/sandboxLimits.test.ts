// Bounds on what one request may ask of the sandbox (nesting depth, pending galleries per import),
// and what happens when a change cannot be saved: the requests it covers fail, loudly.
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { importSpot, newToken, pendingGallery, send, spotDocument, startSandboxCli, useSandbox, type SandboxChild } from './helpers/sandboxHttp';

/** {"a":{"a":...}} nested `depth` objects deep, built as text (no recursion on either side). */
function nestedObject(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
}

describe('sandbox: JSON nesting depth', () => {
  const ctx = useSandbox();

  it('refuses an import nested 10,000 deep with 422 and a pointer to where the depth is exceeded', async () => {
    const body = `{"data":{"type":"spots","attributes":{"topic_id":1,"source_id":"deep-1","latitude":1,"longitude":2,"fld_1_3":${nestedObject(10_000)}}}}`;
    const reply = await send(`${ctx.sandbox.baseUrl}/api/v2.4/spots/import`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json' },
      body,
    });
    assert.equal(reply.status, 422, reply.text.slice(0, 300));
    const [error] = reply.json.errors;
    assert.equal(error.code, 'too_deep');
    // data(1) attributes(2) fld_1_3(3) then "a" levels: the first container past 64 levels.
    assert.equal(error.source.pointer, `/data/attributes/fld_1_3${'/a'.repeat(61)}`);
    assert.match(error.detail, /64/);
    assert.equal(ctx.sandbox.spotBySourceId('deep-1'), undefined, 'nothing stored');
  });

  it('accepts nesting up to the bound, and refuses deep arrays in a media order the same way', async () => {
    const ok = await importSpot(ctx.sandbox.baseUrl, ctx.token, spotDocument('deep-ok', { fld_1_3: JSON.parse(nestedObject(61)) }));
    assert.equal(ok.status, 200, ok.text);
    const galleryId = await pendingGallery(ctx.sandbox.baseUrl, ctx.token, 'deep-order');
    const reply = await send(`${ctx.sandbox.baseUrl}/api/v2.4/galleries/${galleryId}/media/order`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json' },
      body: `{"data":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    });
    assert.equal(reply.status, 422, reply.text.slice(0, 200));
    assert.equal(reply.json.errors[0].code, 'too_deep');
    assert.equal(reply.json.errors[0].source.pointer, `/data${'/0'.repeat(63)}`);
  });
});

describe('sandbox: a deep import never breaks saving (--data)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'spot-sandbox-deep-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps saving (and acknowledging only what it saved) after a 10,000-deep import', async () => {
    const errors: unknown[] = [];
    let sandbox = await startSandbox({ dataDir, onInternalError: (error) => errors.push(error) });
    try {
      const token = await newToken(sandbox.baseUrl);
      const deep = `{"data":{"type":"spots","attributes":{"topic_id":1,"source_id":"deep-2","latitude":1,"longitude":2,"fld_1_3":${nestedObject(10_000)}}}}`;
      await send(`${sandbox.baseUrl}/api/v2.4/spots/import`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: deep,
      });
      for (let i = 0; i < 5; i++) assert.equal((await importSpot(sandbox.baseUrl, token, spotDocument(`after-deep-${i}`))).status, 200);
    } finally {
      await sandbox.close();
    }
    assert.deepEqual(errors, [], 'no save failed');
    sandbox = await startSandbox({ dataDir });
    try {
      for (let i = 0; i < 5; i++) assert.ok(sandbox.spotBySourceId(`after-deep-${i}`), `after-deep-${i} was saved`);
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox: a failed save fails the requests it covers', function () {
  if (process.platform === 'win32') return;
  let dataDir: string;
  let running: SandboxChild | undefined;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'spot-sandbox-full-'));
  });
  afterEach(() => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    running = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 500 "not saved" (and says so on stderr) once the disk refuses writes, never 200', async function () {
    this.timeout(60_000);
    // A real write failure: the shell caps the size of any file the sandbox writes at 64 KiB
    // (`ulimit -f`, in 1024-byte blocks for bash), so saves fail with EFBIG once data outgrows it.
    running = await startSandboxCli(['--port', '0', '--data', dataDir], { file: 'bash', args: ['-c', 'ulimit -f 64 && exec "$0" "$@"', process.execPath] });
    const { baseUrl, child } = running;
    const token = await newToken(baseUrl);
    const acknowledged: string[] = [];
    let refused: { status: number; json: { errors: Array<{ code: string; detail: string }> } } | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const sourceId = `full-${i}`;
      const reply = await importSpot(baseUrl, token, spotDocument(sourceId, { fld_1_3: 'x'.repeat(1024) }));
      if (reply.status === 200) acknowledged.push(sourceId);
      else refused = reply;
    }
    assert.ok(refused, `all ${acknowledged.length} imports were acknowledged although the state cannot fit in 64 KiB`);
    assert.equal(refused.status, 500);
    assert.equal(refused.json.errors[0].code, 'not_saved');
    assert.match(refused.json.errors[0].detail, /could not be saved/);
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    assert.match(running.stderr(), /sandbox: could not save/);

    // Everything acknowledged is there after a restart without the limit.
    const sandbox = await startSandbox({ dataDir });
    try {
      for (const sourceId of acknowledged) assert.ok(sandbox.spotBySourceId(sourceId), `${sourceId} was acknowledged but is lost`);
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox: pending galleries per import', () => {
  const ctx = useSandbox({ maxImportBytes: 2 * 1024 * 1024 });
  const pendingFields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`fld_1_${1000 + i}`, null]));

  it('creates up to 100 pending galleries in one import', async () => {
    const reply = await importSpot(ctx.sandbox.baseUrl, ctx.token, spotDocument('cap-100', { state: 2, ...pendingFields(100) }));
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    assert.equal(Object.keys(reply.json.data.attributes).length, 101, '100 galleries and the state');
  });

  it('refuses more with 422 pointing at the first field past the cap, and creates nothing', async () => {
    const reply = await importSpot(ctx.sandbox.baseUrl, ctx.token, spotDocument('cap-101', { state: 2, ...pendingFields(101) }));
    assert.equal(reply.status, 422, reply.text.slice(0, 300));
    assert.equal(reply.json.errors.length, 1);
    assert.equal(reply.json.errors[0].code, 'too_many_galleries');
    assert.equal(reply.json.errors[0].source.pointer, '/data/attributes/fld_1_1100');
    assert.match(reply.json.errors[0].detail, /100/);
    assert.equal(ctx.sandbox.spotBySourceId('cap-101'), undefined);
  });

  it('refuses a 1 MB import with thousands of null fields without creating a gallery', async () => {
    const before = await importSpot(ctx.sandbox.baseUrl, ctx.token, spotDocument('cap-probe-1', { state: 2, fld_1_1: null }));
    const fields = pendingFields(40_000);
    const reply = await importSpot(ctx.sandbox.baseUrl, ctx.token, spotDocument('cap-many', { state: 2, ...fields }));
    assert.equal(reply.status, 422);
    assert.equal(reply.json.errors.length, 1, 'one error, not one per field');
    const after = await importSpot(ctx.sandbox.baseUrl, ctx.token, spotDocument('cap-probe-2', { state: 2, fld_1_1: null }));
    assert.equal(after.json.data.attributes.fld_1_1, before.json.data.attributes.fld_1_1 + 1, 'no gallery ids were used in between');
  });
});
