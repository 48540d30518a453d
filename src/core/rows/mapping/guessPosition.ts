// A column of places as latitude and longitude in one cell, for the proposed mapping: a form's
// geopoint question exported as one column (ODK Briefcase, KoBoToolbox's single-column export:
// "47.0707 15.4395 350 5"), or a column a person filled with places copied from a map. Proposed
// only when no pair of columns was found, as a table that has both (KoBo writes `location` and
// `_location_latitude`…) is better read by the pair.
import { l10n } from '../../text/l10n';
import type { SourceRow } from '../read';
import { readPositionCell } from '../values/positionCell';
import { filledCell } from './filledCell';

// Words a column of places is named with (a form's geopoint question, a sheet's column).
// German compounds end with theirs (Fundort, Messpunkt).
const PLACE_WORDS = /(^|[^\p{L}])(location|geopoint|gps|coordinates|coords|position|point|place)([^\p{L}]|$)|(koordinaten|ort|lage|punkt)([^\p{L}]|$)/iu;
// A decimal fraction or a mark of degrees, minutes or seconds: what a place's numbers have and a list of counts does not.
const PRECISE = /\d[.,]\d|[°'′"″]/;
// ODK's geopoint: latitude, longitude, altitude, accuracy.
const GEOPOINT = /^\s*-?\d+\.\d+\s+-?\d+\.\d+\s+-?\d+(\.\d+)?\s+\d+(\.\d+)?\s*(;|$)/;

export interface PositionGuess {
  position: string;
  geometry?: 'centroid';
  notes: string[];
}

/**
 * The first column whose filled cells in the rows looked at are all places in degrees, named as a
 * place is or written as ODK's geopoint; lines and shapes (geotraces, geoshapes) become their centroid.
 */
export function positionColumn(columns: readonly string[], sample: readonly SourceRow[], decimalSeparator: '.' | ','): PositionGuess | undefined {
  for (const column of columns) {
    const cells = sample
      .map((row) => row.values[column])
      .filter(filledCell)
      .map((cell) => String(cell));
    if (cells.length === 0 || !cells.every((cell) => PRECISE.test(cell))) continue;
    if (!PLACE_WORDS.test(column) && !cells.every((cell) => GEOPOINT.test(cell))) continue;
    // A place copied with the other separator among the rest ("48.2048, 16.3577" among decimal
    // commas) does not make the column no places: its row says what to change when it is checked.
    const other = decimalSeparator === '.' ? ',' : '.';
    const read = cells.map((cell) => {
      const place = readPositionCell(cell, true, decimalSeparator);
      return 'geometry' in place ? place : readPositionCell(cell, true, other);
    });
    const geometries = read.flatMap((result) => ('geometry' in result ? [result.geometry] : []));
    if (geometries.length < read.length || !geometries.every(inDegrees)) continue;
    const shapes = [...new Set(geometries.map((geometry) => geometry.type))];
    const points = shapes.every((shape) => shape === 'Point');
    const notes = [l10n.t('position: the column {0}, latitude and longitude in one cell', column)];
    if (!points) notes.push(l10n.t('geometry: centroid, as some cells are {0}, not points', shapes.join(', ')));
    return { position: column, ...(points ? {} : { geometry: 'centroid' as const }), notes };
  }
  return undefined;
}

function inDegrees(geometry: { coordinates: unknown }): boolean {
  const numbers = [geometry.coordinates].flat(3) as number[];
  for (let index = 0; index < numbers.length; index += 2) {
    if (Math.abs(numbers[index]) > 180 || Math.abs(numbers[index + 1]) > 90) return false;
  }
  return true;
}
