// A latitude or longitude cell in degrees: a number as parseNumber reads it, or degrees, minutes and
// seconds as people and GPS tools write them ("47°04'16.3\"N", "N 47° 04.271'", "16:22:28",
// "47° 4' 16,3\" N"), decoded by GeographicLib's DMS module. Its rules are strict (minutes and
// seconds under 60, components in order, one hemisphere letter); around them this file allows
// what exports add (spaces beside the marks, a decimal comma) and refuses what would read as
// something else: GeographicLib adds up pieces joined by an internal sign ("47°-16'" is 46.73), and an
// "O" may be east (German Ost) or west (Spanish Oeste, French Ouest).
import { Decode, LATITUDE, LONGITUDE, NONE } from 'geographiclib-dms';
import { l10n } from '../../text/l10n';
import type { CellResult } from './cellResult';
import { COMPUTED_DECIMALS, roundCoordinate } from '../../geo/coordinateDecimals';
import { parseNumber, type DecimalSeparator } from './parseNumber';

export type DegreesAxis = 'latitude' | 'longitude';

// The marks of degrees, minutes and seconds GeographicLib knows (and the colon between them).
const MARKS = '°º˚⁰∘*`\'′‵´‘’‛ʹˊˋ"″‶˝“”‟ʺ:';
// A mark or a letter at either end: what makes a cell that is not a number worth decoding.
const LOOKS_LIKE_DMS = new RegExp(`[${escapeClass(MARKS)}]|\\d\\s*d|^\\s*[NSEWO]\\s*[+\\-\\d]|[\\d.,${escapeClass(MARKS)}]\\s*[NSEWO]\\s*$`, 'i');
// Spaces are allowed only beside a mark or a hemisphere letter: "47 4 16" stays refused.
const SPACE_BESIDE_MARK = new RegExp(`\\s*([${escapeClass(MARKS)}dDNSEWnsew])\\s*`, 'g');

function escapeClass(marks: string): string {
  return marks.replace(/[\\\]^-]/g, '\\$&');
}

/**
 * The degrees a cell of the latitude or longitude column holds. A hemisphere letter must belong to
 * the column's axis: "16°E" in the latitude column is a problem, as the two columns are then
 * probably swapped. The range is checked with the pair (latitudeLongitude.ts), as for numbers.
 */
export function parseDegrees(text: string, axis: DegreesAxis, decimalSeparator: DecimalSeparator): CellResult<number> | { problem: string; swapped: true } {
  const asNumber = parseNumber(text, decimalSeparator);
  if (!('problem' in asNumber)) return asNumber;
  const cell = text.trim();
  if (!LOOKS_LIKE_DMS.test(cell)) return asNumber;
  const compact = cell.replace(SPACE_BESIDE_MARK, '$1');
  if (/^O|O$/i.test(compact)) {
    return { problem: l10n.t('{0}: "O" may be east (Ost) or west (Oeste, Ouest); write E or W.', cell) };
  }
  // GeographicLib reads a decimal point only; in degrees, minutes and seconds a comma can be nothing else.
  if (compact.includes(',') && compact.includes('.')) return notDms(cell);
  const pointed = compact.replace(',', '.');
  // One sign, first, and only without a hemisphere letter ("N-20" would be south).
  const signed = /^[+\-\u2212\u2010-\u2014]/.test(pointed);
  if (/[+\-\u2212\u2010-\u2014]/.test(pointed.slice(1)) || (signed && /[NSEW]/i.test(pointed))) return notDms(cell);
  let decoded: { val: number; ind: number };
  try {
    decoded = Decode(pointed);
  } catch {
    return notDms(cell);
  }
  if (decoded.ind !== NONE && decoded.ind !== (axis === 'latitude' ? LATITUDE : LONGITUDE)) {
    return {
      problem:
        axis === 'latitude'
          ? l10n.t('latitude {0} is east or west, a longitude; latitude and longitude are probably swapped.', cell)
          : l10n.t('longitude {0} is north or south, a latitude; latitude and longitude are probably swapped.', cell),
      swapped: true,
    };
  }
  return Number.isFinite(decoded.val) ? { value: roundCoordinate(decoded.val, COMPUTED_DECIMALS) } : notDms(cell);
}

function notDms(cell: string): { problem: string } {
  return {
    problem: l10n.t(
      "{0} is neither a number nor degrees, minutes and seconds as they are written (47°04'16.3\"N, N 47° 04.271', 47:04:16.3); minutes and seconds are under 60.",
      cell,
    ),
  };
}
