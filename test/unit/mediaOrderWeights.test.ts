import * as assert from 'node:assert/strict';
import { weightsToSend } from '../../src/core/mediaFiles/mediaOrder';
import { compareMediaNames } from '../../src/core/media/mediaLayout';

describe('media workflow: order weights and name order', () => {
  it('sends every weight when none is known', () => {
    assert.deepEqual(weightsToSend([7, 8, 9], {}), [
      { id: 7, orderWeight: 1 },
      { id: 8, orderWeight: 2 },
      { id: 9, orderWeight: 3 },
    ]);
  });

  it('sends only the new or moved media when the weights it set earlier are known', () => {
    assert.deepEqual(weightsToSend([1, 2, 5, 3, 4], { 1: 1, 2: 2, 3: 3, 4: 4 }), [{ id: 5, orderWeight: 2.5 }]);
    assert.deepEqual(weightsToSend([4, 1, 2, 3], { 1: 1, 2: 2, 3: 3, 4: 4 }), [{ id: 4, orderWeight: 0 }]);
    const spread = weightsToSend([1, 8, 9, 2], { 1: 1, 2: 2 });
    assert.deepEqual(
      spread.map((e) => e.id),
      [8, 9],
    );
    assert.ok(1 < spread[0].orderWeight && spread[0].orderWeight < spread[1].orderWeight && spread[1].orderWeight < 2);
  });

  it('orders names as a file manager does: numbers by value, then code points', () => {
    const names = ['10-end.jpg', 'b.jpg', '2-bridge.jpg', 'B.jpg', '01-start.jpg'];
    assert.deepEqual(names.sort(compareMediaNames), ['01-start.jpg', '2-bridge.jpg', '10-end.jpg', 'b.jpg', 'B.jpg']);
  });
});
