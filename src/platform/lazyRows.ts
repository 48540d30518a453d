// dist/rows.js: rows of tables as spots (src/core/rows: reading CSV and GeoJSON, coordinates,
// dates, mappings), with its libraries (csv-parse, proj4, luxon), loaded only when a table with a
// mapping is checked or imported. It takes the core's modules from dist/core.js (esbuild.js), so
// the core is loaded first, through its code cache, and rows.js finds it loaded.
import type * as Rows from '../core/rows';
import { loadCore, requireOnce } from './lazyCore';

export type RowsModule = typeof Rows;

// A literal path: esbuild keeps exactly this require() call external.
const rows = requireOnce(() => require('./rows.js') as RowsModule);

export async function loadRows(): Promise<RowsModule> {
  await loadCore();
  return rows.get();
}
