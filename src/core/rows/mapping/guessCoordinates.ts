// Where a table's rows are, for the proposed mapping: a GeoJSON layer's Point geometry when its
// features have one (before any property that merely looks like a coordinate: a layer may carry
// degrees in its geometry and a projected X/Y in its properties), else a pair of columns that are
// the latitude and longitude of one place. Form tools write a geopoint `point` each their own way:
// KoBoToolbox `_point_latitude`/`_point_longitude`, ODK Central `point-Latitude`/`point-Longitude`
// (`grp-point-Latitude` in a group), Epicollect5 `lat_3_point`/`long_3_point`, Survey123 `x`/`y`;
// all are one word for the axis joined to a name shared by the two, which is how they are paired.
import { l10n } from '../../text/l10n';
import type { SourceRow } from '../read';
import { filledCell } from './filledCell';
import type { GeometryRule } from './mappingSchema';
import type { ExportTool } from './exportTool';
import { guessGridCrs } from './guessCrs';
import { positionColumn, type PositionGuess } from './guessPosition';
import type { Bbox } from '../../geo/position';

export interface CoordinatesGuess {
  latitude?: string;
  longitude?: string;
  /** A column of places as Well-Known Text (a city's SHAPE column), when no pair of columns was found. */
  wkt?: string;
  /** A column of places as latitude and longitude in one cell (a form's geopoint), when no pair of columns was found; with its order when the longitude comes first. */
  position?: PositionGuess['position'];
  /** The crs the WKT cells name (EWKT's SRID=…), or the one the export's tool writes metres in (guessCrs.ts). */
  crs?: `EPSG:${number}`;
  /** GeoJSON: how features that are not points become one (left out when every feature looked at is a point). */
  geometry?: GeometryRule;
  notes: string[];
}

type Axis = 'latitude' | 'longitude';

/** Words for an axis in degrees, as headers spell them (English, German, abbreviated). */
const DEGREE_WORDS: Record<string, Axis> = {
  latitude: 'latitude',
  lat: 'latitude',
  breite: 'latitude',
  breitengrad: 'latitude',
  longitude: 'longitude',
  lon: 'longitude',
  lng: 'longitude',
  long: 'longitude',
  länge: 'longitude',
  laenge: 'longitude',
  längengrad: 'longitude',
  laengengrad: 'longitude',
};

/** Words for an axis of a grid (or Survey123's degrees, written x and y). */
const GRID_WORDS: Record<string, Axis> = {
  y: 'latitude',
  northing: 'latitude',
  hochwert: 'latitude',
  x: 'longitude',
  easting: 'longitude',
  rechtswert: 'longitude',
};

interface CoordinateColumn {
  column: string;
  axis: Axis;
  /** The name the two columns of one place share ("_point", "location", "3_location", "" for a bare "lat"). */
  place: string;
  grid: boolean;
  index: number;
}

interface Pair {
  latitude: CoordinateColumn;
  longitude: CoordinateColumn;
  /** Some row looked at has both cells filled. */
  filled: boolean;
}

/** `tool`: the tool that wrote the table, which may say what system its metres are in; `area`: the topic's, which may say the order of a position column. */
export function guessCoordinates(
  columns: readonly string[],
  sample: readonly SourceRow[],
  tool?: ExportTool,
  decimalSeparator: '.' | ',' = '.',
  area?: Bbox,
): CoordinatesGuess {
  const candidates = columns.map(coordinateColumn).filter((found): found is CoordinateColumn => found !== undefined);
  const pairs = pairUp(candidates, sample);
  const geometries = sample.flatMap((row) => (row.geometry ? [row.geometry] : []));
  if (geometries.length > 0) return fromGeometry(geometries, pairs, candidates);
  if (pairs.length === 0) {
    const wkt = wktColumn(columns, sample, tool);
    if (wkt) return wkt;
    const position = positionColumn(columns, sample, decimalSeparator, area);
    if (position) return position;
    const alone = candidates.map((candidate) => candidate.column);
    return {
      notes: [
        alone.length > 0
          ? l10n.t('latitude, longitude: no two columns look like the coordinates of one place ({0} alone): name them', alone.join(', '))
          : l10n.t(
              'latitude, longitude: no column looks like them: name them, or name the one column that holds both as "position" (latitude and longitude in one cell, "48.2048 16.3577") or as "wkt" (Well-Known Text, "POINT (16.3577 48.2048)")',
            ),
      ],
    };
  }
  const [chosen, ...others] = pairs;
  const notes = [
    others.length === 0
      ? l10n.t('latitude, longitude: the columns {0} and {1}', chosen.latitude.column, chosen.longitude.column)
      : l10n.t(
          'latitude, longitude: the columns {0} and {1}, the first of several places; the others: {2}',
          chosen.latitude.column,
          chosen.longitude.column,
          others.map(pairWords).join('; '),
        ),
  ];
  if (!chosen.filled && sample.length > 0)
    notes.push(
      l10n.t(
        'latitude, longitude: {0} and {1} are empty in every row looked at: check they are the columns meant',
        chosen.latitude.column,
        chosen.longitude.column,
      ),
    );
  const projected = projectedPositions(sample, chosen);
  const grid = projected ? guessGridCrs(projected, tool) : undefined;
  if (grid) notes.push(grid.note);
  return { latitude: chosen.latitude.column, longitude: chosen.longitude.column, ...(grid?.crs ? { crs: grid.crs } : {}), notes };
}

/** A GeoJSON layer (or NDJSON of features): the geometry, and how a feature that is not a point becomes one. */
function fromGeometry(
  geometries: ReadonlyArray<NonNullable<SourceRow['geometry']>>,
  pairs: readonly Pair[],
  candidates: readonly CoordinateColumn[],
): CoordinatesGuess {
  const notes: string[] = [];
  const lookAlikes = pairs.length > 0 ? pairs.map(pairWords).join('; ') : candidates.map((candidate) => candidate.column).join(', ');
  notes.push(
    lookAlikes
      ? l10n.t("latitude, longitude: each feature's Point geometry, not the properties {0}, which only look like coordinates", lookAlikes)
      : l10n.t("latitude, longitude: each feature's Point geometry"),
  );
  const shapes = [...new Set(geometries.filter((geometry) => !isPoint(geometry)).map((geometry) => geometry.type))];
  if (shapes.length === 0) return { notes };
  notes.push(
    l10n.t(
      'geometry: centroid, as some features are {0}, not points: each becomes its centroid ("first-point" takes its first position, "point-only" refuses it)',
      shapes.join(', '),
    ),
  );
  return { geometry: 'centroid', notes };
}

/** A Point, or a MultiPoint of one point (what QGIS and shapefile conversions write for a point layer). */
function isPoint(geometry: NonNullable<SourceRow['geometry']>): boolean {
  return geometry.type === 'Point' || (geometry.type === 'MultiPoint' && Array.isArray(geometry.coordinates) && geometry.coordinates.length === 1);
}

/**
 * A header as an axis of a place: the axis' word alone ("lat", "Y"), after the place's name
 * ("_point_latitude", "location-Latitude", "decimalLatitude", "POINT_X") or before it
 * ("lat_3_location"). Degrees or a datum in brackets at the end ("Breite (WGS84)", "lat [°]", "Latitude (DMS)")
 * are not part of it; other units are: "Breite (m)" and "Länge (m)" are a width and a length.
 */
function coordinateColumn(column: string, index: number): CoordinateColumn | undefined {
  const name = column
    .normalize('NFC')
    .trim()
    .replace(/\s*[([][^()[\]]*(?:°|deg|grad|wgs|etrs|epsg|decimal|dezimal|dms|gms)[^()[\]]*[)\]]$/i, '');
  const lower = name.toLowerCase();
  const word = (text: string): { axis: Axis; grid: boolean } | undefined => {
    if (Object.hasOwn(DEGREE_WORDS, text)) return { axis: DEGREE_WORDS[text], grid: false };
    if (Object.hasOwn(GRID_WORDS, text)) return { axis: GRID_WORDS[text], grid: true };
    return undefined;
  };
  const found = (axis: { axis: Axis; grid: boolean } | undefined, place: string) => (axis ? { column, ...axis, place, index } : undefined);
  const whole = word(lower);
  if (whole) return found(whole, '');
  const after = /^(.+?)[\s_.:/-]+(\p{L}+)$/u.exec(lower);
  const camel = /^(.*[a-z0-9])([A-Z][a-z]*)$/.exec(name);
  const before = /^(\p{L}+)[\s_.:/-]+([\p{L}\d][\p{L}\d_.:/-]*)$/u.exec(lower);
  return (
    (after && found(word(after[2]), after[1])) ||
    (camel && found(word(camel[2].toLowerCase()), camel[1].toLowerCase())) ||
    (before && found(word(before[1]), before[2])) ||
    undefined
  );
}

/**
 * The latitude and longitude of each place, best first: places with coordinates in the rows looked
 * at before empty ones (iNaturalist's private_latitude is empty unless the observer is the one
 * downloading), degrees before grids, then in the order of the columns (a form's first geopoint).
 */
function pairUp(candidates: readonly CoordinateColumn[], sample: readonly SourceRow[]): Pair[] {
  const places = new Map<string, { latitude?: CoordinateColumn; longitude?: CoordinateColumn }>();
  for (const candidate of candidates) {
    const key = `${candidate.grid ? 'grid' : 'degrees'}\u0000${candidate.place}`;
    const place = places.get(key) ?? {};
    place[candidate.axis] ??= candidate;
    places.set(key, place);
  }
  const pairs: Pair[] = [];
  for (const { latitude, longitude } of places.values()) {
    if (!latitude || !longitude) continue;
    pairs.push({ latitude, longitude, filled: sample.some((row) => filledCell(row.values[latitude.column]) && filledCell(row.values[longitude.column])) });
  }
  const first = (pair: Pair) => Math.min(pair.latitude.index, pair.longitude.index);
  return pairs.sort((a, b) => Number(b.filled) - Number(a.filled) || Number(a.latitude.grid) - Number(b.latitude.grid) || first(a) - first(b));
}

function pairWords(pair: Pair): string {
  return pair.filled
    ? l10n.t({
        message: '{0} and {1}',
        args: [pair.latitude.column, pair.longitude.column],
        comment: ['The latitude and longitude columns of one place, e.g. "lat and lon"'],
      })
    : l10n.t('{0} and {1} (empty in the rows looked at)', pair.latitude.column, pair.longitude.column);
}

/**
 * The rows' x and y when they are beyond what degrees can be (|latitude| > 90 or |longitude| > 180)
 * in every row that has them: metres of a grid. One such row among degrees is a typing error,
 * which validate reports.
 */
function projectedPositions(sample: readonly SourceRow[], pair: Pair): Array<{ x: number; y: number }> | undefined {
  const number = (value: unknown) => (typeof value === 'number' ? value : Number(String(value).trim().replace(',', '.')));
  const positions = sample
    .filter((row) => filledCell(row.values[pair.latitude.column]) && filledCell(row.values[pair.longitude.column]))
    .map((row) => ({ x: number(row.values[pair.longitude.column]), y: number(row.values[pair.latitude.column]) }));
  return positions.length > 0 && positions.every(beyondDegrees) ? positions : undefined;
}

/** A position degrees cannot be. */
function beyondDegrees({ x, y }: { x: number; y: number }): boolean {
  return Math.abs(x) > 180 || Math.abs(y) > 90;
}

// A cell of WKT as exports write it: EWKT's SRID first, then a geometry's name and its parentheses.
const WKT_CELL = /^\s*(?:SRID=(\d+)\s*;\s*)?(POINT|MULTIPOINT|LINESTRING|MULTILINESTRING|POLYGON|MULTIPOLYGON)(?:\s+(?:Z|M|ZM))?\s*\(/i;

/**
 * The first column whose filled cells in the rows looked at are all WKT geometries (Vienna's tree
 * register: SHAPE "POINT (16.3577 48.2048)"): the place as one cell. The crs comes from an SRID the
 * cells agree on; lines and polygons become their centroid.
 */
function wktColumn(columns: readonly string[], sample: readonly SourceRow[], tool: ExportTool | undefined): CoordinatesGuess | undefined {
  for (const column of columns) {
    const cells = sample.map((row) => row.values[column]).filter(filledCell);
    const matches = cells.map((cell) => WKT_CELL.exec(String(cell)));
    if (cells.length === 0 || matches.some((match) => match === null)) continue;
    const srids = new Set(matches.map((match) => match![1]));
    const srid = srids.size === 1 ? [...srids][0] : undefined;
    const shapes = new Set(matches.map((match) => match![2].toUpperCase()));
    const points = [...shapes].every((shape) => shape === 'POINT');
    const notes = [l10n.t('wkt: the column {0}, each place as Well-Known Text', column)];
    const positions = cells.map((cell) => firstPosition(String(cell))).filter((position) => position !== undefined);
    const grid = !srid && positions.length === cells.length && positions.every(beyondDegrees) ? guessGridCrs(positions, tool) : undefined;
    if (srid && srid !== '4326') notes.push(l10n.t('crs: EPSG:{0}, as the cells say (SRID={0})', srid));
    else if (grid) notes.push(grid.note);
    if (!points) notes.push(l10n.t('geometry: centroid, as some cells are {0}, not points', [...shapes].join(', ')));
    const crs = srid && srid !== '4326' ? (`EPSG:${Number(srid)}` as const) : grid?.crs;
    return {
      wkt: column,
      ...(crs ? { crs } : {}),
      ...(points ? {} : { geometry: 'centroid' as const }),
      notes,
    };
  }
  return undefined;
}

/** A WKT cell's first position. */
function firstPosition(cell: string): { x: number; y: number } | undefined {
  const first = /\(\s*\(*\s*([-+]?[\d.]+(?:e[-+]?\d+)?)\s+([-+]?[\d.]+(?:e[-+]?\d+)?)/i.exec(cell);
  return first === null ? undefined : { x: Number(first[1]), y: Number(first[2]) };
}
