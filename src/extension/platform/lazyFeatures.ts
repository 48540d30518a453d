// What runs only when used (command handlers: imports, uploads, the galleries commands, "New
// Topic Definition") is a separate bundle, dist/features.js, next to dist/extension.js.
// Activation registers every command and provider at once, with stubs that load it on first use,
// so extension.js stays small to load and compile. esbuild keeps this require() external, and
// features.js takes every module extension.js already has from extension.js (see esbuild.js):
// one instance of each, so module state and instanceof checks are shared.
//
// Each feature states the part of the bundle it uses (commands: CommandFeatures, topics:
// TopicFeatures, the Galleries view: ViewFeatures); src/extension/features.ts, the bundle's entry, is
// checked against all of them, so nothing down here needs to know the features above it.
import { requireOnce } from './lazyCore';
import { DisposableStore } from './lifecycle';

// A literal path: esbuild keeps exactly this require() call external.
const features = requireOnce(() => require('./features.js') as unknown);

/** dist/features.js, loaded once (synchronous require; a promise for the callers' sake), as the part the caller uses. */
export const loadFeatures = <T>(): Promise<T> => features.get() as Promise<T>;

/** Whether something already loaded the features bundle (tests check activation does not). */
export const featuresLoaded = (): boolean => features.loaded() !== undefined;

/**
 * What a stand-in registered at activation builds from dist/features.js on its first need, once:
 * every caller gets the same build. Each try builds into a store of its own, which `owner` takes
 * when the build succeeds; a build that throws halfway has what it made disposed (a second try
 * would otherwise listen twice), then is said to onFailure and not kept, so the next need tries
 * again. onFailure hears a failure once: every stand-in asks again, and the same failure again is
 * not news. Once `owner` is disposed (deactivation) nothing is built: the call rejects, unsaid.
 * `load` is for tests.
 */
export function buildOnFirstNeed<F, T>(
  owner: DisposableStore,
  build: (features: F, disposables: DisposableStore) => T,
  onFailure: (error: unknown) => void,
  load: () => Promise<F> = loadFeatures,
): () => Promise<Awaited<T>> {
  let building: Promise<Awaited<T>> | undefined;
  let lastFailure: string | undefined;
  const attempt = async (): Promise<Awaited<T>> => {
    const features = await load();
    if (owner.isDisposed) throw new Error('Not built: the extension is being deactivated');
    const disposables = new DisposableStore();
    try {
      const built = await build(features, disposables);
      owner.add(disposables);
      return built;
    } catch (error) {
      await disposables.dispose();
      throw error;
    }
  };
  return () =>
    (building ??= attempt().catch((error: unknown) => {
      building = undefined;
      const failure = error instanceof Error ? error.message : String(error);
      if (!owner.isDisposed && failure !== lastFailure) onFailure(error);
      lastFailure = failure;
      throw error;
    }));
}
