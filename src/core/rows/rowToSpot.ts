// One row of a table as the spot document it stands for: the text that is sent (the engine checks
// it as any spot document), the photos its cells name (in cell order: the gallery's order), the
// problems found while reading its cells (a coordinate that is not a number, a local time that
// does not exist, a label that is not a category), and where each attribute came from, so every
// problem, the engine's too, is shown at the cell it is about.
import { basename, posix, resolve } from 'node:path';
import type { MediaFileEntry, MediaLayout } from '../media/mediaLayout';
import type { PackedFile } from '../files/packedFile';
import type { SpotProblem } from '../media/checkSpotMedia';
import { checkMediaFile } from '../media/mediaFileRules';
import { obscuredPositionWarning } from './values/obscuredPosition';
import { fromPointer, toPointer } from '../documents/problems';
import { l10n } from '../text/l10n';
import { SPOT_RULES } from '../api/spotRules';
import type { ResolvedField, ResolvedMapping, ResolvedMedia } from './mapping/resolveMapping';
import { isWebAddress } from './mapping/webAddress';
import { photoMissingMessage } from './mapping/attachmentsOnServer';
import { addressFileName, addressLabel, isFetchable, shownAddress } from '../media/remote/photoAddress';
import { FEATURE_ID } from './mapping/mappingSchema';
import type { CellPosition, SourceRow, TableArchive } from './read';
import {
  categoryKeyOfCell,
  categoryKeysOfCell,
  convertDateTime,
  latitudeLongitudeProblems,
  parseDegrees,
  parseNumber,
  toWgs84,
  type CellResult,
} from './values';
import { geometryPoint } from './values/geometryPoint';
import { roundCoordinate, TRANSFORMED_DECIMALS } from '../geo/coordinateDecimals';
import { readPositionCell } from './values/positionCell';
import { positionSwappedMessage } from './mapping/positionOrder';
import { readWktCell } from './values/wktCell';
import { resolveTimeZone } from './values/timeZone';

export const ROW_RULES = {
  /** A cell that cannot be read as its field's type (a number, a date, a boolean). */
  value: 'row.value',
  /** A coordinate that is not a number, out of range, or cannot be transformed (one that swapping would fix: SPOT_RULES.swappedCoordinates). */
  coordinates: 'row.coordinates',
  /** A category label the topic does not have. */
  category: 'row.category',
  /** A source_id that comes out empty. */
  sourceId: 'row.sourceId',
  /** A photo a cell names that is not in the media folder (or not fit for a gallery). */
  media: 'row.media',
  /** A warning: the file ends in a cell the row uses without a line break, so the value may be cut short. */
  cutShort: 'row.cutShort',
} as const;

/** A problem of a row, at its cell. */
export interface RowProblem extends SpotProblem {
  at: CellPosition;
}

export interface RowSpot {
  row: number;
  line: number;
  sourceId?: string;
  /** The document the row stands for (always made: its problems say what is wrong with it). */
  text: string;
  media?: MediaLayout;
  /** Problems found in the cells (errors refuse the row; warnings go along). */
  problems: RowProblem[];
  /** Where each attribute's value came from: its pointer (/data/attributes/<name>) → cell. */
  cells: Map<string, CellPosition>;
  /** The cell that named each photo (its path). */
  files: Map<string, CellPosition>;
}

export interface RowToSpotOptions {
  /**
   * false: a run without media (--no-media). The photos are not looked at; a gallery field whose
   * cells name some is still sent as null, pending (its gallery is made and listed, to upload into
   * later), so the spot is sent in state 2 unless the mapping says its state: what a document
   * with a pending gallery has to say itself, said here for the row.
   */
  media?: boolean;
}

export async function rowToSpot(row: SourceRow, mapping: ResolvedMapping, options: RowToSpotOptions = {}): Promise<RowSpot> {
  const attributes: Record<string, unknown> = {};
  const cells = new Map<string, CellPosition>();
  const files = new Map<string, CellPosition>();
  const problems: RowProblem[] = [];
  const start: CellPosition = { line: row.line, column: 1 };
  const cellOf = (column: string | undefined) => (column !== undefined ? row.cells[column] : undefined) ?? start;
  const problem: Report = (member, message, rule, at, severity = 'error', leftOut) =>
    problems.push({
      pointer: attributePointer(member),
      message,
      offset: 0,
      length: 0,
      severity,
      rule,
      at,
      ...(leftOut ? { leftOut: leftOut.map(attributePointer) } : {}),
    });
  // `at` undefined: a value the mapping gives (a topic_id, a state), from no cell.
  const put = (member: string, value: unknown, at: CellPosition | undefined) => {
    attributes[member] = value;
    if (at) cells.set(attributePointer(member), at);
  };

  // topic_id
  if ('id' in mapping.topic) put('topic_id', mapping.topic.id, undefined);
  else readInteger(row, mapping.topic.column, 'topic_id', mapping, put, problem, cellOf);

  // source_id: the template with each column's value.
  let empty: string | undefined;
  const parts = templateParts(mapping);
  let sourceId = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const value = cellText(parts[i] === FEATURE_ID ? row.id?.value : row.values[parts[i]]);
    if (value === '') empty ??= parts[i];
    sourceId += value + parts[i + 1];
  }
  if (empty === FEATURE_ID)
    problem(
      'source_id',
      l10n.t('source_id is empty: this feature has no id member, which its template {0} names.', mapping.sourceId),
      ROW_RULES.sourceId,
      start,
    );
  else if (empty !== undefined)
    problem(
      'source_id',
      l10n.t('source_id is empty: the column "{0}" of its template {1} has no value in this row.', empty, mapping.sourceId),
      ROW_RULES.sourceId,
      cellOf(empty),
    );
  // {$id}: the feature's own id member, placed where it is.
  else put('source_id', sourceId, parts[1] === FEATURE_ID ? (row.id?.position ?? start) : cellOf(parts[1]));

  readCoordinates(row, mapping, put, problem, cellOf);

  if (mapping.state !== undefined) {
    if (typeof mapping.state === 'number') put('state', mapping.state, undefined);
    else readInteger(row, mapping.state.column, 'state', mapping, put, problem, cellOf);
  }
  if (mapping.privacyType !== undefined) {
    if (typeof mapping.privacyType === 'number') put('privacy_type', mapping.privacyType, undefined);
    else readInteger(row, mapping.privacyType.column, 'privacy_type', mapping, put, problem, cellOf);
  }

  for (const field of mapping.fields) readField(row, field, mapping, put, problem, cellOf, cells);

  // Photos: the files its cells name, in cell order; a gallery field with none is left out.
  const groups: MediaLayout['groups'] = [];
  let pending = false;
  for (const media of mapping.media) {
    const entries: MediaLayout['groups'][number]['files'] = [];
    let named = false;
    for (const column of media.columns) {
      for (const name of cellText(row.values[column])
        .split(media.separator)
        .map((part) => part.trim())
        .filter(Boolean)) {
        const at = cellOf(column);
        const report = (message: string) => problem(media.field, message, ROW_RULES.media, at);
        if (options.media === false) {
          files.set(resolve(media.folder, name), at);
          named = true;
          continue;
        }
        if (isWebAddress(name)) {
          // Fetched by the import's check (CheckOptions.fetchPhoto), not while the row is read.
          // Named without its query (addressLabel): progress, messages and the journal show that.
          const refused = webAddressProblem(name);
          const label = addressLabel(name);
          files.set(label, at);
          if (refused) report(refused);
          else entries.push({ name: addressFileName(name), path: label, relativePath: label, remote: { url: name } });
          continue;
        }
        const entry = media.archive ? await archivePhoto(media, media.archive, name, row, report) : await folderPhoto(media, name, row, report);
        if (entry) {
          files.set(entry.path, at);
          entries.push(entry);
          // A file not found on disk is still the cell's: the editor's hover names it.
        } else if (!media.archive) files.set(resolve(media.folder, name), at);
      }
    }
    if (named) {
      pending = true;
      put(media.field, null, cellOf(media.columns[0]));
      continue;
    }
    if (entries.length === 0) continue;
    put(media.field, null, cellOf(media.columns[0]));
    groups.push({ folder: media.field, files: entries, ...(media.archive ? {} : { within: media.folder }) });
  }
  if (pending && attributes.state === undefined) put('state', 2, undefined);
  if (row.endsUnterminatedIn !== undefined) warnIfCut(row, row.endsUnterminatedIn, cells, problem);

  const text = JSON.stringify({ data: { type: 'spots', attributes } }, null, 2) + '\n';
  const layout: MediaLayout | undefined = groups.length > 0 ? { folder: mapping.media[0].folder, exists: true, groups, nestedFolders: [] } : undefined;
  return { row: row.row, line: row.line, ...(empty === undefined ? { sourceId } : {}), text, ...(layout ? { media: layout } : {}), problems, cells, files };
}

/**
 * A download cut inside the last cell reads as a whole row with a wrong value (a latitude's
 * "6141562.0543" cut to "614156"); most complete exports end their last row with a line break, and
 * one that does not (Google Sheets) rarely ends with a value shorter than its column's others. Said
 * where the cell feeds one of the spot's attributes, once, as a warning: the row is sent.
 */
function warnIfCut(
  row: SourceRow,
  { column, compared }: { column: string; compared: boolean },
  cells: ReadonlyMap<string, CellPosition>,
  report: Report,
): void {
  const at = row.cells[column];
  if (!at) return;
  const fed = [...cells].find(([, position]) => position.line === at.line && position.column === at.column);
  if (!fed) return;
  const path = fromPointer(fed[0]);
  const value = cellText(row.values[column]);
  report(
    String(path[path.length - 1]),
    compared
      ? l10n.t(
          'the file ends in this cell without a line break, and its value "{0}" is shorter than the others of its column, as a download cut short leaves it: check that it is complete.',
          value,
        )
      : l10n.t('the file ends in this cell without a line break, as a download cut short does: check that its value "{0}" is complete.', value),
    ROW_RULES.cutShort,
    at,
    'warning',
  );
}

/** Why a photo's web address is not fetched (not https, nor http on this machine), or undefined. */
function webAddressProblem(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return l10n.t('The photo "{0}" is not a web address that can be fetched.', shownAddress(address));
  }
  if (isFetchable(url)) return undefined;
  return l10n.t(
    'The photo {0} is not fetched: photos are fetched over https only (http only from this machine).',
    `${url.protocol}//${url.host}${url.pathname}`,
  );
}

/**
 * The photo a cell names in the media folder or below it (photoLookup.ts), checked as fit for a
 * gallery; undefined, with the problem reported, when it is not there, is in several submissions'
 * folders, or is not fit.
 */
async function folderPhoto(media: ResolvedMedia, name: string, row: SourceRow, report: (message: string) => void): Promise<MediaFileEntry | undefined> {
  const found = await media.photos.find(name, row.values);
  if ('ambiguous' in found) {
    report(
      l10n.t(
        'The photo "{0}" is in {1} folders below {2} ({3}), and no cell of this row names one of them: write its path below {2} into the cell.',
        name,
        found.ambiguous.length,
        media.folderName,
        found.ambiguous.join(', '),
      ),
    );
    return undefined;
  }
  const path = resolve(media.folder, 'missing' in found ? name : found.entry);
  const verdict = 'missing' in found ? undefined : await checkMediaFile(path, basename(path), undefined, undefined, media.folder);
  if (!verdict || (!verdict.ok && verdict.code === 'missing')) {
    const listedOnly = 'missing' in found ? found.listedOnly : undefined;
    report(
      photoMissingMessage(
        listedOnly === undefined
          ? l10n.t('The photo "{0}" is not in the folder {1} ({2}).', name, media.folderName, media.folder)
          : l10n.t('The photo "{0}" is not in the folder {1} ({2}), nor among the first {3} files below it.', name, media.folderName, media.folder, listedOnly),
        row.values,
      ),
    );
    return undefined;
  }
  if (!verdict.ok) {
    report(l10n.t('The photo "{0}": {1}', name, verdict.problem));
    return undefined;
  }
  // A name found where its cell puts it keeps the cell's words: the journal knows the file by them.
  return { name: basename(path), path, relativePath: 'missing' in found ? name : found.entry };
}

/**
 * The photo a cell names in the table's archive, checked as a file on disk is (an accepted type,
 * not empty) from what the archive says of it; undefined, with the problem reported, when it is
 * not there, is in several submissions' folders, or is not fit for a gallery.
 */
async function archivePhoto(
  media: ResolvedMedia,
  archive: TableArchive,
  name: string,
  row: SourceRow,
  report: (message: string) => void,
): Promise<MediaFileEntry | undefined> {
  const found = await media.photos.find(name, row.values);
  const where = media.photos.prefix === '' ? '.' : media.photos.prefix;
  if ('missing' in found) {
    report(photoMissingMessage(l10n.t('The photo "{0}" is not in the folder {1} of the archive.', name, where), row.values));
    return undefined;
  }
  if ('ambiguous' in found) {
    report(
      l10n.t(
        'The photo "{0}" is in {1} folders of the archive ({2}), and no cell of this row names one of them: write the path inside the archive into the cell.',
        name,
        found.ambiguous.length,
        found.ambiguous.join(', '),
      ),
    );
    return undefined;
  }
  let packed: PackedFile;
  try {
    packed = archive.packed(found.entry);
  } catch (error) {
    // Refused by the archive's limits before a byte is inflated (encrypted, a zip bomb).
    report(l10n.t('The photo "{0}": {1}', name, (error as Error).message));
    return undefined;
  }
  const verdict = await checkMediaFile(packed.label, posix.basename(found.entry), undefined, packed);
  if (!verdict.ok) {
    report(l10n.t('The photo "{0}": {1}', name, verdict.problem));
    return undefined;
  }
  return { name: posix.basename(found.entry), path: packed.label, relativePath: found.entry, packed };
}

/**
 * The zone a field's `timezone` or `inputTimezone` gives this row: the mapping's name, or the
 * row's cell in the column it names (its name is then checked where dates are read, at this cell).
 */
function rowZone(
  given: string | { column: string } | undefined,
  row: SourceRow,
): { name: string; at?: CellPosition } | { problem: string; at: CellPosition } | undefined {
  if (given === undefined || typeof given === 'string') return given === undefined ? undefined : { name: given };
  const at = row.cells[given.column] ?? { line: row.line, column: 1 };
  const name = cellText(row.values[given.column]).trim();
  if (name === '') return { problem: l10n.t('the time zone column "{0}" is empty in this row.', given.column), at };
  const zone = resolveTimeZone(name, given.column);
  return 'problem' in zone ? { problem: zone.problem, at } : { name: zone.zone.name, at };
}

// Every row puts the same few members: their pointers are made once, not once a row (toPointer
// escapes each part with two regular expressions). The members are those mappings name; past
// MAX_CACHED_POINTERS of them (a long-lived editor session) the rest are made each time.
const attributePointers = new Map<string, string>();
const MAX_CACHED_POINTERS = 1024;

/** /data/attributes/<member>. */
function attributePointer(member: string): string {
  let pointer = attributePointers.get(member);
  if (pointer === undefined) {
    pointer = toPointer(['data', 'attributes', member]);
    if (attributePointers.size < MAX_CACHED_POINTERS) attributePointers.set(member, pointer);
  }
  return pointer;
}

// A source_id template split once, not once a row: text and column names in turn,
// "tree-{plot}-{id}" → ["tree-", "plot", "-", "id", ""] (the {column}s a replace would match).
// Like the pointers above, only the first MAX_CACHED_TEMPLATES templates of a process are kept.
const sourceIdTemplates = new Map<string, string[]>();
const MAX_CACHED_TEMPLATES = 64;

function templateParts(mapping: ResolvedMapping): string[] {
  let parts = sourceIdTemplates.get(mapping.sourceId);
  if (!parts) {
    parts = mapping.sourceId.split(/\{([^{}]+)\}/);
    if (sourceIdTemplates.size < MAX_CACHED_TEMPLATES) sourceIdTemplates.set(mapping.sourceId, parts);
  }
  return parts;
}

type Put = (member: string, value: unknown, at: CellPosition | undefined) => void;
/** A problem of the row at a cell; `leftOut`: other members it leaves out of the document (SpotProblem.leftOut). */
type Report = (member: string, message: string, rule: string, at: CellPosition, severity?: 'error' | 'warning', leftOut?: readonly string[]) => void;
type CellOf = (column: string | undefined) => CellPosition;

/** A cell as text: strings as written (trimmed), numbers as JSON writes them, nothing as ''. */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value.trim() : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** An empty cell, or one the mapping's nullValues say means "no value" (R's NA, Stata's "."). */
function isNullCell(text: string, mapping: ResolvedMapping): boolean {
  return text === '' || mapping.nullValues.has(text);
}

/** A number cell: a value, a problem, or undefined for an empty one (or one of the mapping's null values). */
function readNumber(value: unknown, mapping: ResolvedMapping): { value: number; warning?: string } | { problem: string } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? { value } : { problem: l10n.t('{0} is not a number.', value) };
  const text = cellText(value);
  if (isNullCell(text, mapping)) return undefined;
  return settled(parseNumber(text, mapping.decimalSeparator));
}

/** A latitude or longitude cell in degrees: a number, or degrees, minutes and seconds ("47°04'16.3\"N"). */
function readDegrees(
  value: unknown,
  axis: 'latitude' | 'longitude',
  mapping: ResolvedMapping,
): { value: number; warning?: string } | { problem: string; swapped?: true } | undefined {
  if (typeof value === 'number') return readNumber(value, mapping);
  const text = cellText(value);
  if (isNullCell(text, mapping)) return undefined;
  const read = parseDegrees(text, axis, mapping.decimalSeparator);
  return 'empty' in read ? undefined : read;
}

/** A cell's conversion without its "no value" case (the caller has ruled an empty cell out). */
function settled<T>(result: CellResult<T>): { value: T; warning?: string } | { problem: string } | undefined {
  return 'empty' in result ? undefined : result;
}

function readInteger(row: SourceRow, column: string, member: string, mapping: ResolvedMapping, put: Put, report: Report, cellOf: CellOf): void {
  const read = readNumber(row.values[column], mapping);
  if (!read) return;
  if ('problem' in read) report(member, `${member}: ${read.problem}`, ROW_RULES.value, cellOf(column));
  else if (!Number.isInteger(read.value)) report(member, l10n.t('{0} is a whole number, not {1}.', member, read.value), ROW_RULES.value, cellOf(column));
  else put(member, read.value, cellOf(column));
}

function readCoordinates(row: SourceRow, mapping: ResolvedMapping, put: Put, report: Report, cellOf: CellOf): void {
  // The two are one position: when either cannot be had, neither is written, so a problem with one
  // leaves the other out too (and the base rules do not add "longitude is required" beside it).
  // A problem that swapping the two would fix has the documents' rule, so the editor offers the swap.
  // A position column has no two columns to swap: its message says the mapping's order to write.
  const swappedMessage = (message: string) =>
    mapping.position === undefined ? message : positionSwappedMessage(cellText(row.values[mapping.position]), mapping.position, mapping.positionOrder);
  const fail = (member: 'latitude' | 'longitude', message: string, at: CellPosition, swapped?: boolean) =>
    report(member, swapped ? swappedMessage(message) : message, swapped ? SPOT_RULES.swappedCoordinates : ROW_RULES.coordinates, at, 'error', [
      member === 'latitude' ? 'longitude' : 'latitude',
    ]);
  let x: number | undefined;
  let y: number | undefined;
  let xAt: CellPosition;
  let yAt: CellPosition;
  if (mapping.latitude !== undefined && mapping.longitude !== undefined) {
    xAt = cellOf(mapping.longitude);
    yAt = cellOf(mapping.latitude);
    for (const [member, column, at] of [
      ['longitude', mapping.longitude, xAt],
      ['latitude', mapping.latitude, yAt],
    ] as const) {
      // Degrees may be written with minutes and seconds; a grid's metres are numbers only.
      const read = mapping.degrees ? readDegrees(row.values[column], member, mapping) : readNumber(row.values[column], mapping);
      if (!read) fail(member, l10n.t('{0} is empty in this row (column "{1}").', member, column), at);
      else if ('problem' in read) fail(member, `${member}: ${read.problem}`, at, 'swapped' in read);
      else if (member === 'longitude') x = read.value;
      else y = read.value;
    }
  } else if (mapping.wkt !== undefined || mapping.position !== undefined) {
    // One cell holds the place (a GIS export's SHAPE column, a form tool's geopoint): its problems are at that cell.
    const [member, column] = mapping.wkt !== undefined ? ['wkt', mapping.wkt] : ['position', mapping.position!];
    const at = cellOf(column);
    xAt = yAt = at;
    const text = cellText(row.values[column]);
    const read = isNullCell(text, mapping)
      ? { problem: l10n.t('{0} is empty in this row (column "{1}").', member, column) }
      : member === 'wkt'
        ? readWktCell(text, mapping.crs, mapping.geometry)
        : readPositionCell(text, mapping.degrees, mapping.decimalSeparator, mapping.positionOrder);
    const point =
      'problem' in read ? read : geometryPoint({ type: read.geometry.type, coordinates: read.geometry.coordinates, position: at }, mapping.geometry);
    if ('problem' in point) fail('latitude', `${member}: ${point.problem}`, at, 'swapped' in point);
    else ({ x, y } = point);
  } else {
    const geometry = row.geometry;
    const at = geometry?.position ?? row.noGeometryAt ?? cellOf(undefined);
    xAt = yAt = at;
    const point = geometry ? geometryPoint(geometry, mapping.geometry) : { problem: l10n.t('The feature has no geometry: a spot needs a Point.') };
    if ('problem' in point) fail('latitude', point.problem, at);
    else ({ x, y } = point);
  }
  if (x === undefined || y === undefined) return;
  // At the cell of the coordinate a problem is about (the latitude's when it is about both, or the system).
  const failAt = (problem: string, member: 'latitude' | 'longitude' = 'latitude', swapped?: boolean) =>
    member === 'longitude' ? fail('longitude', problem, xAt, swapped) : fail('latitude', problem, yAt, swapped);
  // Degrees are checked as given (a swap of the two can still be seen there), each problem at its
  // own cell (toWgs84 joins them into one message); other systems are transformed to WGS 84 first.
  const asGiven = mapping.degrees ? latitudeLongitudeProblems(y, x) : [];
  // Thousands are no degrees: a projected system's metres, which only the mapping's crs can place.
  if (asGiven.length > 0 && !asGiven.some((problem) => problem.swapped) && Math.max(Math.abs(x), Math.abs(y)) > METRES_NOT_DEGREES)
    return failAt(
      l10n.t(
        'latitude {0} and longitude {1} are not degrees but metres of a projected coordinate system: name it with "crs" in the mapping (e.g. "EPSG:3857" for a web map\'s x and y, or your national grid\'s code).',
        y,
        x,
      ),
    );
  asGiven.forEach((problem) => failAt(problem.message, problem.member, problem.swapped));
  if (asGiven.length > 0) return;
  const transformed = toWgs84(x, y, mapping.crs);
  if ('problem' in transformed) {
    // toWgs84's check of degrees as given is at the cell its first problem is about; any other
    // problem (the coordinate system, the transformation) at the latitude's.
    const asDegrees = latitudeLongitudeProblems(y, x);
    const fromDegrees = asDegrees.length > 0 && transformed.problem === asDegrees.map((problem) => problem.message).join(' ');
    return failAt(transformed.problem, fromDegrees ? asDegrees[0].member : 'latitude', 'swapped' in transformed || (fromDegrees && asDegrees[0].swapped));
  }
  if (transformed.warning) report('latitude', transformed.warning, ROW_RULES.coordinates, yAt, 'warning');
  // Zeros where a device or form had no fix (the photo folder takes 0°/0° for none): sent, but said.
  if (transformed.latitude === 0 && transformed.longitude === 0)
    report(
      'latitude',
      l10n.t('latitude 0 and longitude 0 lie in the Gulf of Guinea ("Null Island"): most likely no position was recorded; check the row\'s coordinates.'),
      ROW_RULES.coordinates,
      yAt,
      'warning',
    );
  if (row.placeWarning) report('latitude', row.placeWarning, ROW_RULES.coordinates, yAt, 'warning');
  // A platform that moved the place on purpose says so in a column of its own (iNaturalist's).
  const obscured = obscuredPositionWarning(row.values);
  if (obscured) report('latitude', obscured, ROW_RULES.coordinates, yAt, 'warning');
  put('latitude', mapping.degrees ? transformed.latitude : round(transformed.latitude), yAt);
  put('longitude', mapping.degrees ? transformed.longitude : round(transformed.longitude), xAt);
}

/** Larger than any angle in degrees a table writes (360 and a margin): a coordinate in metres. */
const METRES_NOT_DEGREES = 1000;

function round(value: number): number {
  return roundCoordinate(value, TRANSFORMED_DECIMALS);
}

function readField(
  row: SourceRow,
  field: ResolvedField,
  mapping: ResolvedMapping,
  put: Put,
  report: Report,
  cellOf: CellOf,
  cells: Map<string, CellPosition>,
): void {
  const at = cellOf(field.column);
  const raw = field.column !== undefined ? row.values[field.column] : undefined;
  // Messages name the field as the topic does ("Height (m) (fld_7_2)"), else by its name.
  const title = field.label ? `${field.label} (${field.attribute})` : field.attribute;
  const text = cellText(raw);
  // Text and categories keep what is written ("NA" may be a name); other types read a null value as empty.
  if (text === '' || (field.type !== 'text' && field.type !== 'category' && field.type !== 'categories' && isNullCell(text, mapping))) {
    if (field.default !== undefined) put(field.attribute, field.default, at);
    // A field left out is still placed at its (empty) cell: a rule that asks for it points there.
    else if (field.column !== undefined && row.cells[field.column]) cells.set(attributePointer(field.attribute), at);
    return;
  }
  // The mapping's own table first: what this export writes for a value.
  const translated = field.values && Object.hasOwn(field.values, text) ? field.values[text] : undefined;
  const value = translated ?? (typeof raw === 'string' ? text : raw);
  const fail = (message: string, rule: string = ROW_RULES.value) => report(field.attribute, message, rule, at);
  switch (field.type) {
    case 'text':
      return put(field.attribute, typeof value === 'string' ? value : text, at);
    case 'number':
    case 'integer': {
      const read = readNumber(value, mapping);
      if (!read) return;
      if ('problem' in read) return fail(`${title}: ${read.problem}`);
      if (read.warning) report(field.attribute, `${title}: ${read.warning}`, ROW_RULES.value, at, 'warning');
      if (field.type === 'integer' && !Number.isInteger(read.value)) return fail(l10n.t('{0} is a whole number, not {1}.', title, read.value));
      return put(field.attribute, read.value, at);
    }
    case 'boolean': {
      const truth = typeof value === 'boolean' ? value : BOOLEANS[String(value).trim().toLowerCase()];
      if (truth === undefined) return fail(l10n.t('{0}: "{1}" is not true or false (yes/no, ja/nein, 1/0 are read too).', title, text));
      return put(field.attribute, truth, at);
    }
    case 'date':
    case 'datetime': {
      // A zone per row (iNaturalist's time_zone) comes from its cell, and a problem with it is that cell's.
      const timezone = rowZone(field.timezone, row);
      if (timezone && 'problem' in timezone) return report(field.attribute, `${title}: ${timezone.problem}`, ROW_RULES.value, timezone.at);
      const inputTimezone = rowZone(field.inputTimezone, row);
      if (inputTimezone && 'problem' in inputTimezone) return report(field.attribute, `${title}: ${inputTimezone.problem}`, ROW_RULES.value, inputTimezone.at);
      const converted = settled(
        convertDateTime(String(value), {
          kind: field.type,
          format: field.format,
          interval: field.interval,
          timezone: timezone?.name,
          inputTimezone: inputTimezone?.name,
        }),
      );
      if (!converted) return;
      if ('problem' in converted) return fail(`${title}: ${converted.problem}`);
      if (converted.warning) report(field.attribute, `${title}: ${converted.warning}`, ROW_RULES.value, at, 'warning');
      return put(field.attribute, converted.value, at);
    }
    case 'category':
    case 'categories': {
      const cell = String(value);
      const read =
        field.type === 'categories'
          ? settled(categoryKeysOfCell(cell, field.attribute, field.categories))
          : field.categories
            ? settled(categoryKeyOfCell(cell, field.attribute, field.categories))
            : { value: cell };
      if (read && 'problem' in read) return fail(read.problem, ROW_RULES.category);
      // A key that is a plain whole number is sent as the number, as documents write it.
      const keys = (read === undefined ? [] : typeof read.value === 'string' ? [read.value] : read.value).map((key) =>
        /^(0|-?[1-9]\d{0,14})$/.test(key) ? Number(key) : key,
      );
      return put(field.attribute, field.type === 'category' ? keys[0] : keys, at);
    }
  }
}

const BOOLEANS: Record<string, boolean> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  ja: true,
  nein: false,
  '1': true,
  '0': false,
  wahr: true,
  falsch: false,
  y: true,
  n: false,
  j: true,
};
