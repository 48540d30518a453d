// Upload runs that meet trouble half-way, inside a real extension host: the user switches profile
// while files are still going out (two in-process sandboxes: the built-in one and the test's own),
// and the connection drops during an upload, at a point a loopback proxy chooses: part-way through
// the body (the file cannot have arrived) or after all of it (it may have).
import * as assert from 'assert';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { ActionableError } from '../../src/extension/platform/errors';
import { CHECK_GALLERY, INTERRUPTED_TITLE, UPLOAD_THE_REST, finishUpload, uploadWithProgress } from '../../src/extension/galleries/commands/uploadMedia';
import type { FileOutcome, UploadOutcome } from '../../src/extension/galleries/commands/uploadRun';
import type { CommandServices } from '../../src/extension/commands/commandTable';
import { SANDBOX_PROFILE_ID, type Profile } from '../../src/extension/platform/domain';
import type { RunningSandbox, SandboxCounters } from '../../src/sandbox/types';
import { JPEG, JPG, PNG, fixtureFile, uniqueSourceId } from './galleriesSupport';
import { installScriptedUi, type ScriptedUi } from './helpers/scriptedUi';
import { LoopbackProxy } from './helpers/loopbackProxy';
import { addProfileAt, useTestProfile } from './helpers/testEnv';

/** The built-in sandbox's counters, over its own loopback endpoint (it runs inside the extension). */
async function builtInCounters(services: CommandServices): Promise<SandboxCounters> {
  const { profile } = await services.clients.clientFor(SANDBOX_PROFILE_ID); // starts it if needed
  const response = await fetch(`${profile.baseUrl}/__sandbox/counters`);
  assert.strictEqual(response.status, 200);
  return (await response.json()) as SandboxCounters;
}

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A spot with one pending gallery, imported straight through the profile's client. */
async function pendingGallery(services: CommandServices, profile: Profile): Promise<number> {
  const { client } = await services.clients.clientFor(profile.id);
  const attributes = { topic_id: 37, source_id: uniqueSourceId('run'), latitude: 47.07, longitude: 15.44, state: 2, fld_37_12: null };
  const result = await client.importSpot({ data: { type: 'spots', attributes } });
  assert.strictEqual(result.pendingGalleries.length, 1);
  return result.pendingGalleries[0].galleryId;
}

describe('Upload runs', function () {
  this.timeout(60_000);
  let ui: ScriptedUi;
  let done: () => void;
  let restore: () => void;
  let services: CommandServices;
  let sandbox: RunningSandbox;
  let profile: Profile;

  beforeEach(async () => {
    ({ ui, done, restore } = await installScriptedUi());
    ({ services, sandbox, profile } = await useTestProfile());
  });

  afterEach(async () => {
    restore();
    sandbox.setFaults({});
    for (const known of services.galleries.list(profile.id)) await services.galleries.remove(profile.id, known.galleryId);
  });

  it('sends every file to the profile it started with, even after a switch of profile mid-run', async () => {
    const galleryId = await pendingGallery(services, profile);
    // The built-in sandbox runs too: the same gallery id there would be another gallery.
    const builtInBefore = await builtInCounters(services);
    const testBefore = sandbox.counters.uploads;

    ui.expect({ kind: 'info', match: `Uploaded 3 files`, button: undefined });
    const outcome = await uploadWithProgress(services, galleryId, [fixtureFile(PNG), fixtureFile(JPG), fixtureFile(JPEG)], {
      // The user picks the sandbox in the status bar while the first file has just arrived.
      onFileDone: async (_file, index) => {
        if (index === 0) await services.profiles.setActive(SANDBOX_PROFILE_ID);
      },
    });

    assert.strictEqual(services.profiles.active()?.id, SANDBOX_PROFILE_ID, 'the switch happened during the run');
    assert.strictEqual(outcome.profileId, profile.id);
    assert.deepStrictEqual(
      outcome.files.map((file) => file.status),
      ['arrived', 'arrived', 'arrived'],
    );
    assert.strictEqual(sandbox.counters.uploads - testBefore, 3, "all three reached the starting profile's service");
    assert.strictEqual((await builtInCounters(services)).uploads, builtInBefore.uploads, 'nothing went to the newly active profile');
    assert.strictEqual(sandbox.gallery(galleryId)?.mediaIds.length, 3);
    assert.ok(
      services.galleries.list(profile.id).some((known) => known.galleryId === galleryId),
      'recorded under the starting profile',
    );
    done();
  });

  it('keeps interrupted files out of "Upload the Rest" and offers to check the gallery instead', async () => {
    const galleryId = await pendingGallery(services, profile);
    const file = (name: string, status: FileOutcome['status'], bytes = 10): FileOutcome => ({
      uri: fixtureFile(name),
      name,
      bytes,
      status,
      sentBytes: status === 'interrupted' ? bytes : undefined,
    });
    const dropped = Object.assign(new Error('The connection to 127.0.0.1 was closed before the reply.'), { kind: 'network' });
    const outcome: UploadOutcome = {
      galleryId,
      profileId: profile.id,
      cancelled: false,
      stoppedBy: dropped,
      files: [file(PNG, 'arrived'), file(JPG, 'interrupted'), file(JPEG, 'notSent')],
    };
    const failure = await finishUpload(services, outcome).then(
      () => assert.fail('should throw'),
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ActionableError);
    assert.strictEqual(
      failure.message,
      `Upload to gallery ${galleryId} failed: ${dropped.message} Arrived (1): ${PNG}. ${INTERRUPTED_TITLE} (1): ${JPG}. Not sent (1): ${JPEG}.`,
    );
    assert.deepStrictEqual(
      failure.actions.map((action) => action.title),
      [UPLOAD_THE_REST, CHECK_GALLERY],
    );
    assert.deepStrictEqual(
      (failure.actions[0].args?.[1] as { fsPath: string }[]).map((uri) => uri.fsPath),
      [fixtureFile(JPEG).fsPath],
    );

    // A cancel after the whole body went out is just as uncertain.
    ui.expect({ kind: 'warning', match: `Upload to gallery ${galleryId} cancelled. ${INTERRUPTED_TITLE} (1): ${JPG}.`, button: undefined });
    await finishUpload(services, { galleryId, profileId: profile.id, cancelled: true, files: [file(JPG, 'interrupted')] });
    assert.deepStrictEqual(ui.shown.at(-1)?.buttons, [CHECK_GALLERY]);
    done();
  });

  // The connection drops at a point the test chooses: a loopback proxy in front of the sandbox
  // reads part of an upload's body, or all of it, and then cuts the connection.
  describe('when the connection drops', () => {
    let proxy: LoopbackProxy;
    let proxied: Awaited<ReturnType<typeof addProfileAt>>;
    let dir: string;

    before(async () => {
      proxy = await LoopbackProxy.start((await useTestProfile()).sandbox.baseUrl);
      proxied = await addProfileAt('IT upload proxy', proxy.baseUrl);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-upload-runs-'));
    });

    after(async () => {
      await proxied.remove();
      await proxy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    beforeEach(() => {
      proxy.uploads = 'forward';
      proxy.cut.length = 0;
    });

    /** A file of `bytes` zero bytes in the test's temporary folder (sparse: made at once). */
    function tempFile(name: string, bytes: number): vscode.Uri {
      const file = path.join(dir, name);
      fs.closeSync(fs.openSync(file, 'w'));
      fs.truncateSync(file, bytes);
      return vscode.Uri.file(file);
    }

    async function failedUpload(galleryId: number, uris: vscode.Uri[], seen: FileOutcome[]): Promise<ActionableError> {
      const failure = await uploadWithProgress(services, galleryId, uris, {
        profileId: proxied.profile.id,
        onFileDone: (file) => void seen.push({ ...file }),
      }).then(
        () => assert.fail('the upload should not succeed'),
        (error: unknown) => error,
      );
      assert.ok(failure instanceof ActionableError, String(failure));
      return failure;
    }

    const uploadTheRest = (failure: ActionableError) => failure.actions.find((action) => action.title === UPLOAD_THE_REST);
    const checkGallery = (failure: ActionableError) => failure.actions.find((action) => action.title === CHECK_GALLERY);
    const restPaths = (failure: ActionableError) => (uploadTheRest(failure)?.args?.[1] as vscode.Uri[] | undefined)?.map((uri) => uri.fsPath);

    it('says a file cut off part-way through its body failed, and sends it again with the rest', async () => {
      const galleryId = await pendingGallery(services, proxied.profile);
      const big = tempFile('large-photo.jpg', 32 * 1024 * 1024);
      proxy.uploads = { dropAfterBytes: 1024 * 1024 };
      const uploadsBefore = sandbox.counters.uploads;
      const seen: FileOutcome[] = [];

      const failure = await failedUpload(galleryId, [big, fixtureFile(JPG)], seen);

      // Cut off while its body was going out (as a server that refuses a token before reading
      // does), the file is sent once more with a new token; cut again, the run stops there.
      assert.strictEqual(proxy.cut.length, 2, 'sent, cut, sent once more, cut again');
      for (const cut of proxy.cut) {
        assert.ok(!cut.wholeBodyRead && cut.contentLength !== undefined && cut.bytesRead < cut.contentLength / 2, `cut part-way: ${JSON.stringify(cut)}`);
      }
      assert.doesNotMatch(failure.message, /could not reach/, 'a failure while sending is not "could not reach"');
      assert.strictEqual(sandbox.counters.uploads, uploadsBefore, 'nothing was stored');
      assert.deepStrictEqual(
        seen.map((file) => [file.name, file.status]),
        [['large-photo.jpg', 'failed']],
      );
      assert.match(failure.message, new RegExp(`^Upload to gallery ${galleryId} failed: `));
      assert.ok(failure.message.endsWith(`Failed (1): large-photo.jpg. Not sent (1): ${JPG}.`), failure.message);
      assert.deepStrictEqual(restPaths(failure), [big.fsPath, fixtureFile(JPG).fsPath], 'a file cut part-way cannot have arrived: it is sent again');
      assert.deepStrictEqual(uploadTheRest(failure)?.args?.[0], { galleryId, profileId: proxied.profile.id }, '"Upload the Rest" stays with this profile');
      assert.strictEqual(checkGallery(failure), undefined);
      done();
    });

    it('says a file whose whole body went out before the drop was interrupted, and keeps it out of "Upload the Rest"', async () => {
      const galleryId = await pendingGallery(services, proxied.profile);
      proxy.uploads = 'dropAfterBody';
      const seen: FileOutcome[] = [];

      const failure = await failedUpload(galleryId, [fixtureFile(PNG), fixtureFile(JPG)], seen);

      assert.strictEqual(proxy.cut.length, 1);
      const [cut] = proxy.cut;
      assert.ok(cut.wholeBodyRead && cut.bytesRead === cut.contentLength, `the whole body arrived: ${JSON.stringify(cut)}`);
      assert.deepStrictEqual(
        seen.map((file) => [file.name, file.status]),
        [[PNG, 'interrupted']],
      );
      assert.ok(failure.message.endsWith(`${INTERRUPTED_TITLE} (1): ${PNG}. Not sent (1): ${JPG}.`), failure.message);
      assert.deepStrictEqual(restPaths(failure), [fixtureFile(JPG).fsPath], 'the interrupted file is not sent again blindly');
      assert.deepStrictEqual(checkGallery(failure)?.args, [{ galleryId, profileId: proxied.profile.id, refresh: true }]);
      done();
    });

    it('says a file failed when its request never went out (the service is gone): safe to send again', async () => {
      const galleryId = await pendingGallery(services, proxied.profile);
      // The service is gone before the upload: the connection is refused, nothing was sent.
      const gone = await addProfileAt('IT gone', `http://127.0.0.1:${await closedPort()}`);
      try {
        const seen: FileOutcome[] = [];
        const failure = await uploadWithProgress(services, galleryId, [fixtureFile(JPG)], {
          profileId: gone.profile.id,
          onFileDone: (file) => void seen.push({ ...file }),
        }).then(
          () => assert.fail('the upload should not succeed'),
          (error: unknown) => error,
        );
        assert.ok(failure instanceof ActionableError, String(failure));
        assert.deepStrictEqual(
          seen.map((file) => [file.name, file.status]),
          [[JPG, 'failed']],
        );
        assert.deepStrictEqual(restPaths(failure), [fixtureFile(JPG).fsPath]);
        assert.strictEqual(checkGallery(failure), undefined);
      } finally {
        await gone.remove();
      }
      done();
    });

    it('never sends an empty file, or one of a type not accepted: skipped, with why', async () => {
      const galleryId = await pendingGallery(services, proxied.profile);
      const empty = tempFile('empty.jpg', 0);
      const notes = tempFile('notes.txt', 10);
      const seen: FileOutcome[] = [];
      ui.expect({
        kind: 'warning',
        match:
          /^Nothing was uploaded to gallery \d+\. Skipped 2 items that cannot go into a gallery: empty\.jpg: the file is empty; notes\.txt: type text\/plain is not accepted \(accepted: image\/jpeg/,
      });
      const outcome = await uploadWithProgress(services, galleryId, [empty, notes], {
        profileId: proxied.profile.id,
        onFileDone: (file) => void seen.push({ ...file }),
      });
      assert.deepStrictEqual(
        outcome.files.map((file) => [file.name, file.status, file.reason?.replace(/ \(accepted: .*$/, '')]),
        [
          ['empty.jpg', 'skipped', 'the file is empty'],
          ['notes.txt', 'skipped', 'type text/plain is not accepted'],
        ],
      );
      assert.deepStrictEqual(seen, [], 'nothing was sent');
      assert.strictEqual(proxy.cut.length, 0);
      done();
    });
  });
});
