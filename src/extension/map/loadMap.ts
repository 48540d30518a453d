// dist/map.js: the map panel and its commands (src/extension/map/index.ts), loaded when a map first opens, so
// activation and the first network use carry none of it. It takes the core's modules from
// dist/core.js and dist/coreRest.js and the extension's from dist/extension.js (esbuild.js), so
// the whole core is loaded first and map.js finds it loaded. This file and mapCommands.ts are
// part of dist/features.js, not of dist/map.js.
import type * as MapModule from './index';
import { loadWholeCore, requireOnce } from '../platform/lazyCore';

export type MapBundle = typeof MapModule;

// A literal path: esbuild keeps exactly this require() call external.
const map = requireOnce(() => require('./map.js') as MapBundle);

export async function loadMap(): Promise<MapBundle> {
  await loadWholeCore();
  return map.get();
}
