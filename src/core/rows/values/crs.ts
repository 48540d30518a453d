// The coordinate system a table's coordinates are given in: an EPSG code of the built-in list
// (epsgDefinitions.generated.ts, written by scripts/bundle/epsg.js from epsg-index), or a proj4
// definition the user gives for any other. Each is read once into a proj4 converter to WGS 84.
//
// Datum shifts are proj4's +towgs84 parameters, as epsg-index gives them: for MGI (Austria,
// EPSG:31254–31259, 31287) the 7 parameters of EPSG's default transformation MGI to WGS 84 (3)
// (EPSG:1618, stated accuracy 1.5 m). PROJ picks better ones where it has them: for a point in
// Graz, the Styria-only MGI to WGS 84 (8) (EPSG:1194, 0.5 m) lands 0.44 m away, and BEV's grid
// (MGI to ETRS89 (8), AT_GIS_GRID, 0.14 m) is not applied here either. So MGI points can be off
// by a metre or so against grid-based tools; proj4 in JavaScript has no grid files, which is also
// why a definition naming one is refused rather than transformed without its shift.
import { l10n } from '../../text/l10n';
import { EPSG_DEFINITIONS } from './epsgDefinitions.generated';
import type * as ProjectionModule from './projection';

let projectionModule: typeof ProjectionModule | undefined;
/** projection.ts (and with it proj4), loaded when the first coordinate system is read. */
const projections = () => (projectionModule ??= require('./projection') as typeof ProjectionModule);

/** 'EPSG:31256', or a proj4 definition ("+proj=tmerc … +towgs84=…"). */
export type CrsSpec = `EPSG:${number}` | { proj4: string };

export interface Crs extends Readonly<ProjectionModule.Projection> {
  /** How English messages name it: "EPSG:31256" or "the given proj4 definition" (a localised message says which of the two it is in its own words). */
  readonly name: string;
  /** The EPSG code of a built-in one. */
  readonly code?: number;
  /** Where a built-in one is used, in degrees: west, south, east, north (EPSG's area of use). */
  readonly area?: readonly [number, number, number, number];
}

// A problem is kept worded in the language of its first use: the extension sets the language once,
// at activation, before any table is read.
const cache = new Map<string, { crs: Crs } | { problem: string }>();

/** The coordinate system a spec names, or why it cannot be used. */
export function resolveCrs(spec: CrsSpec): { crs: Crs } | { problem: string } {
  const key = typeof spec === 'string' ? `code:${spec}` : `proj4:${spec.proj4}`;
  let resolved = cache.get(key);
  if (!resolved) {
    resolved = typeof spec === 'string' ? resolveEpsg(spec) : resolveDefinition(spec.proj4, { name: 'the given proj4 definition' });
    cache.set(key, resolved);
  }
  return resolved;
}

function resolveEpsg(spec: string): { crs: Crs } | { problem: string } {
  const code = epsgCode(spec);
  if (code === undefined) {
    return { problem: l10n.t('{0} is not a coordinate system: give "EPSG:<code>" (built in: {1}) or { "proj4": "…" }.', JSON.stringify(spec), builtInCodes()) };
  }
  const definition = Object.hasOwn(EPSG_DEFINITIONS, code) ? EPSG_DEFINITIONS[code] : undefined;
  if (!definition) {
    return {
      problem: l10n.t(
        'EPSG:{0} is not built in (built in: {1}). For another coordinate system give its definition as { "proj4": "+proj=… +towgs84=…" }, e.g. from `projinfo EPSG:{0} -o PROJ` or epsg.io.',
        code,
        builtInCodes(),
      ),
    };
  }
  if (code === WGS84_CODE) return { crs: WGS84 };
  return resolveDefinition(definition.proj4, { name: `EPSG:${code}`, code: Number(code), area: definition.area });
}

const WGS84_CODE = '4326';

/**
 * Other numbers for a built-in system, as older tools write them in a GeoJSON's crs or a mapping:
 * Web Mercator's unofficial 900913 and withdrawn 3785, and ESRI's 102100 and 102113 (written as
 * EPSG codes by ArcGIS's exports). Read as the code they stand for, and never a disagreement with it.
 */
const SAME_AS: Readonly<Record<string, string>> = { '900913': '3857', '3785': '3857', '102100': '3857', '102113': '3857' };

/** The code "EPSG:<code>" names, as the built-in list keys it ("EPSG:04326" and "epsg:4326" are 4326, "EPSG:900913" is 3857), or undefined. */
function epsgCode(spec: string): string | undefined {
  const digits = /^EPSG:(\d+)$/i.exec(spec.trim())?.[1];
  if (digits === undefined) return undefined;
  const code = String(Number(digits));
  return Object.hasOwn(SAME_AS, code) ? SAME_AS[code] : code;
}

/** Whether "EPSG:<code>" is one of the built-in systems (or another number of one). */
export function isBuiltIn(spec: string): boolean {
  const code = epsgCode(spec);
  return code !== undefined && Object.hasOwn(EPSG_DEFINITIONS, code);
}

/**
 * Whether two "EPSG:<code>" name one coordinate system: the same code however written, or a code
 * and another number of it (SAME_AS). A GeoJSON's "urn:ogc:def:crs:EPSG::4326", its
 * "urn:ogc:def:crs:OGC:1.3:CRS84" and a .prj's GCS_WGS_1984 all arrive here as EPSG:4326
 * (legacyCrs.ts, prjCrs.ts). Different codes are different systems, even where they differ by
 * less than a metre (ETRS89, EPSG:4258, and WGS 84).
 */
export function sameCrs(a: string, b: string): boolean {
  const code = epsgCode(a);
  return code !== undefined && code === epsgCode(b);
}

/**
 * WGS 84 is what spots are in: nothing to transform, so proj4 is not even loaded for it (most
 * tables give degrees). proj4 would take the degrees to radians and back, which changes about one
 * value in five in its last digit (-59.0085279 → -59.008527900000004), and degrees are sent as the
 * cells write them (they are not rounded). The members are what reading its definition gives
 * (a unit is worded only for a projected system).
 */
const WGS84: Crs = { name: 'EPSG:4326', code: 4326, projected: false, unit: 'metres', toWgs84: (x: number, y: number) => ({ longitude: x, latitude: y }) };

function resolveDefinition(definition: string, { name, code, area }: Pick<Crs, 'name' | 'code' | 'area'>): { crs: Crs } | { problem: string } {
  const grid = gridFileOf(definition);
  if (grid !== undefined) {
    return {
      problem:
        code !== undefined
          ? l10n.t('{0} names the grid file {1} (+nadgrids), which this importer does not have; give the datum shift as +towgs84=… instead.', name, grid)
          : l10n.t(
              'the given proj4 definition names the grid file {0} (+nadgrids), which this importer does not have; give the datum shift as +towgs84=… instead.',
              grid,
            ),
    };
  }
  const projection = projections().readProjection(definition);
  if ('problem' in projection) {
    return {
      problem:
        code !== undefined
          ? l10n.t('{0} cannot be read by proj4: {1}.', name, projection.problem)
          : l10n.t('the given proj4 definition cannot be read by proj4: {0}.', projection.problem),
    };
  }
  return { crs: { name, ...(code === undefined ? {} : { code }), ...(area === undefined ? {} : { area }), ...projection } };
}

/** The grid files (+nadgrids) a proj4 definition needs, or undefined; "@null" is no grid. */
export function gridFileOf(definition: string): string | undefined {
  const grids = /\+nadgrids=(\S+)/
    .exec(definition)?.[1]
    .split(',')
    .filter((grid) => grid !== '@null');
  return grids && grids.length > 0 ? grids.join(',') : undefined;
}

let builtInList: string | undefined;

/** "EPSG 2056, 2100, …, 25828–25837, …": the built-in codes, runs of consecutive codes joined. */
export function builtInCodes(): string {
  if (builtInList === undefined) {
    const codes = Object.keys(EPSG_DEFINITIONS)
      .map(Number)
      .sort((a, b) => a - b);
    const runs: string[] = [];
    for (let start = 0; start < codes.length;) {
      let end = start;
      while (end + 1 < codes.length && codes[end + 1] === codes[end] + 1) end++;
      runs.push(end - start >= 2 ? `${codes[start]}–${codes[end]}` : codes.slice(start, end + 1).join(', '));
      start = end + 1;
    }
    builtInList = `EPSG ${runs.join(', ')}`;
  }
  return builtInList;
}
