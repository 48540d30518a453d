// The queue every store over globalState changes its values through (src/extension/platform/serialUpdates.ts):
// updates of one memento and key run one after another, each seeing what the one before wrote; a
// failed one does not stop the rest; other keys and other mementos do not wait. The stores
// themselves are tested with concurrent changes in test/integration/storeUpdates.test.ts.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { readStored, serialUpdate, writeStored } from '../../src/extension/platform/serialUpdates';

/** A Memento whose writes show only when update settles, a storage round trip later. */
function slowMemento(): vscode.Memento {
  const values = new Map<string, unknown>();
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? values.get(key) : fallback) as T,
    update: async (key: string, value: unknown) => {
      await new Promise((resolve) => setImmediate(resolve));
      values.set(key, value);
    },
  };
}

const append = (memento: vscode.Memento, key: string, item: number) =>
  serialUpdate(memento, key, async () => memento.update(key, [...memento.get<number[]>(key, []), item]));

describe('serialUpdate', () => {
  it('runs the updates of one key one after another: 50 appends started at once all land, in order', async () => {
    const memento = slowMemento();
    const items = [...Array(50).keys()];
    await Promise.all(items.map((item) => append(memento, 'list', item)));
    assert.deepEqual(memento.get('list'), items);
  });

  it('gives each caller its own result or error, and goes on after a failure', async () => {
    const memento = slowMemento();
    const results = await Promise.allSettled([
      append(memento, 'list', 1),
      serialUpdate(memento, 'list', () => {
        throw new Error('refused');
      }),
      serialUpdate(memento, 'list', () => memento.get<number[]>('list')?.length),
      append(memento, 'list', 2),
    ]);
    assert.deepEqual(
      results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message)),
      [undefined, 'refused', 1, undefined],
    );
    assert.deepEqual(memento.get('list'), [1, 2]);
  });

  it('does not make another key or another memento wait', async () => {
    const memento = slowMemento();
    const other = slowMemento();
    let release!: () => void;
    const held = serialUpdate(
      memento,
      'held',
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    await append(memento, 'free', 1);
    await append(other, 'held', 2);
    assert.deepEqual([memento.get('free'), other.get('held')], [[1], [2]]);
    release();
    await held;
  });
});

describe("readStored: the echoes of a window's own writes", () => {
  function plainMemento(): vscode.Memento & { set(key: string, value: unknown): void } {
    const values = new Map<string, unknown>();
    return {
      keys: () => [...values.keys()],
      get: <T>(key: string, fallback?: T) => (values.has(key) ? values.get(key) : fallback) as T,
      update: async (key: string, value: unknown) => void values.set(key, value),
      set: (key: string, value: unknown) => void values.set(key, value),
    };
  }

  it("an echo of an earlier write of this window reads as the last write; another window's value as it is", async () => {
    const memento = plainMemento();
    await writeStored(memento, 'k', [1]);
    await writeStored(memento, 'k', [1, 2]);
    memento.set('k', [1]); // VS Code's echo of the first write, after the second
    assert.deepEqual(readStored(memento, 'k'), [1, 2]);
    memento.set('k', [1, 2, 3]); // another window's write
    assert.deepEqual(readStored(memento, 'k'), [1, 2, 3]);
    assert.deepEqual(readStored(memento, 'other'), undefined);
  });

  it("an echo that carries the value from before this window's first write reads as that write", async () => {
    // Global state is one object per extension: the echo of a write of another key carries this
    // key as it was then, here not yet written at all (seen in the integration suite: a profile
    // just added was gone, "There is no profile with id …").
    const memento = plainMemento();
    memento.set('list', ['theirs']);
    await writeStored(memento, 'list', ['theirs', 'mine']);
    memento.set('list', ['theirs']);
    assert.deepEqual(readStored(memento, 'list'), ['theirs', 'mine']);
    const fresh = plainMemento();
    await writeStored(fresh, 'absent', ['mine']);
    fresh.set('absent', undefined);
    assert.deepEqual(readStored(fresh, 'absent'), ['mine']);
  });
});
