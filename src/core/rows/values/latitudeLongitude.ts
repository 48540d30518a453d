// Whether a latitude and longitude in degrees are a position: finite, latitude within ±90,
// longitude within ±180 (the spot schema's ranges). A pair that is a position only swapped is
// most likely the two columns swapped: the message says so, and nothing is swapped silently. The
// policy (ranges, what counts as swapped) is core/geo/position.ts, shared with spot documents and
// topic areas; this file words it for a row's cells.
import { LATITUDE_LIMIT, LONGITUDE_LIMIT, PROBABLY_SWAPPED, swapMakesPosition } from '../../geo/position';

export { LATITUDE_LIMIT, LONGITUDE_LIMIT };

/** What is wrong with the pair, [] when nothing is. */
export function checkLatitudeLongitude(latitude: number, longitude: number): string[] {
  const problems: string[] = [];
  if (!Number.isFinite(latitude)) problems.push(`latitude ${latitude} is not a finite number.`);
  if (!Number.isFinite(longitude)) problems.push(`longitude ${longitude} is not a finite number.`);
  if (problems.length > 0) return problems;
  if (swapMakesPosition(latitude, longitude)) return [`latitude ${latitude} is out of range; ${PROBABLY_SWAPPED}.`];
  if (Math.abs(latitude) > LATITUDE_LIMIT) problems.push(`latitude ${latitude} is out of range (-${LATITUDE_LIMIT} to ${LATITUDE_LIMIT}).`);
  if (Math.abs(longitude) > LONGITUDE_LIMIT) problems.push(`longitude ${longitude} is out of range (-${LONGITUDE_LIMIT} to ${LONGITUDE_LIMIT}).`);
  return problems;
}
