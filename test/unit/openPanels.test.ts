import * as assert from 'node:assert/strict';
import { OpenPanels } from '../../src/extension/platform/openPanels';

/** A stand-in for a webview panel: counts reveals, and tells its owner when it is closed. */
class FakePanel {
  reveals = 0;
  disposed = false;
  readonly panel = {
    reveal: () => void this.reveals++,
    dispose: () => {
      if (this.disposed) return;
      this.disposed = true;
      this.closed();
    },
  };
  constructor(private readonly closed: () => void) {}
}

// The window's open maps are an object the extension makes and disposes, not module state.
describe('open panels: the panels a feature has open, by what they show', () => {
  it('brings the open panel of a key forward instead of making another', () => {
    const panels = new OpenPanels<FakePanel>();
    const made = panels.add('show:a', (closed) => new FakePanel(closed));
    assert.equal(panels.reveal('show:a'), made);
    assert.equal(made.reveals, 1);
    assert.equal(panels.reveal('show:b'), undefined);
  });

  it('forgets a panel the user closed, and not the one opened after it under the same key', () => {
    const panels = new OpenPanels<FakePanel>();
    const first = panels.add('k', (closed) => new FakePanel(closed));
    first.panel.dispose();
    assert.equal(panels.size, 0);
    const second = panels.add('k', (closed) => new FakePanel(closed));
    first.panel.dispose();
    assert.equal(panels.reveal('k'), second);
  });

  it('closes every open panel when disposed, and holds none after', () => {
    const panels = new OpenPanels<FakePanel>();
    const open = ['a', 'b', 'c'].map((key) => panels.add(key, (closed) => new FakePanel(closed)));
    panels.dispose();
    assert.deepEqual(
      open.map((panel) => panel.disposed),
      [true, true, true],
    );
    assert.equal(panels.size, 0);
  });
});
