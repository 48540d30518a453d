// Clients are bound to a user account (interface, Authentication 2): what one user's clients
// create, another user's clients cannot see or change.
import * as assert from 'node:assert/strict';
import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { parseSandboxArgs, UsageError } from '../../src/sandbox/cliArgs';
import type { SandboxClient } from '../../src/sandbox/types';
import { getGallery, importSpot, newToken, send, spotDocument, uploadForm, useSandbox } from './helpers/sandboxHttp';

const ALICE_1: SandboxClient = { clientId: 'alice_api', clientSecret: 'a1', user: 'alice' };
const ALICE_2: SandboxClient = { clientId: 'alice_tool', clientSecret: 'a2', user: 'alice' };
const BOB: SandboxClient = { clientId: 'bob_api', clientSecret: 'b1', user: 'bob' };
const NOBODY: SandboxClient = { clientId: 'plain_api', clientSecret: 'p1' };

function imageForm(name: string): FormData {
  const form = new FormData();
  form.append('data[attributes][file]', new Blob([`bytes of ${name}`], { type: 'image/png' }), name);
  return form;
}

describe('sandbox: users', () => {
  const ctx = useSandbox({ clients: [ALICE_1, ALICE_2, BOB, NOBODY] });
  const tokens: Record<string, string> = {};
  before(async () => {
    for (const client of [ALICE_1, ALICE_2, BOB, NOBODY]) tokens[client.clientId] = await newToken(ctx.sandbox.baseUrl, client);
  });
  const base = () => ctx.sandbox.baseUrl;

  it("shares a user's galleries between that user's clients, and hides them from other users (404)", async () => {
    const imported = await importSpot(base(), tokens.alice_api, spotDocument('shared-src', { state: 2, fld_1_2: null }));
    assert.equal(imported.status, 200);
    const galleryId: number = imported.json.data.attributes.fld_1_2;

    assert.equal((await getGallery(base(), tokens.alice_tool, galleryId)).status, 200, 'same user, other client');
    assert.equal((await uploadForm(imageForm('a.png'), base(), tokens.alice_tool, galleryId)).status, 201);

    const bobRead = await getGallery(base(), tokens.bob_api, galleryId);
    assert.equal(bobRead.status, 404);
    assert.equal(bobRead.json.errors[0].detail, `Gallery ${galleryId} does not exist.`, 'the same words as for an unknown id');
    assert.equal((await uploadForm(imageForm('b.png'), base(), tokens.bob_api, galleryId)).status, 404);
    const order = await send(`${base()}/api/v2.4/galleries/${galleryId}/media/order`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.bob_api}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: [{ id: 1, attributes: { orderWeight: 1 } }] }),
    });
    assert.equal(order.status, 404);
    assert.equal((await getGallery(base(), tokens.plain_api, galleryId)).status, 404, 'a client without a user is the default user, not alice');
    assert.deepEqual(ctx.sandbox.gallery(galleryId)?.mediaIds.length, 1, "bob's upload was not stored");
  });

  it('keeps the same source_id of two users as two different spots', async () => {
    const alice = await importSpot(base(), tokens.alice_api, spotDocument('same-src', { state: 2, fld_1_2: null, fld_1_3: 'alice' }));
    const bob = await importSpot(base(), tokens.bob_api, spotDocument('same-src', { state: 2, fld_1_2: null, fld_1_3: 'bob' }));
    assert.equal(alice.status, 200);
    assert.equal(bob.status, 200);
    assert.notEqual(bob.json.data.id, alice.json.data.id);
    assert.notEqual(bob.json.data.attributes.fld_1_2, alice.json.data.attributes.fld_1_2);
    const again = await importSpot(base(), tokens.alice_tool, spotDocument('same-src', { state: 2, fld_1_2: null }));
    assert.equal(again.json.data.id, alice.json.data.id, "alice's other client updates alice's spot");
    assert.equal(again.json.data.attributes.fld_1_2, alice.json.data.attributes.fld_1_2);
    assert.equal(ctx.sandbox.spotBySourceId('same-src', 'bob')?.attributes.fld_1_3, 'bob');
    assert.equal(ctx.sandbox.spotBySourceId('same-src', 'alice')?.id, alice.json.data.id);
  });

  it("refuses another user's spot as root_id like an unknown one", async () => {
    const parent = await importSpot(base(), tokens.alice_api, spotDocument('root-parent'));
    const reply = await importSpot(base(), tokens.bob_api, spotDocument('root-child', { root_id: parent.json.data.id }));
    assert.equal(reply.status, 422);
    assert.equal(reply.json.errors[0].code, 'unknown_root');
    assert.equal((await importSpot(base(), tokens.alice_tool, spotDocument('root-child', { root_id: parent.json.data.id }))).status, 200);
  });
});

describe('sandbox: users on the command line', () => {
  it('reads --client ID:SECRET:USER, with the default user when USER is left out', () => {
    const { options } = parseSandboxArgs(['--client', 'a:b', '--client', 'c:d:team', '--client', 'e:se:cret:team']);
    assert.deepEqual(options.clients, [
      { clientId: 'a', clientSecret: 'b' },
      { clientId: 'c', clientSecret: 'd', user: 'team' },
      { clientId: 'e', clientSecret: 'se:cret', user: 'team' },
    ]);
    assert.throws(
      () => parseSandboxArgs(['--client', 'a:b:']),
      (error: Error) => error instanceof UsageError && /ID:SECRET\[:USER\]/.test(error.message),
    );
  });
});

describe('sandbox: users across restarts (--data)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'spot-sandbox-users-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps who owns what across a restart', async () => {
    let sandbox = await startSandbox({ dataDir, clients: [ALICE_1, BOB] });
    let galleryId: number;
    try {
      const token = await newToken(sandbox.baseUrl, ALICE_1);
      galleryId = (await importSpot(sandbox.baseUrl, token, spotDocument('kept-owner', { state: 2, fld_1_2: null }))).json.data.attributes.fld_1_2;
    } finally {
      await sandbox.close();
    }
    sandbox = await startSandbox({ dataDir, clients: [ALICE_1, BOB] });
    try {
      assert.equal((await getGallery(sandbox.baseUrl, await newToken(sandbox.baseUrl, BOB), galleryId)).status, 404);
      assert.equal((await getGallery(sandbox.baseUrl, await newToken(sandbox.baseUrl, ALICE_1), galleryId)).status, 200);
    } finally {
      await sandbox.close();
    }
  });

  it('gives data from a state file without users to the default user', async () => {
    const old = {
      format: 1,
      nextIds: { spot: 100_002, gallery: 200_002, media: 300_001 },
      spots: [
        { id: 100_001, sourceId: 'old-src', attributes: { source_id: 'old-src', fld_1_2: 200_001 }, galleries: { fld_1_2: 200_001 }, apiVersion: 'v2.4' },
      ],
      galleries: [{ id: 200_001, spotId: 100_001, field: 'fld_1_2', type: 1, state: 1 }],
      media: [],
    };
    await fs.writeFile(join(dataDir, 'state.json'), JSON.stringify(old));
    const sandbox = await startSandbox({ dataDir, clients: [NOBODY, BOB] });
    try {
      assert.equal((await getGallery(sandbox.baseUrl, await newToken(sandbox.baseUrl, NOBODY), 200_001)).status, 200);
      assert.equal((await getGallery(sandbox.baseUrl, await newToken(sandbox.baseUrl, BOB), 200_001)).status, 404);
      const again = await importSpot(sandbox.baseUrl, await newToken(sandbox.baseUrl, NOBODY), spotDocument('old-src', { state: 2, fld_1_2: null }));
      assert.deepEqual(again.json.data, { id: 100_001, attributes: { fld_1_2: 200_001, state: 2 } });
    } finally {
      await sandbox.close();
    }
  });
});
