// A row's place written in one cell as Well-Known Text, as GIS tools and cities' open data write
// it in CSV (Vienna's tree register: a SHAPE column of "POINT (16.3577 48.2048)"; PostGIS and
// QGIS: WKT or EWKT columns). Read by Esri's Terraformer (strict: a cut or misspelt geometry is a
// problem, never a guess), loaded on the first cell; the geometry becomes one point by the
// mapping's `geometry` rule, as a GeoJSON feature's does. EWKT's "SRID=31256;" says the cell's
// coordinate system: it must agree with the mapping's crs, which is what the cell is read in.
import { l10n } from '../../text/l10n';
import type { CrsSpec } from './crs';
import { notOnePlace } from './geometryPoint';
import type { GeometryRule } from './geometryRules';

export interface WktGeometry {
  type: string;
  coordinates: unknown;
}

type TerraformerWkt = { wktToGeoJSON(text: string): { type: string; coordinates?: unknown; geometries?: unknown } };

const EWKT_SRID = /^\s*SRID=(\d+)\s*;\s*/i;
// Terraformer reads the geometry's name in capitals only, as OGC writes it; PostGIS and people also write it in small letters.
const GEOMETRY_NAME = /^\s*([a-z]+)(\s+(?:z|m|zm))?\s*(?=\(|empty\b)/i;
/** WKT's names of the geometries that are more than one place, as GeoJSON names them. */
const LINES_AND_AREAS: Record<string, string> = {
  LINESTRING: 'LineString',
  MULTILINESTRING: 'MultiLineString',
  POLYGON: 'Polygon',
  MULTIPOLYGON: 'MultiPolygon',
};
// Terraformer's time grows with the square of a cell past some 370 KB (a polygon of 16,000
// positions; 2 s at 32,000): a cell this long is refused before it is read.
const MAX_WKT_CHARS = 256 * 1024;

/**
 * The geometry a WKT cell holds, in the mapping's crs, or what is wrong with it. A line or area
 * under the mapping's default "point-only" is refused by its name, before the rest is read.
 */
export function readWktCell(text: string, crs: CrsSpec, rule: GeometryRule): { geometry: WktGeometry } | { problem: string } {
  const srid = EWKT_SRID.exec(text);
  const wkt = (srid ? text.slice(srid[0].length) : text).replace(GEOMETRY_NAME, (name) => name.toUpperCase());
  const code = srid ? `EPSG:${Number(srid[1])}` : undefined;
  if (code && typeof crs === 'string' && crs !== code) {
    return { problem: l10n.t('{0} says SRID={1}, but the mapping reads it in {2}: set "crs": "{3}".', shorten(text), srid![1], crs, code) };
  }
  const name = GEOMETRY_NAME.exec(wkt)?.[1];
  if (rule === 'point-only' && name !== undefined && Object.hasOwn(LINES_AND_AREAS, name)) return { problem: notOnePlace(LINES_AND_AREAS[name]) };
  if (wkt.length > MAX_WKT_CHARS) {
    return {
      problem: l10n.t(
        '{0} is {1} KiB of Well-Known Text; at most {2} KiB are read: a spot is one place, give a simpler geometry or its point.',
        shorten(text),
        Math.ceil(wkt.length / 1024),
        MAX_WKT_CHARS / 1024,
      ),
    };
  }
  let geometry: ReturnType<TerraformerWkt['wktToGeoJSON']>;
  try {
    geometry = (require('@terraformer/wkt') as TerraformerWkt).wktToGeoJSON(wkt);
  } catch {
    return {
      problem: l10n.t('{0} is not a geometry in Well-Known Text, e.g. POINT (16.3577 48.2048) (x, that is the easting or longitude, first).', shorten(text)),
    };
  }
  if (geometry.type === 'GeometryCollection' || geometry.coordinates === undefined) {
    return { problem: l10n.t('{0} is a {1}: a spot needs a point, a line or a polygon.', shorten(text), geometry.type) };
  }
  return { geometry: { type: geometry.type, coordinates: geometry.coordinates } };
}

/** A cell quoted in a message: a polygon of a thousand positions is named by its start. */
function shorten(text: string): string {
  const cell = text.trim();
  return JSON.stringify(cell.length > 60 ? `${cell.slice(0, 57)}…` : cell);
}
