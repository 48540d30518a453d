// clampConcurrency is the rule the core's runs apply to a requested concurrency (it was written
// out in bulkImport.ts and mediaWorkflow.ts as Math.max(1, Math.min(16, Math.floor(value ?? 4)))).
import * as assert from 'node:assert/strict';
import { clampConcurrency, DEFAULT_CONCURRENCY, MAX_CONCURRENCY, MIN_CONCURRENCY } from '../../src/core/import/concurrency';

describe('concurrency of imports', () => {
  it('keeps a whole number within the bounds, rounds down, and clamps the rest', () => {
    const inline = (value: number | undefined) => Math.max(1, Math.min(16, Math.floor(value ?? 4)));
    for (const value of [undefined, -3, 0, 0.9, 1, 2.5, 4, 15.99, 16, 17, 99, Infinity, -Infinity]) {
      assert.equal(clampConcurrency(value), inline(value), String(value));
    }
    assert.deepEqual([MIN_CONCURRENCY, MAX_CONCURRENCY, DEFAULT_CONCURRENCY], [1, 16, 4]);
  });

  it('takes NaN as the default (the inline rule gave NaN, which ran no import at all)', () => {
    assert.equal(clampConcurrency(Number.NaN), DEFAULT_CONCURRENCY);
  });
});
