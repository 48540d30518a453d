// The stand-ins' build of what they stand for (src/extension/platform/lazyFeatures.ts): once for
// every caller, into a store of its own that its owner takes only when the build succeeded, and
// tried again after a failure, which onFailure hears of first.
import * as assert from 'node:assert/strict';
import { buildOnFirstNeed } from '../../src/extension/platform/lazyFeatures';
import { DisposableStore } from '../../src/extension/platform/lifecycle';

describe('buildOnFirstNeed', () => {
  it('builds once for every caller, the ones waiting meanwhile too', async () => {
    let loads = 0;
    let builds = 0;
    const ready = buildOnFirstNeed(
      new DisposableStore(),
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
      new DisposableStore(),
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

  it('disposes what a build that fails halfway made, before the next try; the owner takes a good build and disposes it with itself', async () => {
    const owner = new DisposableStore();
    const disposed: string[] = [];
    let attempt = 0;
    const ready = buildOnFirstNeed(
      owner,
      (_features: object, disposables: DisposableStore) => {
        attempt++;
        disposables.push({ dispose: () => disposed.push(`listener of attempt ${attempt}`) });
        if (attempt === 1) throw new Error('a part could not be made');
        return attempt;
      },
      () => undefined,
      async () => ({}),
    );
    await assert.rejects(ready(), /a part could not be made/);
    assert.deepEqual(disposed, ['listener of attempt 1'], 'the failed attempt left its listener registered');
    assert.equal(await ready(), 2);
    assert.deepEqual(disposed, ['listener of attempt 1'], 'a good build was disposed before its owner');
    await owner.dispose();
    assert.deepEqual(disposed, ['listener of attempt 1', 'listener of attempt 2']);
  });
});
