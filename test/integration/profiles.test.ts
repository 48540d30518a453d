// Profiles and credentials end to end through the real commands, every prompt scripted: add a
// profile, test the connection, wrong and right secrets, switch, sign out, remove, and the
// built-in sandbox profile. Secrets must end up in SecretStorage and nowhere else.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { CommandServices } from '../../src/extension/commands/commandTable';
import { SANDBOX_PROFILE_ID } from '../../src/extension/platform/domain';
import { installScriptedUi } from './helpers/scriptedUi';
import { counters, rememberCurrentToken, TEST_CLIENT, testSandbox, useTestProfile, usedSecrets } from './helpers/testEnv';

const ADDED = 'IT added profile';
const WRONG_SECRET = 'it-wrong-secret-0123456789';

function globalStateText(services: CommandServices): string {
  return services.context.globalState
    .keys()
    .map((key) => JSON.stringify(services.context.globalState.get(key)))
    .join('\n');
}

describe('profiles and credentials', () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  it('Add Profile asks for name, URLs, version, topic, media URL template and credentials, refusing http to other hosts', async () => {
    const sandbox = await testSandbox();
    const derived = `${sandbox.baseUrl}/api/v2/access_token`;
    const run = await installScriptedUi([
      { kind: 'input', match: '(1/6)', answer: ADDED },
      { kind: 'input', match: '(2/6)', rejects: ['http://example.com', 'http://10.0.0.1:8080', 'ftp://example.com', 'example.com'], answer: sandbox.baseUrl },
      { kind: 'input', match: '(3/6)', expectValue: derived, rejects: ['http://example.org/api/v2/access_token'], answer: derived },
      { kind: 'input', match: '(4/6)', expectValue: 'v2.4', rejects: ['2.4', 'latest'], answer: 'v2.4' },
      { kind: 'input', match: '(5/6)', rejects: ['abc', '1.5'], answer: '1' },
      {
        kind: 'input',
        match: '(6/6)',
        rejects: ['https://files.example.org/', 'http://files.example.org/{file}'],
        answer: 'https://files.example.org/images/{file}',
      },
      { kind: 'input', match: '(1/2)', answer: TEST_CLIENT.clientId, expectPassword: false },
      { kind: 'input', match: '(2/2)', answer: TEST_CLIENT.clientSecret, expectPassword: true },
      { kind: 'info', match: 'is ready and active' },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.addProfile');
    run.done();
    const { services } = run;
    const profile = services.profiles.active();
    assert.strictEqual(profile?.name, ADDED);
    assert.strictEqual(profile.kind, 'remote');
    assert.strictEqual(profile.tokenUrl, undefined, 'an unchanged token URL stays derived');
    assert.strictEqual(profile.apiVersion, 'v2.4');
    assert.strictEqual(profile.topicId, 1);
    assert.strictEqual(profile.mediaUrlTemplate, 'https://files.example.org/images/{file}');
    assert.deepStrictEqual(await services.credentials.get(profile.id), TEST_CLIENT);
    assert.ok(!globalStateText(services).includes(TEST_CLIENT.clientSecret), 'the secret is not in global state');
    assert.strictEqual(await services.profiles.state(profile), 'ready');
  });

  it('refuses http for anything but loopback even when called directly', async () => {
    const { services } = await useTestProfile();
    await assert.rejects(services.profiles.add({ name: 'IT plain http', baseUrl: 'http://example.com', apiVersion: 'v2.4' }), /https/);
    await assert.rejects(
      services.profiles.add({ name: 'IT plain http 2', baseUrl: 'https://example.com', tokenUrl: 'http://example.com/token', apiVersion: 'v2.4' }),
      /https/,
    );
    assert.ok(!services.profiles.list().some((profile) => profile.name.startsWith('IT plain http')));
  });

  it('Test Connection gets a token and reports its lifetime', async () => {
    const { services, sandbox } = await useTestProfile();
    const before = counters(sandbox).tokenRequests;
    const run = await installScriptedUi([{ kind: 'info', match: /Connected to Integration sandbox: .* valid for 1 hour/ }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.testConnection');
    run.done();
    assert.strictEqual(counters(sandbox).tokenRequests, before + 1);
    await rememberCurrentToken(services);
  });

  it('a rejected secret shows the error with Update Credentials and marks the profile rejected', async () => {
    const { services, profile } = await useTestProfile();
    usedSecrets.add(WRONG_SECRET);
    const run = await installScriptedUi([
      { kind: 'input', match: '(1/2)', expectValue: TEST_CLIENT.clientId, answer: TEST_CLIENT.clientId },
      { kind: 'input', match: '(2/2)', expectPassword: true, answer: WRONG_SECRET },
      { kind: 'info', match: 'Client credentials saved' },
      { kind: 'error', match: /invalid_client|credentials|rejected|authentication/i },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.setCredentials');
    await vscode.commands.executeCommand('spotImport.testConnection');
    run.done();
    const error = run.ui.shown.find((prompt) => prompt.kind === 'error');
    assert.deepStrictEqual(error?.buttons, ['Update Credentials', 'Show Log']);
    assert.strictEqual(await services.profiles.state(profile), 'rejected');

    // The right secret again: the state follows.
    await services.credentials.set(profile.id, TEST_CLIENT);
    assert.strictEqual(await services.profiles.state(profile), 'ready');
  });

  it('Switch Profile lists every profile, the sandbox labelled, and switches', async () => {
    const { services, profile } = await useTestProfile();
    const run = await installScriptedUi([{ kind: 'quickPick', match: 'Switch Spot Import profile', pick: ADDED }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.switchProfile');
    run.done();
    const items = run.ui.shown[0].items ?? [];
    assert.ok(items.includes('Local (sandbox)'), `sandbox labelled: ${items.join(' | ')}`);
    assert.ok(
      items.some((item) => item.endsWith(profile.name)),
      'current profile listed',
    );
    assert.ok(items.includes('$(add) Add Profile…'));
    assert.strictEqual(services.profiles.active()?.name, ADDED);
  });

  it('Sign Out forgets the credentials; commands then ask for them', async () => {
    const run0 = await useTestProfile();
    const added = run0.services.profiles.list().find((profile) => profile.name === ADDED);
    assert.ok(added, 'the profile added earlier exists');
    await run0.services.profiles.setActive(added.id);
    const run = await installScriptedUi([
      { kind: 'info', match: `Signed out of ${ADDED}` },
      { kind: 'error', match: 'has no client credentials' },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.signOut');
    assert.strictEqual(await run.services.credentials.get(added.id), undefined);
    assert.strictEqual(await run.services.profiles.state(added), 'noCredentials');
    await vscode.commands.executeCommand('spotImport.testConnection');
    run.done();
    assert.deepStrictEqual(run.ui.shown[1].buttons, ['Set Client Credentials', 'Show Log']);
  });

  it('Sign Out with no profile selected says what every command says then, with its two ways out', async () => {
    const { services, profile } = await useTestProfile();
    const run = await installScriptedUi([{ kind: 'error', match: 'No Spot Import profile is selected. Add one for your service, or try the local sandbox.' }]);
    restore = run.restore;
    await services.profiles.setActive(undefined);
    try {
      await vscode.commands.executeCommand('spotImport.signOut');
    } finally {
      await services.profiles.setActive(profile.id);
    }
    run.done();
    assert.deepStrictEqual(run.ui.shown[0].buttons, ['Add Profile', 'Use Local Sandbox', 'Show Log']);
  });

  it('Remove Profile confirms, then deletes the profile, its credentials and its galleries', async () => {
    const { services, profile: kept } = await useTestProfile();
    const added = services.profiles.list().find((profile) => profile.name === ADDED);
    assert.ok(added);
    await services.credentials.set(added.id, TEST_CLIENT);
    await services.galleries.add(added.id, [
      { galleryId: 990_001, pending: true },
      { galleryId: 990_002, pending: false },
    ]);
    await services.galleries.add(kept.id, [{ galleryId: 990_003, pending: false }]);
    const run = await installScriptedUi([
      { kind: 'quickPick', match: 'Remove Spot Import profile', pick: ADDED },
      { kind: 'warning', match: `Remove profile "${ADDED}"?`, button: 'Remove' },
      { kind: 'info', match: 'removed' },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.removeProfile');
    run.done();
    assert.ok(!run.ui.shown[0].items?.includes('Local (sandbox)'), 'the built-in sandbox cannot be removed');
    assert.strictEqual(services.profiles.get(added.id), undefined);
    assert.strictEqual(await services.credentials.get(added.id), undefined);
    assert.deepStrictEqual(services.galleries.list(added.id), [], "the removed profile's galleries are forgotten");
    assert.ok(
      services.galleries.list(kept.id).some((gallery) => gallery.galleryId === 990_003),
      'other profiles keep theirs',
    );
    await services.galleries.remove(kept.id, 990_003);
  });

  it('dismissing the confirmation removes nothing', async () => {
    const { services, profile } = await useTestProfile();
    const run = await installScriptedUi([{ kind: 'warning', match: 'Remove profile', button: undefined }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.removeProfile', profile.id);
    run.done();
    assert.ok(services.profiles.get(profile.id));
  });

  it('the built-in sandbox profile starts a sandbox on demand with its own credentials', async () => {
    const { services } = await useTestProfile();
    await vscode.commands.executeCommand('spotImport.switchProfile', SANDBOX_PROFILE_ID);
    const run = await installScriptedUi([{ kind: 'info', match: /Connected to Local \(sandbox\)/ }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.testConnection');
    run.done();
    const sandboxProfile = services.profiles.active();
    assert.strictEqual(sandboxProfile?.id, SANDBOX_PROFILE_ID);
    assert.match(sandboxProfile.baseUrl, /^http:\/\/(127\.0\.0\.1|localhost):\d+$/);
    const credentials = await services.credentials.get(SANDBOX_PROFILE_ID);
    if (!process.env.SPOT_IMPORT_SANDBOX_URL) {
      assert.ok(credentials, 'sandbox credentials were made and kept in SecretStorage');
      usedSecrets.add(credentials.clientSecret);
    }
    await rememberCurrentToken(services);
    await useTestProfile();
  });
});
