// The mapping's crs against the coordinate system the table says it is in (a GeoJSON's legacy crs
// member, a shapefile's .prj), checked once, at the mapping, rather than on every row: a crs that
// cannot be used would fail each row alike, and one that disagrees with the file's would place
// every spot far from where it is (a QGIS layer in EPSG:31256 read as 31257 lands 600 km west).
// The same code however written agrees (values/crs.ts, sameCrs); a proj4 definition in the
// mapping is taken as the file's system given by hand (a datum shift of its own, or a system
// that is not built in), as an EWKT cell's SRID is against it (values/wktCell.ts).
import type { Node } from 'jsonc-parser';
import { problemAt } from '../../documents/checkedJson';
import { l10n } from '../../text/l10n';
import type { SourceTable } from '../read/types';
import { builtInCodes, isBuiltIn, resolveCrs, sameCrs, type CrsSpec } from '../values/crs';
import { tableCrs } from '../values/prjCrs';
import type { Mapping } from './mappingSchema';

/** The coordinate system a table names itself, and where it says so ("its crs member", "baeume.prj"), for messages. */
export interface TableCrs {
  code: string;
  from: string;
}

/** The coordinate system a table names itself, with where it says so; undefined when it names none (or a .prj this project cannot read). */
export function tableCrsOf(table: Pick<SourceTable, 'crs' | 'prj'>): TableCrs | undefined {
  const code = tableCrs(table);
  if (code === undefined) return undefined;
  if (table.crs === undefined && table.prj) return { code, from: table.prj.name };
  return {
    code,
    from: l10n.t({
      message: 'its crs member',
      args: [],
      comment: ['Where a GeoJSON file names its coordinate system, in "trees.geojson says EPSG:31256 (its crs member), the mapping EPSG:31257: …"'],
    }),
  };
}

/** What is wrong with the coordinate system the rows would be read in, as problems of the mapping (rule `rule`). */
export function crsProblems(
  root: Node | undefined,
  mapping: Mapping,
  table: { crs?: TableCrs; sourceName: string },
  rule: string,
): Array<ReturnType<typeof problemAt>> {
  const given = mapping.crs;
  const own = table.crs;
  if (given !== undefined) {
    const spec: CrsSpec = typeof given === 'string' ? (given as CrsSpec) : { proj4: given.proj4 };
    const resolved = resolveCrs(spec);
    if ('problem' in resolved) return [problemAt(root, typeof given === 'string' ? ['crs'] : ['crs', 'proj4'], resolved.problem, rule)];
    // Columns the mapping names (a .dbf's GPS degrees beside a layer in a grid) are in the mapping's
    // crs, whatever the file says of its geometry.
    if (own && readsOwnGeometry(mapping) && typeof given === 'string' && !sameCrs(own.code, given))
      return [
        problemAt(
          root,
          ['crs'],
          l10n.t('{0} says {1} ({2}), the mapping {3}: remove crs from the mapping or make it agree.', table.sourceName, own.code, own.from, given),
          rule,
        ),
      ];
    return [];
  }
  if (!own) return [];
  const resolved = resolveCrs(own.code as CrsSpec);
  if (!('problem' in resolved)) return [];
  const message = isBuiltIn(own.code)
    ? l10n.t('{0} says its coordinates are in {1} ({2}): {3}', table.sourceName, own.code, own.from, resolved.problem)
    : l10n.t(
        '{0} says its coordinates are in {1} ({2}), which is not built in: give the mapping "crs": { "proj4": "+proj=… +towgs84=…" }, the definition of {1} (e.g. from `projinfo {1} -o PROJ` or epsg.io), and the file is read in it. Built in: {3}.',
        table.sourceName,
        own.code,
        own.from,
        builtInCodes(),
      );
  return [problemAt(root, [], message, rule)];
}

/** Whether the places come from the file's geometry, the system the file names, rather than from columns the mapping names. */
function readsOwnGeometry(mapping: Mapping): boolean {
  return mapping.latitude === undefined && mapping.longitude === undefined && mapping.position === undefined && mapping.wkt === undefined;
}
