// A table's coordinates to the latitude and longitude (WGS 84 degrees) a spot document carries.
// The caller says which number is which: x is the easting or longitude, y the northing or
// latitude, as GeoJSON orders them, whatever order the coordinate system's EPSG entry lists its
// axes in (EPSG:31256 lists northing first, and Austrian surveyors call the northing X) and
// whatever order a table's columns come in (latitude and longitude columns are named). Results
// are not rounded: that happens once, when the document is written.
import { checkLatitudeLongitude, LATITUDE_LIMIT, LONGITUDE_LIMIT } from './latitudeLongitude';
import { resolveCrs, type Crs, type CrsSpec } from './crs';

export type Wgs84Result = { latitude: number; longitude: number; warning?: string } | { problem: string };

export function toWgs84(x: number, y: number, spec: CrsSpec): Wgs84Result {
  const resolved = resolveCrs(spec);
  if ('problem' in resolved) return resolved;
  const { crs } = resolved;
  if (!Number.isFinite(x) || !Number.isFinite(y)) return { problem: `x ${x}, y ${y} in ${crs.name} are not finite numbers.` };
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
    return { problem: `x ${x}, y ${y} is no position in ${crs.name}: it lies outside what that coordinate system can express.` };
  }
  const warning = degreesWarning(x, y, crs);
  return warning === undefined ? position : { ...position, warning };
}

/**
 * Longitude and latitude given for a projected system: a point within 180 by 90 metres of the
 * system's false origin is possible, so this is a warning, but the usual cause is a file in degrees.
 */
function degreesWarning(x: number, y: number, crs: Crs): string | undefined {
  if (!crs.projected || Math.abs(x) > LONGITUDE_LIMIT || Math.abs(y) > LATITUDE_LIMIT) return undefined;
  const units = crs.code !== undefined ? `${crs.name} ${crs.unit}` : `${crs.unit} of ${crs.name}`;
  return `x ${x}, y ${y}: these look like degrees, not ${units}; if they are longitude and latitude, the coordinate system is EPSG:4326.`;
}
