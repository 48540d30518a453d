// `npm start` runs the extension next to a sandbox it started (SPOT_IMPORT_SANDBOX_URL): until the
// user picks a profile, the sandbox profile is the active one; a choice the user made wins.
import * as assert from 'assert';
import { GlobalStateProfileStore } from '../../src/extension/profiles/auth/profileStore';
import { SANDBOX_PROFILE_ID } from '../../src/extension/platform/domain';
import { MemoryMemento, noCredentials } from './helpers/memoryMemento';

describe('active profile fallback', () => {
  it('has no active profile when nothing was chosen and no fallback is given', () => {
    const store = new GlobalStateProfileStore(new MemoryMemento(), noCredentials, () => '');
    assert.strictEqual(store.active(), undefined);
    store.dispose();
  });

  it('uses the fallback (the sandbox npm start runs) until the user chooses', async () => {
    const store = new GlobalStateProfileStore(new MemoryMemento(), noCredentials, () => 'http://127.0.0.1:8787', SANDBOX_PROFILE_ID);
    assert.strictEqual(store.active()?.id, SANDBOX_PROFILE_ID);
    const added = await store.add({ name: 'Mine', baseUrl: 'https://spots.example.org', apiVersion: 'v2.4' });
    await store.setActive(added.id);
    assert.strictEqual(store.active()?.id, added.id);
    store.dispose();
  });
});
