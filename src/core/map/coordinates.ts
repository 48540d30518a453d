// Pick Location writes a latitude and longitude into a spot document: rounded to the precision
// setting, as one edit made with the same text edits the write-back of state uses (textEdits.ts),
// so formatting, member order and everything else stay as they were.
import { findNodeAtLocation, parseTree, type ParseError } from 'jsonc-parser';
import { withoutByteOrderMark } from '../documents/parseSpotText';
import { modifyKeepingStyle, singleEdit, type SpotTextEdit } from '../documents/textEdits';
import { l10n } from '../text/l10n';

/** The default of spotImport.map.precision: 6 decimals is about 10 cm, finer than a phone's GPS. */
export const DEFAULT_PRECISION = 6;
export const MAX_PRECISION = 10;

/** value rounded to `decimals` places (0..MAX_PRECISION), without the binary noise of value * 10^n / 10^n (no 48.20820000000001). */
export function roundCoordinate(value: number, decimals: number): number {
  const places = Math.max(0, Math.min(MAX_PRECISION, Math.trunc(decimals)));
  return Number(value.toFixed(places));
}

/** A clicked point as a valid coordinate: latitude clamped to ±90, longitude wrapped into -180..180 (the map repeats the world sideways). */
export function normaliseLocation(latitude: number, longitude: number, decimals: number): { latitude: number; longitude: number } {
  const lat = Math.max(-90, Math.min(90, latitude));
  let lon = ((((longitude + 180) % 360) + 360) % 360) - 180;
  if (lon === -180 && longitude > 0) lon = 180;
  return { latitude: roundCoordinate(lat, decimals), longitude: roundCoordinate(lon, decimals) };
}

export type LocationEditResult = { ok: true; edits: SpotTextEdit[]; latitude: number; longitude: number } | { ok: false; reason: string };

/** The one edit that sets data.attributes.latitude and .longitude of a spot document (added when missing). */
export function setLocationEdits(input: string, latitude: number, longitude: number, decimals: number = DEFAULT_PRECISION): LocationEditResult {
  const text = withoutByteOrderMark(input);
  const mark = input.length - text.length;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: false, allowTrailingComma: true });
  if (!root || errors.length > 0) return { ok: false, reason: l10n.t('The document is not valid JSON.') };
  if (findNodeAtLocation(root, ['data', 'type'])?.value !== 'spots')
    return { ok: false, reason: l10n.t('The document is not a spot document: data.type is not "spots".') };
  if (findNodeAtLocation(root, ['data', 'attributes'])?.type !== 'object')
    return { ok: false, reason: l10n.t('The spot document has no data.attributes object.') };
  const location = normaliseLocation(latitude, longitude, decimals);
  let next = modifyKeepingStyle(text, ['data', 'attributes', 'latitude'], location.latitude);
  next = modifyKeepingStyle(next, ['data', 'attributes', 'longitude'], location.longitude);
  if (next === text) return { ok: true, edits: [], ...location };
  const edit = singleEdit(text, next);
  return { ok: true, edits: [{ ...edit, offset: edit.offset + mark }], ...location };
}
