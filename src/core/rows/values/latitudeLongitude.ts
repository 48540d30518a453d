// Whether a latitude and longitude in degrees are a position: finite, latitude within ±90,
// longitude within ±180 (the spot schema's ranges). A pair that is a position only swapped is
// most likely the two columns swapped: the message says so, and nothing is swapped silently. The
// policy (ranges, what counts as swapped) is core/geo/position.ts, shared with spot documents and
// topic areas; this file words it for a row's cells.
import { LATITUDE_LIMIT, LONGITUDE_LIMIT, swapMakesPosition } from '../../geo/position';
import { l10n } from '../../text/l10n';

export { LATITUDE_LIMIT, LONGITUDE_LIMIT };

/** A problem of the pair and the member it is about (its cell), whatever language the message is in. */
export interface CoordinateProblem {
  member: 'latitude' | 'longitude';
  message: string;
  /** The two swapped would be a position: the fix is to exchange them (or their columns). */
  swapped?: true;
}

/** What is wrong with the pair, [] when nothing is. */
export function checkLatitudeLongitude(latitude: number, longitude: number): string[] {
  return latitudeLongitudeProblems(latitude, longitude).map((problem) => problem.message);
}

/** The same, each problem with the member it is about. */
export function latitudeLongitudeProblems(latitude: number, longitude: number): CoordinateProblem[] {
  const problems: CoordinateProblem[] = [];
  if (!Number.isFinite(latitude)) problems.push({ member: 'latitude', message: l10n.t('latitude {0} is not a finite number.', latitude) });
  if (!Number.isFinite(longitude)) problems.push({ member: 'longitude', message: l10n.t('longitude {0} is not a finite number.', longitude) });
  if (problems.length > 0) return problems;
  if (swapMakesPosition(latitude, longitude))
    return [{ member: 'latitude', message: l10n.t('latitude {0} is out of range; latitude and longitude are probably swapped.', latitude), swapped: true }];
  if (Math.abs(latitude) > LATITUDE_LIMIT)
    problems.push({ member: 'latitude', message: l10n.t('latitude {0} is out of range (-{1} to {1}).', latitude, LATITUDE_LIMIT) });
  if (Math.abs(longitude) > LONGITUDE_LIMIT)
    problems.push({ member: 'longitude', message: l10n.t('longitude {0} is out of range (-{1} to {1}).', longitude, LONGITUDE_LIMIT) });
  return problems;
}
