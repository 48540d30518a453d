// The extension's one owner of disposables (src/extension/platform/lifecycle.ts): newest first, each one
// finished before the next, a failure does not stop the rest, and late additions are disposed.
import * as assert from 'node:assert/strict';
import { DisposableStore } from '../../src/extension/platform/lifecycle';

describe('DisposableStore', () => {
  it('disposes in reverse, waiting for each one, and goes on after a failure', async () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add({ dispose: () => order.push('log') });
    store.add({
      dispose: () => {
        throw new Error('broken');
      },
    });
    store.push(
      {
        dispose: async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          order.push('sandbox stopped');
        },
      },
      { dispose: () => order.push('clients') },
    );
    await store.dispose();
    assert.deepEqual(order, ['clients', 'sandbox stopped', 'log']);
    assert.equal(store.isDisposed, true);
    await store.dispose();
    assert.deepEqual(order, ['clients', 'sandbox stopped', 'log'], 'a second dispose does nothing');
  });

  it('disposes at once what is added after it was disposed', async () => {
    const store = new DisposableStore();
    await store.dispose();
    let disposed = false;
    store.add({
      dispose: () => {
        disposed = true;
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(disposed, true);
  });
});
