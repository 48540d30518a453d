// A row's place written in one cell as Well-Known Text, as GIS tools and cities' open data write
// it in CSV (Vienna's tree register: a SHAPE column of "POINT (16.3577 48.2048)"; PostGIS and
// QGIS: WKT or EWKT columns). Read by Esri's Terraformer (strict: a cut or misspelt geometry is a
// problem, never a guess), loaded on the first cell; the geometry becomes one point by the
// mapping's `geometry` rule, as a GeoJSON feature's does. EWKT's "SRID=31256;" says the cell's
// coordinate system: it must agree with the mapping's crs, which is what the cell is read in.
import { l10n } from '../../text/l10n';
import type { CrsSpec } from './crs';

export interface WktGeometry {
  type: string;
  coordinates: unknown;
}

type TerraformerWkt = { wktToGeoJSON(text: string): { type: string; coordinates?: unknown; geometries?: unknown } };

const EWKT_SRID = /^\s*SRID=(\d+)\s*;\s*/i;
// Terraformer reads the geometry's name in capitals only, as OGC writes it; PostGIS and people also write it in small letters.
const GEOMETRY_NAME = /^\s*([a-z]+)(\s+(?:z|m|zm))?\s*(?=\(|empty\b)/i;

/** The geometry a WKT cell holds, in the mapping's crs, or what is wrong with it. */
export function readWktCell(text: string, crs: CrsSpec): { geometry: WktGeometry } | { problem: string } {
  const srid = EWKT_SRID.exec(text);
  const wkt = (srid ? text.slice(srid[0].length) : text).replace(GEOMETRY_NAME, (name) => name.toUpperCase());
  if (srid && typeof crs === 'string' && crs !== `EPSG:${srid[1]}`) {
    return { problem: l10n.t('{0} says SRID={1}, but the mapping reads it in {2}: set "crs": "EPSG:{1}".', shorten(text), srid[1], crs) };
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
