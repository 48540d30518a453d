// What runs only when used (command handlers: imports, uploads, the galleries commands, "New
// Topic Definition") is a separate bundle, dist/features.js, next to dist/extension.js.
// Activation registers every command and provider at once, with stubs that load it on first use,
// so extension.js stays small to load and compile. esbuild keeps this require() external, and
// features.js takes every module extension.js already has from extension.js (see esbuild.js):
// one instance of each, so module state and instanceof checks are shared.
import type * as Features from '../features';
import { requireOnce } from './lazyCore';

export type FeaturesModule = typeof Features;

// A literal path: esbuild keeps exactly this require() call external.
const features = requireOnce(() => require('./features.js') as FeaturesModule);

/** dist/features.js, loaded once (synchronous require; a promise for the callers' sake). */
export const loadFeatures = (): Promise<FeaturesModule> => features.get();

/** The features bundle if something already loaded it (tests check activation does not). */
export const loadedFeatures = (): FeaturesModule | undefined => features.loaded();
