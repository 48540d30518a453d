// Where a spot is, judged once for every source of spots (documents, rows of tables, topic areas):
// whether a latitude and longitude in WGS 84 degrees are a position at all, whether swapping the
// two would make them one, whether a position lies in a topic's area, and whether swapping would
// bring it in. A swapped pair is the most common way a spot lands on another continent while every
// number is in range; the callers say so in their own words and never swap silently.
import { l10n } from '../text/l10n';

export const LATITUDE_LIMIT = 90;
export const LONGITUDE_LIMIT = 180;

/** A topic's area: [west, south, east, north] in degrees, as GeoJSON writes a bbox (RFC 7946 §5). */
export type Bbox = readonly [west: number, south: number, east: number, north: number];

/** Finite, latitude within ±90, longitude within ±180 (the spot schema's ranges). */
export function isPosition(latitude: number, longitude: number): boolean {
  return Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= LATITUDE_LIMIT && Math.abs(longitude) <= LONGITUDE_LIMIT;
}

/** Not a position as given, but one with the two swapped: a latitude of 165 beside a longitude of 48. */
export function swapMakesPosition(latitude: number, longitude: number): boolean {
  return !isPosition(latitude, longitude) && isPosition(longitude, latitude);
}

/**
 * Whether a position is in the bbox, edges included. A bbox whose west is larger than its east
 * crosses the antimeridian (RFC 7946 §5.2): [170, -50, -170, -30] spans 20 degrees of longitude
 * around 180, not the 340 degrees between them. Longitude 180 and -180 are one meridian.
 */
export function insideBbox(bbox: Bbox, latitude: number, longitude: number): boolean {
  const [west, south, east, north] = bbox;
  if (!isPosition(latitude, longitude) || latitude < south || latitude > north) return false;
  const within = (lon: number) => (west <= east ? lon >= west && lon <= east : lon >= west || lon <= east);
  return within(longitude) || (Math.abs(longitude) === LONGITUDE_LIMIT && within(-longitude));
}

/** A position against an area: inside, outside, or outside but inside with the two swapped. */
export type AreaVerdict = 'inside' | 'outside' | 'swappedInside';

export function judgeArea(bbox: Bbox, latitude: number, longitude: number): AreaVerdict {
  if (insideBbox(bbox, latitude, longitude)) return 'inside';
  return insideBbox(bbox, longitude, latitude) ? 'swappedInside' : 'outside';
}

/**
 * Whether swapping the two is the fix: it makes a position of a pair that is none, or, for a
 * position outside the area, brings it inside. What both the messages and the quick fix go by.
 */
export function swapWouldFix(latitude: number, longitude: number, bbox?: Bbox): boolean {
  if (swapMakesPosition(latitude, longitude)) return true;
  return bbox !== undefined && isPosition(latitude, longitude) && judgeArea(bbox, latitude, longitude) === 'swappedInside';
}

/**
 * What the bbox's JSON Schema cannot say (its shape and ranges it does), each with the index of the
 * edge it is placed on: a south north of its north, and an area without width or height, which no
 * spot could be inside but on its edge. A west larger than its east is no problem: that bbox
 * crosses the antimeridian; a west of 180 with an east of -180 is one meridian, as in insideBbox.
 */
export function bboxProblems(bbox: Bbox): Array<{ edge: number; message: string }> {
  const [west, south, east, north] = bbox;
  const problems: Array<{ edge: number; message: string }> = [];
  if (west === east || (west === LONGITUDE_LIMIT && east === -LONGITUDE_LIMIT))
    problems.push({ edge: 2, message: l10n.t("The bbox's west and east are the same meridian ({0} and {1}): the area has no width.", west, east) });
  if (south > north)
    problems.push({ edge: 1, message: l10n.t("The bbox's south ({0}) is north of its north ({1}): a bbox is [west, south, east, north].", south, north) });
  else if (south === north) problems.push({ edge: 3, message: l10n.t("The bbox's south and north are both {0}: the area has no height.", south) });
  return problems;
}

/** "west 9.5, south 46.3, east 17.2, north 49.1", for messages. */
export function describeBbox(bbox: Bbox): string {
  const [west, south, east, north] = bbox;
  return west > east
    ? l10n.t('west {0}, south {1}, east {2}, north {3} (across the antimeridian)', west, south, east, north)
    : l10n.t('west {0}, south {1}, east {2}, north {3}', west, south, east, north);
}
