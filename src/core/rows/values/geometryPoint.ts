// The one place a GeoJSON feature's geometry stands for, by the mapping's `geometry` rule. A Point
// is itself, and so is a MultiPoint of one point (what QGIS and Shapefile conversions write for
// point layers). Anything else is refused ("point-only", the default: a spot is one place, and
// which one should be the user's choice), or gives its centroid or its first position. The point
// is in the layer's own coordinates: the caller transforms it (toWgs84), so a centroid is taken
// in the plane the layer was drawn in, as a GIS takes it.
import { geoPath, type GeoPermissibleObjects } from 'd3-geo';
import { l10n } from '../../text/l10n';
import type { SourceGeometry } from '../read/types';
import { COMPUTED_DECIMALS, roundCoordinate } from '../../geo/coordinateDecimals';
import type { GeometryRule } from './geometryRules';

type Position = [number, number];

/** How deep each type's coordinates nest positions (a Point's is one). */
const POSITION_DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

/** A planar centroid (no projection: the coordinates as they are), as JTS and GEOS define it. */
const planar = geoPath(null);

export function geometryPoint(geometry: SourceGeometry, rule: GeometryRule): { x: number; y: number } | { problem: string } {
  const positions: Position[] = [];
  if (!collectPositions(geometry.type, geometry.coordinates, positions)) {
    return geometry.type === 'Point'
      ? { problem: l10n.t("The Point's coordinates are not two numbers.") }
      : { problem: l10n.t("The feature's {0} has coordinates that are not positions of two numbers.", geometry.type) };
  }
  if (positions.length === 0) return { problem: l10n.t("The feature's {0} has no position.", geometry.type) };
  const single = geometry.type === 'Point' || (geometry.type === 'MultiPoint' && positions.length === 1);
  if (single || rule === 'first-point') return { x: positions[0][0], y: positions[0][1] };
  if (rule === 'point-only')
    return { problem: notOnePlace(geometry.type === 'MultiPoint' ? l10n.t('MultiPoint of {0} points', positions.length) : geometry.type) };
  // Taken about the first position: d3 sums products of coordinates, and a building of 20 m given
  // in degrees 45° from the origin would lose centimetres to rounding. The sums' binary noise is
  // dropped as any computed coordinate's is.
  const [x0, y0] = positions[0];
  const [x, y] = planar.centroid(shifted(geometry.type, geometry.coordinates, x0, y0));
  return Number.isFinite(x) && Number.isFinite(y)
    ? { x: roundCoordinate(x0 + x, COMPUTED_DECIMALS), y: roundCoordinate(y0 + y, COMPUTED_DECIMALS) }
    : { problem: l10n.t("The feature's {0} has no position.", geometry.type) };
}

/** Why a geometry of more than one place is refused by the default rule, and what to say in the mapping. */
export function notOnePlace(what: string): string {
  return l10n.t(
    'The feature\'s geometry is a {0}, not one place: say in the mapping which point stands for it, "geometry": "centroid" or "first-point" (or name latitude and longitude columns).',
    what,
  );
}

/**
 * Adds the geometry's positions to `positions` (a GeometryCollection's `coordinates` are its
 * geometries, as the reader keeps them); false when one is not two numbers or the nesting is wrong.
 */
function collectPositions(type: string, coordinates: unknown, positions: Position[]): boolean {
  if (type === 'GeometryCollection') {
    return (
      Array.isArray(coordinates) &&
      coordinates.every(
        (member) =>
          isObject(member) && collectPositions(String(member.type), member.type === 'GeometryCollection' ? member.geometries : member.coordinates, positions),
      )
    );
  }
  const depth = POSITION_DEPTH[type];
  if (depth === undefined) return false;
  const walk = (value: unknown, level: number): boolean => {
    if (!Array.isArray(value)) return false;
    if (level > 0) return value.every((item) => walk(item, level - 1));
    if (value.length < 2 || typeof value[0] !== 'number' || typeof value[1] !== 'number' || !Number.isFinite(value[0]) || !Number.isFinite(value[1]))
      return false;
    positions.push([value[0], value[1]]);
    return true;
  };
  return walk(coordinates, depth);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The geometry as d3 takes it, moved by (−x0, −y0) (the reader keeps a GeometryCollection's geometries as its coordinates). */
function shifted(type: string, coordinates: unknown, x0: number, y0: number): GeoPermissibleObjects {
  if (type === 'GeometryCollection') {
    const members = coordinates as Array<Record<string, unknown>>;
    return {
      type,
      geometries: members.map((member) => shifted(String(member.type), member.type === 'GeometryCollection' ? member.geometries : member.coordinates, x0, y0)),
    } as GeoPermissibleObjects;
  }
  const move = (value: unknown, level: number): unknown => {
    const items = value as unknown[];
    return level > 0 ? items.map((item) => move(item, level - 1)) : [(items[0] as number) - x0, (items[1] as number) - y0];
  };
  return { type, coordinates: move(coordinates, POSITION_DEPTH[type]) } as GeoPermissibleObjects;
}
