// Whether a latitude and longitude in degrees are a position: finite, latitude within ±90,
// longitude within ±180 (the ranges of the spot schema, src/core/api/spotSchema.ts). A latitude
// out of range that would be a fine longitude, next to a longitude that would be a fine latitude,
// is most likely the two columns swapped: the message says so, and nothing is swapped silently.

export const LATITUDE_LIMIT = 90;
export const LONGITUDE_LIMIT = 180;

/** What is wrong with the pair, [] when nothing is. */
export function checkLatitudeLongitude(latitude: number, longitude: number): string[] {
  const problems: string[] = [];
  if (!Number.isFinite(latitude)) problems.push(`latitude ${latitude} is not a finite number.`);
  if (!Number.isFinite(longitude)) problems.push(`longitude ${longitude} is not a finite number.`);
  if (problems.length > 0) return problems;
  const latitudeInRange = Math.abs(latitude) <= LATITUDE_LIMIT;
  const longitudeInRange = Math.abs(longitude) <= LONGITUDE_LIMIT;
  if (!latitudeInRange && Math.abs(latitude) <= LONGITUDE_LIMIT && Math.abs(longitude) <= LATITUDE_LIMIT) {
    return [`latitude ${latitude} is out of range; latitude and longitude are probably swapped.`];
  }
  if (!latitudeInRange) problems.push(`latitude ${latitude} is out of range (-${LATITUDE_LIMIT} to ${LATITUDE_LIMIT}).`);
  if (!longitudeInRange) problems.push(`longitude ${longitude} is out of range (-${LONGITUDE_LIMIT} to ${LONGITUDE_LIMIT}).`);
  return problems;
}
