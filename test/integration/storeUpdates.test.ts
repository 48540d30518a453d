// Every store over global state reads a value, changes it and writes it back. Updates started at
// once (a command, a test, an import finishing, another window) must each see the one before:
// issue 20 saw a media template edit write back a profile list read before a profile was added,
// and the next edit of that profile failed with "There is no profile with id profile-…".
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { OwnedServices } from '../../src/extension/extension';
import type { Profile } from '../../src/extension/platform/domain';
import type { ExtensionServices } from '../../src/extension/platform/services';
import { MemoryMemento, memoryContext, type MementoWrites } from './helpers/memoryMemento';
import { extensionServices } from './helpers/scriptedUi';

const COUNT = 20;
const indexes = [...Array(COUNT).keys()];
const remote = (name: string) => ({ name, baseUrl: 'https://spots.example.org', apiVersion: 'v2.4' });
const template = (i: number) => `https://files.example.org/${i}/{file}`;

/**
 * The bundled extension's services, built again by its test command on a memento of the test's:
 * the bundle's profile store loads dist/core.js to check a template (the out/ copy has no core).
 */
async function servicesOn(globalState: vscode.Memento): Promise<{ services: ExtensionServices; dispose(): Promise<void> }> {
  const live = await extensionServices();
  const { context, subscriptions } = memoryContext(live.context.extensionMode, globalState);
  const channel = vscode.window.createOutputChannel('Spot Import (store test)', { log: true });
  const owned = await vscode.commands.executeCommand<OwnedServices>('spotImport.test.createServices', context, channel);
  return {
    services: owned.services,
    dispose: async () => {
      await owned.deactivate();
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}

for (const writes of ['at once', 'on settle'] as MementoWrites[]) {
  describe(`stores under concurrent updates (writes show ${writes})`, () => {
    it(`profile store: ${COUNT} adds, removals and media template edits started at once, none lost`, async () => {
      const own = await servicesOn(new MemoryMemento(writes));
      const store = own.services.profiles;
      try {
        const removed: Profile[] = [];
        const edited: Profile[] = [];
        for (const i of indexes) removed.push(await store.add(remote(`Removed ${i}`)));
        for (const i of indexes) edited.push(await store.add(remote(`Edited ${i}`)));
        await store.setActive(removed[0].id);

        await Promise.all(
          indexes.flatMap((i) => [store.add(remote(`Added ${i}`)), store.remove(removed[i].id), store.setMediaUrlTemplate(edited[i].id, template(i))]),
        );

        const names = store
          .list()
          .filter((profile) => profile.kind === 'remote')
          .map((profile) => profile.name)
          .sort();
        assert.deepStrictEqual(names, indexes.flatMap((i) => [`Added ${i}`, `Edited ${i}`]).sort());
        for (const i of indexes) assert.strictEqual(store.get(edited[i].id)?.mediaUrlTemplate, template(i), `Edited ${i}`);
        assert.strictEqual(store.active(), undefined, 'the active profile was removed');
      } finally {
        await own.dispose();
      }
    });

    it('profile store: of two adds with one name started at once, the second is refused', async () => {
      const own = await servicesOn(new MemoryMemento(writes));
      const store = own.services.profiles;
      try {
        const results = await Promise.allSettled([store.add(remote('Twice')), store.add(remote('twice'))]);
        assert.deepStrictEqual(
          results.map((result) => result.status),
          ['fulfilled', 'rejected'],
        );
        assert.match(String((results[1] as PromiseRejectedResult).reason), /A profile named "twice" exists already/);
        assert.deepStrictEqual(
          store
            .list()
            .filter((profile) => profile.kind === 'remote')
            .map((profile) => profile.name),
          ['Twice'],
        );
      } finally {
        await own.dispose();
      }
    });

    it(`gallery store: ${COUNT} adds, removals and uploads marked, started at once, none lost`, async () => {
      const own = await servicesOn(new MemoryMemento(writes));
      const galleries = own.services.galleries;
      try {
        await galleries.add(
          'p',
          indexes.map((i) => ({ galleryId: 100 + i, pending: false })),
        );
        await galleries.add(
          'p',
          indexes.map((i) => ({ galleryId: 200 + i, pending: true })),
        );

        await Promise.all(
          indexes.flatMap((i) => [
            galleries.add(i % 2 ? 'p' : 'q', [{ galleryId: 300 + i, pending: true }]),
            galleries.remove('p', 100 + i),
            galleries.markUploaded('p', 200 + i),
          ]),
        );

        const listed = (profileId: string) =>
          galleries
            .list(profileId)
            .map((entry) => `${entry.galleryId}${entry.pending ? ' pending' : ''}`)
            .sort();
        assert.deepStrictEqual(listed('p'), [...indexes.map((i) => `${200 + i}`), ...indexes.filter((i) => i % 2).map((i) => `${300 + i} pending`)].sort());
        assert.deepStrictEqual(
          listed('q'),
          indexes
            .filter((i) => !(i % 2))
            .map((i) => `${300 + i} pending`)
            .sort(),
        );
      } finally {
        await own.dispose();
      }
    });
  });
}

// VS Code's storage sends every write of global state back to the extension host, which takes it
// as the value: the echo of one write that comes after the next write shows the older value for a
// moment (issue 20's "There is no profile with id profile-…" right after the profile was added,
// seen once under load). A store reads what it wrote last, not an echo of what it wrote before.
describe('stores and the echoes of their own writes', () => {
  it('a profile added, then an echo of the write before it: the profile is still there, and can be edited and chosen', async () => {
    const memento = new MemoryMemento('with echoes');
    const own = await servicesOn(memento);
    const store = own.services.profiles;
    try {
      const first = await store.add(remote('First'));
      const second = await store.add(remote('Second'));
      memento.deliverEchoes(1); // the echo of the first add: a list without Second
      assert.ok(store.get(second.id), 'Second is still listed');
      await store.setMediaUrlTemplate(second.id, template(2));
      await store.setActive(second.id);
      memento.deliverEchoes();
      assert.deepStrictEqual(
        store
          .list()
          .filter((profile) => profile.kind === 'remote')
          .map((profile) => [profile.name, profile.mediaUrlTemplate]),
        [
          ['First', undefined],
          ['Second', template(2)],
        ],
      );
      assert.strictEqual(store.active()?.id, second.id);
      assert.ok(store.get(first.id));
    } finally {
      await own.dispose();
    }
  });

  it('a gallery remembered, then an echo of the write before it: the gallery is still listed', async () => {
    const memento = new MemoryMemento('with echoes');
    const own = await servicesOn(memento);
    const galleries = own.services.galleries;
    try {
      await galleries.add('p', [{ galleryId: 1, pending: true }]);
      await galleries.add('p', [{ galleryId: 2, pending: true }]);
      memento.deliverEchoes(1);
      assert.deepStrictEqual(
        galleries
          .list('p')
          .map((gallery) => gallery.galleryId)
          .sort(),
        [1, 2],
      );
      await galleries.markUploaded('p', 2);
      memento.deliverEchoes();
      assert.deepStrictEqual(
        galleries
          .list('p')
          .map((gallery) => [gallery.galleryId, gallery.pending])
          .sort(),
        [
          [1, true],
          [2, false],
        ],
      );
    } finally {
      await own.dispose();
    }
  });
});

// Another window has its own extension host, so nothing here can make it wait: each update reads
// the stored value at the moment it writes, never before an await, and the other window's
// profiles reach this one when it is next focused (refresh).
describe('profiles updated in two windows at once', () => {
  it('loses no add, removal or edit of either window, and a focus afterwards shows this window the same profiles', async () => {
    const shared = new MemoryMemento();
    const windows = [await servicesOn(shared), await servicesOn(shared.anotherWindow())];
    const [mine, other] = windows.map((own) => own.services.profiles);
    let changes = 0;
    const listening = mine.onDidChange(() => changes++);
    try {
      const stores = [mine, other];
      const removed: Profile[] = [];
      const edited: Profile[] = [];
      for (const i of indexes) removed.push(await stores[i % 2].add(remote(`Removed ${i}`)));
      for (const i of indexes) edited.push(await stores[i % 2].add(remote(`Edited ${i}`)));

      await Promise.all(
        indexes.flatMap((i) => [
          stores[i % 2].add(remote(`Added ${i}`)),
          stores[(i + 1) % 2].remove(removed[i].id),
          stores[i % 2].setMediaUrlTemplate(edited[i].id, template(i)),
        ]),
      );

      const expected = indexes.flatMap((i) => [`Added ${i}`, `Edited ${i}`]).sort();
      mine.refresh();
      for (const store of stores) {
        assert.deepStrictEqual(
          store
            .list()
            .filter((profile) => profile.kind === 'remote')
            .map((profile) => profile.name)
            .sort(),
          expected,
        );
        for (const i of indexes) assert.strictEqual(store.get(edited[i].id)?.mediaUrlTemplate, template(i), `Edited ${i}`);
      }

      // The focus path still tells this window only of what changed.
      const told = changes;
      mine.refresh();
      assert.strictEqual(changes, told, 'a focus with nothing changed tells no one');
      await other.setActive(edited[3].id);
      mine.refresh();
      assert.strictEqual(changes, told + 1, 'a profile chosen in the other window is told here on focus');
      assert.strictEqual(mine.active()?.id, edited[3].id);
    } finally {
      listening.dispose();
      for (const own of windows) await own.dispose();
    }
  });
});
