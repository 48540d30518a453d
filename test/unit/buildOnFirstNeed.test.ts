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

  it('disposes what a build that fails halfway made before it says so and tries again; the owner takes a good build and disposes it with itself', async () => {
    const owner = new DisposableStore();
    const disposed: string[] = [];
    const disposedWhenSaid: number[] = [];
    let attempts = 0;
    const ready = buildOnFirstNeed(
      owner,
      (_features: object, disposables: DisposableStore) => {
        const attempt = ++attempts;
        disposables.push({ dispose: () => disposed.push(`listener of attempt ${attempt}`) });
        if (attempt === 1) throw new Error('a part could not be made');
        return attempt;
      },
      () => disposedWhenSaid.push(disposed.length),
      async () => ({}),
    );
    await assert.rejects(ready(), /a part could not be made/);
    assert.deepEqual(disposed, ['listener of attempt 1'], 'the failed attempt left its listener registered');
    assert.deepEqual(disposedWhenSaid, [1], 'the failure was said before what the attempt made was disposed');
    assert.equal(await ready(), 2);
    assert.deepEqual(disposed, ['listener of attempt 1'], 'a good build was disposed before its owner');
    await owner.dispose();
    assert.deepEqual(disposed, ['listener of attempt 1', 'listener of attempt 2']);
  });

  it('says a failure like the last one said once: every stand-in asks again', async () => {
    const said: string[] = [];
    let attempts = 0;
    const ready = buildOnFirstNeed(
      new DisposableStore(),
      () => {
        attempts++;
        throw new Error(attempts === 3 ? 'another failure' : 'dist/features.js is missing');
      },
      (error) => said.push((error as Error).message),
      async () => ({}),
    );
    for (let ask = 0; ask < 4; ask++) await assert.rejects(ready());
    assert.equal(attempts, 4, 'each need tries again');
    assert.deepEqual(said, ['dist/features.js is missing', 'another failure', 'dist/features.js is missing']);
  });

  it('builds nothing once its owner is disposed while the features load, and says nothing of it', async () => {
    const owner = new DisposableStore();
    let loaded!: (features: object) => void;
    let builds = 0;
    let failures = 0;
    const ready = buildOnFirstNeed(
      owner,
      () => ++builds,
      () => failures++,
      () => new Promise<object>((resolve) => (loaded = resolve)),
    );
    const pending = ready();
    await owner.dispose();
    loaded({});
    await assert.rejects(pending, /deactivated/);
    assert.equal(builds, 0, 'a build after deactivation');
    assert.equal(failures, 0, 'deactivation was said as a failure');
  });
});
