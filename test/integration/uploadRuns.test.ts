// Upload runs that meet trouble half-way, inside a real extension host: the user switches profile
// while files are still going out (two in-process sandboxes: the built-in one and the test's own),
// and the connection drops during an upload (the file may or may not have arrived).
import * as assert from 'assert';
import { ActionableError } from '../../src/platform/errors';
import { CHECK_GALLERY, INTERRUPTED_TITLE, UPLOAD_THE_REST, finishUpload, uploadWithProgress } from '../../src/commands/gallery/uploadMedia';
import type { FileOutcome, UploadOutcome } from '../../src/commands/gallery/uploadRun';
import { SANDBOX_PROFILE_ID, type ExtensionServices, type Profile } from '../../src/platform/services';
import type { RunningSandbox, SandboxCounters } from '../../src/sandbox/types';
import { JPEG, JPG, PNG, fixtureFile, uniqueSourceId } from './galleriesSupport';
import { installScriptedUi, type ScriptedUi } from './helpers/scriptedUi';
import { useTestProfile } from './helpers/testEnv';

/** The built-in sandbox's counters, over its own loopback endpoint (it runs inside the extension). */
async function builtInCounters(services: ExtensionServices): Promise<SandboxCounters> {
  const { profile } = await services.clients.clientFor(SANDBOX_PROFILE_ID); // starts it if needed
  const response = await fetch(`${profile.baseUrl}/__sandbox/counters`);
  assert.strictEqual(response.status, 200);
  return (await response.json()) as SandboxCounters;
}

/** A spot with one pending gallery, imported straight through the profile's client. */
async function pendingGallery(services: ExtensionServices, profile: Profile): Promise<number> {
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
  let services: ExtensionServices;
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
    assert.deepStrictEqual(outcome.files.map((file) => file.status), ['arrived', 'arrived', 'arrived']);
    assert.strictEqual(sandbox.counters.uploads - testBefore, 3, 'all three reached the starting profile\'s service');
    assert.strictEqual((await builtInCounters(services)).uploads, builtInBefore.uploads, 'nothing went to the newly active profile');
    assert.strictEqual(sandbox.gallery(galleryId)?.mediaIds.length, 3);
    assert.ok(services.galleries.list(profile.id).some((known) => known.galleryId === galleryId), 'recorded under the starting profile');
    done();
  });

  it('says a file whose connection dropped was interrupted or failed, as it really happened', async () => {
    const galleryId = await pendingGallery(services, profile);
    sandbox.setFaults({ rateDrop: 1, appliesTo: ['upload'] });
    const faultsBefore = sandbox.counters.faultsInjected;
    const uploadsBefore = sandbox.counters.uploads;
    const seen: FileOutcome[] = [];

    const failure = await uploadWithProgress(services, galleryId, [fixtureFile(PNG), fixtureFile(JPG)], { onFileDone: (file) => void seen.push({ ...file }) }).then(
      () => assert.fail('the upload should not succeed'),
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ActionableError, String(failure));
    assert.strictEqual(sandbox.counters.faultsInjected - faultsBefore, 1, 'one request was cut; the run stopped there');
    assert.strictEqual(sandbox.counters.uploads, uploadsBefore, 'nothing was stored');

    // The sandbox cuts the connection when the request arrives, so how much of the body had gone
    // out by then depends on timing: the report must follow what the client saw.
    const [first] = seen;
    assert.strictEqual(seen.length, 1);
    const handedOver = first.sentBytes !== undefined && first.sentBytes > 0 && first.sentBytes >= first.bytes;
    const rest = failure.actions.find((action) => action.title === UPLOAD_THE_REST);
    const check = failure.actions.find((action) => action.title === CHECK_GALLERY);
    assert.match(failure.message, new RegExp(`^Upload to gallery ${galleryId} failed: `));
    assert.ok(failure.message.endsWith(`Not sent (1): ${JPG}.`), failure.message);
    const restNames = (rest?.args?.[1] as { fsPath: string }[]).map((uri) => uri.fsPath);
    if (handedOver) {
      assert.strictEqual(first.status, 'interrupted');
      assert.ok(failure.message.includes(`${INTERRUPTED_TITLE} (1): ${PNG}.`), failure.message);
      assert.deepStrictEqual(restNames, [fixtureFile(JPG).fsPath], 'the interrupted file is not sent again blindly');
      assert.deepStrictEqual(check?.args, [{ galleryId, profileId: profile.id, refresh: true }]);
    } else {
      assert.strictEqual(first.status, 'failed');
      assert.ok(failure.message.includes(`Failed (1): ${PNG}.`), failure.message);
      assert.deepStrictEqual(restNames, [fixtureFile(PNG).fsPath, fixtureFile(JPG).fsPath]);
      assert.strictEqual(check, undefined);
    }
    assert.deepStrictEqual(rest?.args?.[0], { galleryId, profileId: profile.id }, '"Upload the Rest" stays with this profile');
    done();
  });

  it('keeps interrupted files out of "Upload the Rest" and offers to check the gallery instead', async () => {
    const galleryId = await pendingGallery(services, profile);
    const file = (name: string, status: FileOutcome['status'], bytes = 10): FileOutcome => ({ uri: fixtureFile(name), name, bytes, status, sentBytes: status === 'interrupted' ? bytes : undefined });
    const dropped = Object.assign(new Error('The connection to 127.0.0.1 was closed before the reply.'), { kind: 'network' });
    const outcome: UploadOutcome = {
      galleryId,
      profileId: profile.id,
      cancelled: false,
      stoppedBy: dropped,
      files: [file(PNG, 'arrived'), file(JPG, 'interrupted'), file(JPEG, 'notSent')],
    };
    const failure = await finishUpload(services, outcome).then(() => assert.fail('should throw'), (error: unknown) => error);
    assert.ok(failure instanceof ActionableError);
    assert.strictEqual(
      failure.message,
      `Upload to gallery ${galleryId} failed: ${dropped.message} Arrived (1): ${PNG}. ${INTERRUPTED_TITLE} (1): ${JPG}. Not sent (1): ${JPEG}.`,
    );
    assert.deepStrictEqual(failure.actions.map((action) => action.title), [UPLOAD_THE_REST, CHECK_GALLERY]);
    assert.deepStrictEqual((failure.actions[0].args?.[1] as { fsPath: string }[]).map((uri) => uri.fsPath), [fixtureFile(JPEG).fsPath]);

    // A cancel after the whole body went out is just as uncertain.
    ui.expect({ kind: 'warning', match: `Upload to gallery ${galleryId} cancelled. ${INTERRUPTED_TITLE} (1): ${JPG}.`, button: undefined });
    await finishUpload(services, { galleryId, profileId: profile.id, cancelled: true, files: [file(JPG, 'interrupted')] });
    assert.deepStrictEqual(ui.shown.at(-1)?.buttons, [CHECK_GALLERY]);
    done();
  });
});
