// A row's place written in one cell as latitude and longitude, as form tools and people write it:
// ODK and KoBoToolbox a geopoint "47.0707 15.4395 350 5" (altitude and accuracy after the two, in
// ODK Briefcase's and KoBo's single-column exports), a geotrace or geoshape as such points joined
// by ";", a map's copied place "48.2048, 16.3577" or "48°12'17.3"N 16°21'28.1"E". Each half is read
// as a latitude or longitude column's cell is (parseDegrees, parseNumber), so the rules are one.
import { l10n } from '../../text/l10n';
import { isEmptyCell } from './cellResult';
import { parseDegrees } from './parseDegrees';
import type { PositionOrder } from './positionOrders';
import { DECIMAL_SEPARATOR_SETTING, parseNumber, type DecimalSeparator } from './parseNumber';

interface PositionGeometry {
  type: 'Point' | 'LineString' | 'Polygon';
  /** GeoJSON's order, x (the longitude) first, so the mapping's `geometry` rule takes it as a feature's. */
  coordinates: [number, number] | Array<[number, number]> | Array<Array<[number, number]>>;
}

// A half that ends with its hemisphere letter, then the other half ("48°12'17.3"N 16°21'28.1"E").
const LETTER_AFTER = /^(.*?\d[^NSEW]*?[NSEW])(?:\s*[,;]\s*|\s+)(\S.*)$/i;
// A half that starts with its hemisphere letter ("N 48.2048 E 16.3577").
const LETTER_BEFORE = /^([NSEW]\s*[^NSEW]*?\d[^NSEW]*?)(?:\s*[,;]\s*|\s+)([NSEW].*)$/i;
// Altitude and accuracy at most after the two (ODK's four numbers).
const MAX_NUMBERS = 4;
// Longer than any point written in degrees, minutes and seconds with altitude and accuracy: the
// hemisphere-letter patterns take time growing with a point's length squared, and a pasted dump
// without ";" would hold the row for seconds.
const MAX_POINT_CHARS = 200;

/** `swapped`: hemisphere letters of the other axis, so the cell is read the wrong way round. */
type PositionRead = { geometry: PositionGeometry } | { problem: string; swapped?: true };

/**
 * The place a cell of the mapping's `position` column holds, latitude first (in a grid: northing
 * first) unless `order` says the longitude (easting) comes first, in the mapping's crs; `degrees`
 * reads minutes, seconds and hemisphere letters too. A cell
 * that reads as a place only with the other decimal separator says so, rather than what its
 * pieces are not.
 */
export function readPositionCell(
  text: string,
  degrees: boolean,
  decimalSeparator: DecimalSeparator,
  order: PositionOrder = 'latitude-longitude',
): PositionRead {
  const read = readWith(text, degrees, decimalSeparator, order);
  if ('geometry' in read) return read;
  const other = readWith(text, degrees, decimalSeparator === '.' ? ',' : '.', order);
  if (!('geometry' in other)) return read;
  // Decimal points in a file of decimal commas can mean nothing else: a form's geopoint keeps them
  // when Excel in German saves the table again (the cell is text to it), a place copied from a map
  // has them. Decimal commas in a file of decimal points are said: "47,07, 15,43" has other readings.
  return decimalSeparator === ',' ? other : { problem: writesDecimalCommas(text) };
}

function readWith(text: string, degrees: boolean, decimalSeparator: DecimalSeparator, order: PositionOrder): PositionRead {
  const parts = text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.some((part) => part.length > MAX_POINT_CHARS)) return { problem: notAPosition(text, order) };
  // "48.2048; 16.3577" is one place whose halves a ";" parts, not two places of one number each.
  const split =
    parts.length === 2 && parts.every((part) => splitPoint(part, decimalSeparator) === undefined)
      ? [parts]
      : parts.map((part) => splitPoint(part, decimalSeparator));
  const points: Array<[number, number]> = [];
  for (const halves of split) {
    // Words are no place at all ("beim Teich"): said of the cell, not of a "latitude" in it.
    if (!halves || !halves.every((half) => /\d/.test(half))) return { problem: notAPosition(text, order) };
    const [first, second, ...rest] = halves;
    if (rest.some((extra) => !('value' in parseNumber(extra, decimalSeparator)))) return { problem: notAPosition(text, order) };
    const [latitudeText, longitudeText] = order === 'longitude-latitude' ? [second, first] : [first, second];
    const latitude = readHalf(latitudeText, 'latitude', degrees, decimalSeparator, order);
    if ('problem' in latitude) return latitude;
    const longitude = readHalf(longitudeText, 'longitude', degrees, decimalSeparator, order);
    if ('problem' in longitude) return longitude;
    points.push([longitude.value, latitude.value]);
  }
  if (points.length === 0) return { problem: notAPosition(text, order) };
  if (points.length === 1) return { geometry: { type: 'Point', coordinates: points[0] } };
  const [first, last] = [points[0], points[points.length - 1]];
  // ODK's geoshape closes its ring by repeating the first point; a geotrace is a line.
  const ring = points.length >= 4 && first[0] === last[0] && first[1] === last[1];
  return { geometry: ring ? { type: 'Polygon', coordinates: [points] } : { type: 'LineString', coordinates: points } };
}

/**
 * A point's latitude, longitude and any altitude and accuracy, or undefined when the text is not one.
 * With decimal points a comma parts the two halves only when it is the one comma ("48.2048,16.3577"):
 * "47,07, 15,43" would be four numbers of a place that is not the cell's. With decimal commas a comma
 * parts numbers only with a blank after it ("48,2048, 16,3577"), as no decimal comma has one.
 */
function splitPoint(point: string, decimalSeparator: DecimalSeparator): string[] | undefined {
  const lettered = LETTER_BEFORE.exec(point) ?? LETTER_AFTER.exec(point);
  if (lettered) return [lettered[1], lettered[2]];
  const commas = point.split(',').length - 1;
  const numbers =
    decimalSeparator === ','
      ? point.split(/,?\s+/)
      : commas === 1 && !DECIMAL_COMMA_NUMBER.test(point)
        ? point.split(',').map((half) => half.trim())
        : point.split(/\s+/);
  return numbers.length >= 2 && numbers.length <= MAX_NUMBERS && numbers.every((half) => half !== '') ? numbers : undefined;
}

// One number written with a decimal comma ("47,07"): a latitude alone, not 47 and 7.
const DECIMAL_COMMA_NUMBER = /^[+-]?\d+,\d+$/;

/** A cell that is a place only when read with decimal commas, in a file of decimal points. */
function writesDecimalCommas(text: string): string {
  return l10n.t(
    '{0} writes decimal commas, and the mapping reads decimal points ({1} is "."): write the cell with decimal points, or set {1} to "," if the file writes decimal commas.',
    shownCell(text),
    DECIMAL_SEPARATOR_SETTING,
  );
}

function readHalf(
  text: string,
  axis: 'latitude' | 'longitude',
  degrees: boolean,
  decimalSeparator: DecimalSeparator,
  order: PositionOrder,
): { value: number } | { problem: string; swapped?: true } {
  if (isEmptyCell(text)) return { problem: notAPosition(text, order) };
  const read = degrees ? parseDegrees(text, axis, decimalSeparator) : parseNumber(text, decimalSeparator);
  if ('empty' in read) return { problem: notAPosition(text, order) };
  if ('value' in read) return { value: read.value };
  return { problem: `${axis}: ${read.problem}`, ...('swapped' in read && read.swapped ? { swapped: true as const } : {}) };
}

/** The cell quoted, cut to a line's part: a message names it, not a pasted page. */
export function shownCell(text: string): string {
  const cell = text.trim();
  return JSON.stringify(cell.length > 60 ? `${cell.slice(0, 57)}…` : cell);
}

function notAPosition(text: string, order: PositionOrder): string {
  const shown = shownCell(text);
  return order === 'longitude-latitude'
    ? l10n.t(
        '{0} is not a place: write the longitude and then the latitude in the cell, as the mapping\'s position "order" says, e.g. "16.3577 48.2048" or "16.3577, 48.2048".',
        shown,
      )
    : l10n.t(
        '{0} is not a place: write the latitude and then the longitude in the cell, e.g. "48.2048 16.3577" (as ODK and KoBoToolbox write a geopoint, altitude and accuracy may follow) or "48.2048, 16.3577".',
        shown,
      );
}
