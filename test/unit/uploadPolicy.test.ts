// The one upload policy (uploadFilesToGallery), over real HTTP to the sandbox: a refusal of one
// file lets the next go; a gallery that is not there, or a reply that never came, stops the run
// (the next file would fail the same way); a file that may have arrived is never sent again
// without a ledger; with a ledger (the workflow's journal) it is settled from the gallery.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCore, spot, type CoreSetup } from './helpers/coreSetup';
import { replyLosingProxy, type WorkflowProxy } from './helpers/workflowProxy';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { classifyUploadFailure } from '../../src/core/upload/uploadFailure';
import { uploadFilesToGallery, type UploadItem } from '../../src/core/upload/uploadFilesToGallery';
import { AuthenticationError, CancelledError, ServiceError } from '../../src/core/api/errors';

describe('the one upload policy', () => {
  let setup: CoreSetup | undefined;
  let proxy: WorkflowProxy | undefined;
  let dir: string;
  beforeEach(async () => {
    setup = await startCore();
    dir = mkdtempSync(join(tmpdir(), 'upload-policy-'));
  });
  afterEach(async () => {
    await proxy?.close();
    await setup?.sandbox.close();
    setup = proxy = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function file(name: string, bytes: number): UploadItem {
    const path = join(dir, name);
    writeFileSync(path, Buffer.alloc(bytes, name.length));
    return { path };
  }

  async function pendingGallery(): Promise<number> {
    return (await setup!.client.importSpot(spot(`policy-${Date.now()}-${Math.random()}`, { state: 2, fld_1_3: null }))).pendingGalleries[0].galleryId;
  }

  it('a file the service refuses (the sandbox refuses an empty one) fails alone: the next one arrives', async () => {
    const galleryId = await pendingGallery();
    const seen: string[] = [];
    const run = await uploadFilesToGallery({
      client: setup!.client,
      galleryId,
      files: [file('a.jpg', 10), file('empty.jpg', 0), file('b.jpg', 12)],
      onFile: (result) => void seen.push(result.status),
    });
    assert.deepEqual(
      run.files.map((result) => [result.status, result.failure?.kind]),
      [
        ['arrived', undefined],
        ['failed', 'refused'],
        ['arrived', undefined],
      ],
    );
    assert.deepEqual(seen, ['arrived', 'failed', 'arrived']);
    assert.equal(run.stop, undefined);
    assert.equal(run.files[1].failure?.error.status, 422);
    assert.equal(setup!.sandbox.gallery(galleryId)?.mediaIds.length, 2);
    assert.deepEqual(
      run.files.filter((result) => result.status === 'arrived').map((result) => result.mediaId),
      setup!.sandbox.gallery(galleryId)?.mediaIds,
    );
  });

  it('a gallery that is not there stops the run: the rest are not sent', async () => {
    const run = await uploadFilesToGallery({ client: setup!.client, galleryId: 987654321, files: [file('a.jpg', 10), file('b.jpg', 10)] });
    assert.equal(run.stop?.kind, 'no-gallery');
    assert.deepEqual(
      run.files.map((result) => [result.status, result.attempts]),
      [
        ['failed', 1],
        ['not-sent', 0],
      ],
    );
    assert.equal(setup!.sandbox.counters.uploads, 1);
  });

  it('a reply that never came: unsure, never sent again without a ledger, and the run stops', async () => {
    const galleryId = await pendingGallery();
    proxy = await replyLosingProxy(setup!.sandbox.baseUrl, (reply) => (reply.path.endsWith('/media') && reply.method === 'POST' ? 'lose' : 'pass'));
    const client = new ServiceClient({ baseUrl: proxy.url, tokens: setup!.tokens, retry: { baseMs: 5, maxMs: 50 } });
    const run = await uploadFilesToGallery({ client, galleryId, files: [file('a.jpg', 10), file('b.jpg', 10)] });
    assert.deepEqual(
      run.files.map((result) => [result.status, result.failure?.stored]),
      [
        ['unsure', 'maybe'],
        ['not-sent', undefined],
      ],
    );
    assert.equal(run.stop?.scope, 'gallery');
    assert.equal(setup!.sandbox.gallery(galleryId)?.mediaIds.length, 1, 'stored once, and not sent again');
  });

  it('with a ledger, a reply that never came is settled from the gallery: found there, it is not sent again', async () => {
    const galleryId = await pendingGallery();
    let lose = 1;
    proxy = await replyLosingProxy(setup!.sandbox.baseUrl, (reply) =>
      reply.path.endsWith('/media') && reply.method === 'POST' && lose-- > 0 ? 'lose' : 'pass',
    );
    const client = new ServiceClient({ baseUrl: proxy.url, tokens: setup!.tokens, retry: { baseMs: 5, maxMs: 50 } });
    let before: number[] = [];
    const steps: string[] = [];
    const run = await uploadFilesToGallery({
      client,
      galleryId,
      files: [file('a.jpg', 10), file('b.jpg', 10)],
      retry: { maxRetries: 2, baseMs: 1, maxMs: 5, random: () => 0 },
      ledger: {
        announce: async () => {
          before = (await setup!.client.getGallery(galleryId)).media.map((media) => media.id);
          steps.push('announce');
        },
        accept: (_file, mediaId) => {
          steps.push(`accept ${mediaId !== undefined}`);
          return mediaId !== undefined;
        },
        settle: async () => {
          const now = (await setup!.client.getGallery(galleryId)).media.map((media) => media.id).filter((id) => !before.includes(id));
          steps.push(`settle ${now.length}`);
          return now.length === 1 ? { arrived: true, mediaId: now[0] } : { arrived: false };
        },
        forget: () => steps.push('forget'),
      },
    });
    assert.deepEqual(
      run.files.map((result) => [result.status, result.how]),
      [
        ['arrived', 'settled'],
        ['arrived', 'reply'],
      ],
    );
    assert.deepEqual(steps, ['announce', 'settle 1', 'announce', 'accept true']);
    assert.equal(setup!.sandbox.gallery(galleryId)?.mediaIds.length, 2, 'each file exactly once');
  });

  it('cancelled between files: the file in flight finishes, no other starts', async () => {
    const galleryId = await pendingGallery();
    const controller = new AbortController();
    const run = await uploadFilesToGallery({
      client: setup!.client,
      galleryId,
      files: [file('a.jpg', 10), file('b.jpg', 10)],
      signal: controller.signal,
      onFile: () => controller.abort(),
    });
    assert.equal(run.stop?.kind, 'cancelled');
    assert.deepEqual(
      run.files.map((result) => result.status),
      ['arrived', 'not-sent'],
    );
  });

  it('classifies each failure once: what may be stored, and whether the next file may go', () => {
    const http = (status: number, requestSent: 'none' | 'whole' | 'answered' = 'answered') =>
      new ServiceError('http', `HTTP ${status}`, { status, requestSent });
    const classified = (error: ServiceError) => {
      const { kind, stored, scope } = classifyUploadFailure(error);
      return [kind, stored, scope];
    };
    assert.deepEqual(classified(http(422)), ['refused', 'no', 'file']);
    assert.deepEqual(classified(http(415)), ['refused', 'no', 'file']);
    assert.deepEqual(classified(http(413)), ['refused', 'no', 'file']);
    assert.deepEqual(classified(http(404)), ['no-gallery', 'no', 'gallery']);
    assert.deepEqual(classified(http(403)), ['credentials', 'no', 'gallery']);
    assert.deepEqual(classified(new AuthenticationError('refused')), ['credentials', 'no', 'gallery']);
    assert.deepEqual(classified(http(408)), ['failed', 'no', 'gallery']);
    assert.deepEqual(classified(http(429)), ['failed', 'no', 'gallery']);
    assert.deepEqual(classified(http(503)), ['failed', 'no', 'gallery']);
    assert.deepEqual(classified(new ServiceError('network', 'reset', { requestSent: 'whole' })), ['failed', 'maybe', 'gallery']);
    assert.deepEqual(classified(new ServiceError('network', 'reset', { requestSent: 'partly' })), ['failed', 'no', 'gallery']);
    assert.deepEqual(classified(new ServiceError('malformed', 'odd reply', { status: 201, requestSent: 'answered' })), ['failed', 'maybe', 'gallery']);
    assert.deepEqual(classified(new CancelledError('Cancelled.', { requestSent: 'whole' })), ['cancelled', 'maybe', 'gallery']);
  });
});
