// The stand-ins' build of what they stand for (src/extension/platform/lazyFeatures.ts): once for
// every caller, and tried again after a failure, which onFailure hears of first.
import * as assert from 'node:assert/strict';
import { buildOnFirstNeed } from '../../src/extension/platform/lazyFeatures';

describe('buildOnFirstNeed', () => {
  it('builds once for every caller, the ones waiting meanwhile too', async () => {
    let loads = 0;
    let builds = 0;
    const ready = buildOnFirstNeed(
      (features: { name: string }) => ({ built: features.name, number: ++builds }),
      () => assert.fail('no failure expected'),
      async () => {
        loads++;
        return { name: 'features' };
      },
    );
    const [first, second] = await Promise.all([ready(), ready()]);
    const third = await ready();
    assert.equal(first, second);
    assert.equal(first, third);
    assert.deepEqual(first, { built: 'features', number: 1 });
    assert.equal(loads, 1);
    assert.equal(builds, 1);
  });

  it('says a failed load or build, does not keep it, and builds on the next need', async () => {
    const failures: unknown[] = [];
    let attempts = 0;
    const ready = buildOnFirstNeed(
      (features: { name: string }) => {
        if (attempts === 2) throw new Error('the build failed');
        return features.name;
      },
      (error) => failures.push(error),
      async () => {
        attempts++;
        if (attempts === 1) throw new Error('dist/features.js is missing');
        return { name: 'features' };
      },
    );
    await assert.rejects(ready(), /dist\/features.js is missing/);
    await assert.rejects(ready(), /the build failed/);
    assert.equal(await ready(), 'features');
    assert.equal(await ready(), 'features');
    assert.deepEqual(
      failures.map((error) => (error as Error).message),
      ['dist/features.js is missing', 'the build failed'],
    );
    assert.equal(attempts, 3);
  });
});
