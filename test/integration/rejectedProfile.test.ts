// Whose credentials were refused: a command that talks to a profile other than the active one (a
// gallery node of another profile) and is refused must mark THAT profile rejected, and its
// Update Credentials button must ask for that profile's credentials, never the active one's.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { fixtureFile, PNG, uniqueSourceId } from './galleriesSupport';
import { installScriptedUi } from './helpers/scriptedUi';
import { RejectingProxy } from './helpers/rejectingProxy';
import { addProfileAt, testSandbox, useTestProfile, waitFor } from './helpers/testEnv';

describe('credentials refused for a profile that is not the active one', function () {
  this.timeout(60_000);
  let proxy: RejectingProxy | undefined;
  let remote: Awaited<ReturnType<typeof addProfileAt>> | undefined;
  let restore: (() => void) | undefined;

  afterEach(async () => {
    restore?.();
    await remote?.remove();
    await proxy?.close();
  });

  /** A profile other than the active one, behind the proxy, with a gallery of two media read once (cached). */
  async function otherProfileWithGallery(label: string) {
    const { services, profile: active } = await useTestProfile();
    proxy = await RejectingProxy.start((await testSandbox()).baseUrl);
    remote = await addProfileAt(uniqueSourceId(label), proxy.baseUrl);
    const other = remote.profile;
    const { client } = await services.clients.clientFor(other.id);
    const attributes = { topic_id: 37, source_id: uniqueSourceId('refused'), latitude: 47.07, longitude: 15.44, state: 2, fld_37_12: null };
    const galleryId = (await client.importSpot({ data: { type: 'spots', attributes } })).pendingGalleries[0].galleryId;
    for (const name of ['a.png', 'b.png']) await client.uploadMedia(galleryId, fixtureFile(PNG).fsPath, { fileName: name });
    await services.galleries.add(other.id, [{ galleryId, pending: false }]);
    const view = services.galleriesView;
    assert.ok(view, 'the Galleries view is registered');
    const load = await view.provider.cache.load(other.id, galleryId);
    assert.strictEqual(load.status, 'loaded');
    const second = load.status === 'loaded' ? load.gallery.media[1].id : -1;
    assert.strictEqual(await services.profiles.state(active), 'ready');
    return { services, active, other, galleryId, second };
  }

  it('marks the profile the run used as rejected, not the active one, and Update Credentials names it', async () => {
    const { services, active, other, galleryId, second } = await otherProfileWithGallery('IT refused elsewhere');
    assert.ok(proxy);

    // The service revokes the other profile's client; a reorder in its gallery is refused.
    proxy.reject = true;
    const run = await installScriptedUi([
      { kind: 'error', match: /rejected|refused/i, button: 'Update Credentials' },
      // The button asks for the refused profile's credentials (dismissed here).
      { kind: 'input', match: `Client credentials for ${other.name} (1/2)`, answer: undefined },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.media.moveUp', { profileId: other.id, galleryId, mediaId: second });
    await waitFor('the credentials prompt the button opens', () => run.ui.shown.some((prompt) => prompt.kind === 'input'));
    assert.strictEqual(await services.profiles.state(other), 'rejected', 'the profile whose credentials were refused');
    assert.strictEqual(await services.profiles.state(active), 'ready', 'the active profile was not the one refused');
    run.done();
    assert.strictEqual(services.profiles.active()?.id, active.id);
    const error = run.ui.shown.find((prompt) => prompt.kind === 'error');
    assert.deepStrictEqual(error?.buttons, ['Update Credentials', 'Show Log']);
  });

  for (const status of [401, 403] as const) {
    it(`a ${status} from the service for that profile (its token still issued): Update Credentials names it, and no profile is marked rejected`, async () => {
      const { services, active, other, galleryId, second } = await otherProfileWithGallery(`IT ${status} elsewhere`);
      assert.ok(proxy);
      // Tokens are still issued; the service refuses the requests themselves (a 401 comes back
      // even after the client renews its token).
      proxy.refuseApi = status;
      const run = await installScriptedUi([
        { kind: 'error', match: status === 401 ? /refused/i : /403/, button: 'Update Credentials' },
        { kind: 'input', match: `Client credentials for ${other.name} (1/2)`, answer: undefined },
      ]);
      restore = run.restore;
      await vscode.commands.executeCommand('spotImport.media.moveUp', { profileId: other.id, galleryId, mediaId: second });
      await waitFor('the credentials prompt the button opens', () => run.ui.shown.some((prompt) => prompt.kind === 'input'));
      run.done();
      // The token endpoint accepted the credentials: neither profile is marked as refused there.
      assert.strictEqual(await services.profiles.state(other), 'ready');
      assert.strictEqual(await services.profiles.state(active), 'ready');
    });
  }

  it('an upload the service refuses with 403 for that profile: Update Credentials names it', async () => {
    const { other, galleryId } = await otherProfileWithGallery('IT upload 403 elsewhere');
    assert.ok(proxy);
    proxy.refuseApi = 403;
    const run = await installScriptedUi([
      { kind: 'error', match: /Upload to gallery \d+ failed.*403/, button: 'Update Credentials' },
      { kind: 'input', match: `Client credentials for ${other.name} (1/2)`, answer: undefined },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.gallery.upload', { profileId: other.id, galleryId }, [fixtureFile(PNG)]);
    await waitFor('the credentials prompt the button opens', () => run.ui.shown.some((prompt) => prompt.kind === 'input'));
    run.done();
  });

  it('a profile without credentials (not the active one): its Set Client Credentials action names it', async () => {
    const { services } = await useTestProfile();
    remote = await addProfileAt(uniqueSourceId('IT no credentials elsewhere'), 'http://127.0.0.1:9', { withCredentials: false });
    const error = await services.clients.clientFor(remote.profile.id).then(
      () => assert.fail('a profile without credentials has no client'),
      (failure: unknown) => failure as { message: string; actions?: Array<{ title: string; args?: unknown[] }> },
    );
    assert.match(error.message, /has no client credentials yet/);
    assert.deepStrictEqual(
      error.actions?.map((action) => [action.title, action.args]),
      [['Set Client Credentials', [remote.profile.id]]],
    );
  });
});
