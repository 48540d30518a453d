// A table's coordinates to the latitude and longitude (WGS 84 degrees) a spot document carries.
// The caller says which number is which: x is the easting or longitude, y the northing or
// latitude, as GeoJSON orders them, whatever order the coordinate system's EPSG entry lists its
// axes in (EPSG:31256 lists northing first, and Austrian surveyors call the northing X) and
// whatever order a table's columns come in (latitude and longitude columns are named). Results
// are not rounded: that happens once, when the document is written.
import { l10n } from '../../text/l10n';
import { checkLatitudeLongitude, LATITUDE_LIMIT, LONGITUDE_LIMIT } from './latitudeLongitude';
import { resolveCrs, type Crs, type CrsSpec } from './crs';
import { withMembers } from '../../objects/withMembers';

/** A problem's `swapped`: x and y swapped would be a position where the system is used (the fix is to exchange the columns). */
export type Wgs84Result = { latitude: number; longitude: number; warning?: string } | { problem: string; swapped?: true };

export function toWgs84(x: number, y: number, spec: CrsSpec): Wgs84Result {
  const resolved = resolveCrs(spec);
  if ('problem' in resolved) return resolved;
  const { crs } = resolved;
  if (!Number.isFinite(x) || !Number.isFinite(y)) {
    return {
      problem:
        crs.code !== undefined
          ? l10n.t('x {0}, y {1} in {2} are not finite numbers.', x, y, crs.name)
          : l10n.t('x {0}, y {1} in the given proj4 definition are not finite numbers.', x, y),
    };
  }
  // Degrees are checked as given, where a swap of the two can still be seen.
  const asGiven = crs.projected ? [] : checkLatitudeLongitude(y, x);
  if (asGiven.length > 0) return { problem: asGiven.join(' ') };
  let position: { latitude: number; longitude: number };
  try {
    position = crs.toWgs84(x, y);
  } catch {
    position = { latitude: NaN, longitude: NaN };
  }
  if (checkLatitudeLongitude(position.latitude, position.longitude).length > 0) {
    return {
      problem:
        crs.code !== undefined
          ? l10n.t('x {0}, y {1} is no position in {2}: it lies outside what that coordinate system can express.', x, y, crs.name)
          : l10n.t('x {0}, y {1} is no position in the given proj4 definition: it lies outside what that coordinate system can express.', x, y),
    };
  }
  const degrees = degreesMessage(x, y, crs);
  if (degrees !== undefined && !nearFalseOrigin(x, y, position, crs)) return { problem: degrees };
  const away = outsideArea(x, y, position, crs);
  if (away?.swapped) return { problem: away.message, swapped: true };
  const warning = degrees ?? away?.message;
  return warning === undefined ? position : withMembers(position, { warning });
}

/** How far past a system's area of use a position may lie before it is said (EPSG's areas follow borders closely). */
const AREA_MARGIN_DEGREES = 1;

/**
 * A built-in projected system's position outside where the system is used: x and y swapped when
 * swapping them lands inside (Austrian and German surveyors write the northing as X, a mapping
 * may take X for the easting), else a warning to check the system. Degrees and a proj4 definition
 * given by hand are not checked (the first is checked as latitude and longitude, the second has no area).
 */
function outsideArea(x: number, y: number, position: { latitude: number; longitude: number }, crs: Crs): { message: string; swapped: boolean } | undefined {
  const area = crs.area;
  if (!crs.projected || area === undefined || inArea(position, area)) return undefined;
  const [west, south, east, north] = area;
  const where = l10n.t('{0} to {1}° east, {2} to {3}° north', west, east, south, north);
  let other: { latitude: number; longitude: number } | undefined;
  try {
    other = crs.toWgs84(y, x);
  } catch {
    other = undefined;
  }
  if (other && inArea(other, area)) {
    return {
      swapped: true,
      message: l10n.t(
        'x {0}, y {1} in {2} lie outside where that system is used ({3}); swapped, they lie inside: x and y (the columns of longitude and latitude) are probably swapped.',
        x,
        y,
        crs.name,
        where,
      ),
    };
  }
  return {
    swapped: false,
    message: l10n.t('x {0}, y {1} in {2} lie outside where that system is used ({3}): check the coordinate system.', x, y, crs.name, where),
  };
}

function inArea({ latitude, longitude }: { latitude: number; longitude: number }, [west, south, east, north]: readonly number[]): boolean {
  return (
    latitude >= south - AREA_MARGIN_DEGREES &&
    latitude <= north + AREA_MARGIN_DEGREES &&
    longitude >= west - AREA_MARGIN_DEGREES &&
    longitude <= east + AREA_MARGIN_DEGREES
  );
}

/**
 * Longitude and latitude given for a projected system (both within what degrees can be), or
 * undefined. Such x and y are also a point within 180 by 90 units of the system's false origin,
 * which nearFalseOrigin decides between.
 */
function degreesMessage(x: number, y: number, crs: Crs): string | undefined {
  if (!crs.projected || Math.abs(x) > LONGITUDE_LIMIT || Math.abs(y) > LATITUDE_LIMIT) return undefined;
  return crs.code !== undefined
    ? l10n.t(
        'x {0}, y {1}: these look like degrees, not {2} {3}; if they are longitude and latitude, the coordinate system is EPSG:4326.',
        x,
        y,
        crs.name,
        unitWords(crs.unit),
      )
    : l10n.t(
        'x {0}, y {1}: these look like degrees, not {2} of the given proj4 definition; if they are longitude and latitude, the coordinate system is EPSG:4326.',
        x,
        y,
        unitWords(crs.unit),
      );
}

/**
 * Whether x and y that look like degrees may still be a real point of the system, a few metres
 * from its false origin (then degreesMessage is a warning; else an error: the row is not placed).
 * Most grids put their false origin far from where they are used, so that every coordinate is
 * large and positive: Austria's (MGI) lies in Croatia, a UTM zone's on the equator 500 km west
 * of its middle, so such a point lies outside the system's area of use. Besides Web Mercator, only
 * three built-in grids have their origin within a degree of their area (Portugal's EPSG:3763 in the middle of the
 * country; Luxembourg's 2169 and Belgium's 31370 just across the border): for them a point near the
 * origin is possible, unless the numbers read as longitude and latitude lie in the area too, which
 * is the likelier mistake (and always so for Web Mercator, whose area is the world and whose
 * origin is at sea, on "Null Island"). A proj4 definition given by hand has no area to tell by,
 * and is where local grids are (an excavation's, its origin at the site, its coordinates a few
 * metres): it keeps the warning.
 */
function nearFalseOrigin(x: number, y: number, position: { latitude: number; longitude: number }, crs: Crs): boolean {
  if (crs.area === undefined) return true;
  return inArea(position, crs.area) && !inArea({ latitude: y, longitude: x }, crs.area);
}

/** A projection's unit (Projection.unit, in English: "metres", "units of link") in the messages' language. */
function unitWords(unit: string): string {
  switch (unit) {
    case 'metres':
      return l10n.t('metres');
    case 'kilometres':
      return l10n.t('kilometres');
    case 'feet':
      return l10n.t('feet');
    case 'US survey feet':
      return l10n.t('US survey feet');
  }
  const other = /^units of (.+)$/.exec(unit)?.[1];
  return other === undefined ? unit : l10n.t('units of {0}', other);
}
