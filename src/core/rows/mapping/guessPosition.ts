// A column of places as latitude and longitude in one cell, for the proposed mapping: a form's
// geopoint question exported as one column (ODK Briefcase, KoBoToolbox's single-column export:
// "47.0707 15.4395 350 5"), or a column a person filled with places copied from a map. Proposed
// only when no pair of columns was found, as a table that has both (KoBo writes `location` and
// `_location_latitude`…) is better read by the pair.
import { isPosition, judgeArea, type Bbox } from '../../geo/position';
import { l10n } from '../../text/l10n';
import type { SourceRow } from '../read';
import { readPositionCell } from '../values/positionCell';
import type { PositionOrder } from '../values/positionOrders';
import { filledCell } from './filledCell';

// Words a column of places is named with (a form's geopoint question, a sheet's column).
// German compounds end with theirs (Fundort, Messpunkt).
const PLACE_WORDS = /(^|[^\p{L}])(location|geopoint|gps|coordinates|coords|position|point|place)([^\p{L}]|$)|(koordinaten|ort|lage|punkt)([^\p{L}]|$)/iu;
// A decimal fraction or a mark of degrees, minutes or seconds: what a place's numbers have and a list of counts does not.
const PRECISE = /\d[.,]\d|[°'′"″]/;
// ODK's geopoint: latitude, longitude, altitude, accuracy.
const GEOPOINT = /^\s*-?\d+\.\d+\s+-?\d+\.\d+\s+-?\d+(\.\d+)?\s+\d+(\.\d+)?\s*(;|$)/;

export interface PositionGuess {
  position: string | { column: string; order: PositionOrder };
  geometry?: 'centroid';
  notes: string[];
}

/**
 * The first column whose filled cells in the rows looked at are all places in degrees, named as a
 * place is or written as ODK's geopoint; lines and shapes (geotraces, geoshapes) become their centroid.
 * Read longitude first when only that order makes every cell a place, or when both do and only that
 * order puts every one in the topic's `area`.
 */
export function positionColumn(columns: readonly string[], sample: readonly SourceRow[], decimalSeparator: '.' | ',', area?: Bbox): PositionGuess | undefined {
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
    if (geometries.length < read.length) continue;
    // [first number, second number] of each place, as the cells write them.
    const pairs = geometries.flatMap((geometry) => pairsOf([geometry.coordinates].flat(3) as number[]));
    const order = cellOrder(pairs, area);
    if (!order) continue;
    const shapes = [...new Set(geometries.map((geometry) => geometry.type))];
    const points = shapes.every((shape) => shape === 'Point');
    const notes = [
      order.order === 'latitude-longitude'
        ? l10n.t('position: the column {0}, latitude and longitude in one cell', column)
        : order.byArea
          ? l10n.t("position: the column {0}, longitude first and then the latitude, as only so every place is in the topic's area", column)
          : l10n.t('position: the column {0}, longitude first and then the latitude, as a first number beyond ±90 is no latitude', column),
    ];
    if (!points) notes.push(l10n.t('geometry: centroid, as some cells are {0}, not points', shapes.join(', ')));
    const position = order.order === 'latitude-longitude' ? column : { column, order: order.order };
    return { position, ...(points ? {} : { geometry: 'centroid' as const }), notes };
  }
  return undefined;
}

/** GeoJSON's [x, y] of a cell read latitude first, as [first number, second number] of the cell. */
function pairsOf(numbers: number[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let index = 0; index + 1 < numbers.length; index += 2) pairs.push([numbers[index + 1], numbers[index]]);
  return pairs;
}

/** The order in which every place is one in degrees (and, when both are, in the area); undefined when none is. */
function cellOrder(pairs: ReadonlyArray<[number, number]>, area: Bbox | undefined): { order: PositionOrder; byArea?: true } | undefined {
  const latitudeFirst = pairs.every(([first, second]) => isPosition(first, second));
  const longitudeFirst = pairs.every(([first, second]) => isPosition(second, first));
  if (latitudeFirst && !longitudeFirst) return { order: 'latitude-longitude' };
  if (longitudeFirst && !latitudeFirst) return { order: 'longitude-latitude' };
  if (!latitudeFirst) return undefined;
  const swappedInside = area !== undefined && pairs.every(([first, second]) => judgeArea(area, first, second) === 'swappedInside');
  return swappedInside ? { order: 'longitude-latitude', byArea: true } : { order: 'latitude-longitude' };
}
