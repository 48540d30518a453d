// Profiles live in global state, which every window of VS Code shares: a profile added or chosen
// in one window must reach the others (their Galleries view, CodeLens and status bar) when they
// are next focused, and a focus with nothing changed must not make them reload anything.
import * as assert from 'assert';
import { GlobalStateProfileStore } from '../../src/extension/profiles/auth/profileStore';
import { MemoryMemento, noCredentials } from './helpers/memoryMemento';

describe('profiles changed in another window', () => {
  it('reach this window on refresh (its focus), and a refresh with nothing changed tells no one', async () => {
    const shared = new MemoryMemento();
    const other = new GlobalStateProfileStore(shared, noCredentials, () => '');
    const mine = new GlobalStateProfileStore(shared, noCredentials, () => '');
    let changes = 0;
    const listening = mine.onDidChange(() => changes++);
    try {
      const added = await other.add({ name: 'Elsewhere', baseUrl: 'https://spots.example.org', apiVersion: 'v2.4' });
      await other.setActive(added.id);
      assert.strictEqual(changes, 0, 'nothing tells this window by itself');

      mine.refresh();
      assert.strictEqual(changes, 1, "the refresh tells this window's listeners");
      assert.strictEqual(mine.active()?.id, added.id);

      mine.refresh();
      assert.strictEqual(changes, 1, 'a refresh with nothing changed tells no one (listeners reload galleries)');
    } finally {
      listening.dispose();
      other.dispose();
      mine.dispose();
    }
  });
});
