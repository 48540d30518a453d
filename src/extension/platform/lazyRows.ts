// dist/rows.js: rows of tables as spots (src/core/rows: reading CSV and GeoJSON, coordinates,
// dates, mappings), with its libraries (proj4, luxon), loaded only when a table with a
// mapping is checked or imported. It takes the core's modules from dist/core.js and
// dist/coreRest.js (esbuild.js), so those are loaded first, through their code caches, and rows.js
// finds them loaded.
import type * as Rows from '../../core/rows';
import { loadWholeCore, requireOnce } from './lazyCore';

export type RowsModule = typeof Rows;

// A literal path: esbuild keeps exactly this require() call external.
const rows = requireOnce(() => require('./rows.js') as RowsModule);

export async function loadRows(): Promise<RowsModule> {
  await loadWholeCore();
  return rows.get();
}
