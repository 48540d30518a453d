// A mapping made for the user from a table's header and first rows (`spot-import mapping` and the
// editor's Create Mapping for this File): the topic whose labels head the columns, the export's
// stable id, the coordinates (a layer's geometry, or the columns form tools write for a geopoint),
// the photos' columns found by their file names, the fields by their labels, and the table's format
// as detected, written out so the user sees it. Every guess is said, with what could not be
// decided, for the user to check; what cannot be guessed is left for them to fill in. A folder of
// photos has its places in its photos: its id is each photo's path, its gallery each photo, a
// date-time field its time.
import { basename, dirname, relative, sep } from 'node:path';
import { tableCrs } from '../values/prjCrs';
import { isBuiltIn } from '../values/crs';
import { isGalleryField } from '../../api/spotSchema';
import { l10n } from '../../text/l10n';
import type { TopicCatalog, TopicDefinition, TopicField } from '../../topics/topicSchema';
import type { SourceRow, SourceTable } from '../read';
import { recogniseExportTool } from './exportTool';
import { guessCoordinates, type CoordinatesGuess } from './guessCoordinates';
import { guessMedia } from './guessMedia';
import { guessSourceId } from './guessSourceId';
import { columnOfField, guessTopic } from './guessTopic';
import { mappingPathFor } from './mappingPath';
import type { Mapping, MediaMapping } from './mappingSchema';

export interface GuessedMapping {
  mapping: Mapping;
  /** Each guess in words ("latitude: the column _location_latitude"), and what is left to fill in. */
  notes: string[];
}

export async function guessMapping(table: SourceTable, sample: readonly SourceRow[], topics?: TopicCatalog): Promise<GuessedMapping> {
  const notes: string[] = [];
  const columns = table.columns;
  const photos = table.format.format === 'photos';

  const byLabels = guessTopic(topics, columns);
  const { definition, notes: topicNotes } = (photos && !byLabels.definition && photoTopic(topics)) || byLabels;
  const topicColumn = columns.find((column) => ['topic_id', 'topic', 'topicid'].includes(column.trim().toLowerCase()));
  let topic: Mapping['topic_id'];
  if (definition) {
    topic = definition.topic_id;
    notes.push(...topicNotes);
  } else if (topicColumn) {
    topic = { column: topicColumn };
    notes.push(l10n.t('topic_id: the column {0}', topicColumn));
  } else {
    topic = 0;
    const known = topics ? [...topics.keys()] : [];
    notes.push(
      known.length === 0
        ? l10n.t("topic_id: set it to your topic's number (0 is a placeholder)")
        : known.length === 1
          ? l10n.t("topic_id: set it to your topic's number (0 is a placeholder): no column is headed with a field label of topic {0}", known[0])
          : l10n.t("topic_id: set it to your topic's number (0 is a placeholder): no column is headed with a field label of topics {0}", known.join(', ')),
    );
  }

  // A form's export before its first submission: nothing but the names to go by, and every note
  // about the rows' values would be about none. (A layer of no features has no names either.)
  if (sample.length === 0 && ['csv', 'tsv', 'xlsx'].includes(table.format.format))
    notes.push(
      l10n.t(
        '{0} has no rows below its header: the mapping is guessed from the column names alone; check it against an export with rows',
        basename(table.path),
      ),
    );

  const tool = photos ? undefined : recogniseExportTool(columns);
  const sourceId = photos ? photoSourceId(table.path, sample) : guessSourceId(table.path, columns, sample, tool);
  notes.push(...sourceId.notes);

  const mapping: Mapping = {
    source: {
      format: table.format.format,
      ...(table.format.delimiter ? { delimiter: table.format.delimiter } : {}),
      ...(table.format.quote === '' ? { quote: '' as const } : {}),
      ...(table.format.decimalSeparator ? { decimalSeparator: table.format.decimalSeparator } : {}),
      ...(table.format.format !== 'xlsx' && !photos ? { encoding: table.format.encoding } : {}),
      ...(table.format.header && table.format.header !== 1 ? { header: table.format.header } : {}),
      ...(table.format.sheet !== undefined ? { sheet: table.format.sheet } : {}),
      ...(table.format.entry !== undefined ? { entry: table.format.entry } : {}),
    },
    topic_id: topic,
    source_id: sourceId.template,
  };
  for (const detected of table.detected) notes.push(`source: ${detected}`);

  const coordinates = photos ? photoCoordinates(sample) : guessCoordinates(columns, sample, tool, table.format.decimalSeparator, definition?.area?.bbox);
  if (coordinates.latitude && coordinates.longitude) {
    mapping.latitude = coordinates.latitude;
    mapping.longitude = coordinates.longitude;
  }
  if (coordinates.wkt) mapping.wkt = coordinates.wkt;
  if (coordinates.position) mapping.position = coordinates.position;
  if (coordinates.crs) mapping.crs = coordinates.crs;
  if (coordinates.geometry) mapping.geometry = coordinates.geometry;
  notes.push(...coordinates.notes);
  if (table.crs)
    notes.push(
      isBuiltIn(table.crs)
        ? l10n.t("crs: {0}, from the file's crs member", table.crs)
        : l10n.t(
            'crs: the file\'s crs member says {0}, which is not built in: give the mapping "crs": { "proj4": "+proj=… +towgs84=…" }, the definition of {0} (e.g. from `projinfo {0} -o PROJ` or epsg.io)',
            table.crs,
          ),
    );
  else if (table.prj) {
    const crs = tableCrs(table);
    notes.push(
      crs
        ? l10n.t('crs: {0}, from {1}', crs, table.prj.name)
        : l10n.t('crs: {0} names a coordinate system this project does not know: give the mapping its "crs"', table.prj.name),
    );
  }

  const taken = new Set(
    [
      coordinates.latitude,
      coordinates.longitude,
      coordinates.wkt,
      typeof coordinates.position === 'object' ? coordinates.position.column : coordinates.position,
      sourceId.column,
      topicColumn,
    ].filter((column) => column !== undefined),
  );
  // A photo's position is its row's place already.
  if (photos) ['latitude', 'longitude'].forEach((column) => taken.add(column));
  // The topic's gallery, else a name of the right form for the user to correct.
  const gallery = definition ? Object.keys(definition.fields).find((name) => isGalleryField(name, definition)) : undefined;
  const galleryField = gallery ?? `fld_${typeof topic === 'number' ? topic : 0}_1`;
  const media = photos
    ? photoMedia(table.path, galleryField, gallery !== undefined)
    : await guessMedia(table.path, columns, sample, galleryField, gallery !== undefined, table.archive);
  media.taken.forEach((column) => taken.add(column));
  notes.push(...media.notes);

  const fields: NonNullable<Mapping['fields']> = {};
  if (definition) {
    for (const [name, spec] of Object.entries(definition.fields)) {
      if (spec.type === 'gallery') continue;
      const column = columnOfField(columns, name, spec.label, (candidate) => !taken.has(candidate));
      if (!column) continue;
      taken.add(column);
      const proposed = fieldOfColumn(name, spec, column, columns, sample, taken);
      fields[name] = proposed.field;
      notes.push(proposed.note);
    }
    // The time a form tool records (ODK's start, Survey123's CreationDate) for a date-time field no label fed.
    const tool = recogniseExportTool(columns);
    const time = tool?.time && !photos ? toolTime(tool.time, definition, fields, sample, taken) : undefined;
    if (time && tool) {
      const proposed = fieldOfColumn(time.field, time.spec, time.column, columns, sample, taken);
      taken.add(time.column);
      fields[time.field] = proposed.field;
      notes.push(
        proposed.note,
        l10n.t('fields: {0} is the time {1} recorded the observation: check that it is the time your field means', time.field, tool.name),
      );
    }
  }
  if (photos && definition && !taken.has(PHOTO_TIME)) {
    const time = photoTime(definition, fields, sample);
    if (time) {
      fields[time.field] = PHOTO_TIME;
      taken.add(PHOTO_TIME);
      notes.push(time.note);
    }
  }
  if (Object.keys(fields).length > 0) mapping.fields = fields;
  if (media.media) mapping.media = { [galleryField]: media.media };
  const left = columns.filter((column) => !taken.has(column));
  if (left.length > 0)
    notes.push(l10n.t('not mapped: {0} (add them under fields to send them)', `${left.slice(0, 12).join(', ')}${left.length > 12 ? ', …' : ''}`));
  return { mapping, notes };
}

/** A folder of photos, whose columns are no topic's labels: the catalog's only topic with a gallery, for the photos. */
function photoTopic(topics: TopicCatalog | undefined): { definition: TopicDefinition; notes: string[] } | undefined {
  const withGallery = [...(topics?.values() ?? [])].filter((candidate) => Object.keys(candidate.fields).some((name) => isGalleryField(name, candidate)));
  if (withGallery.length !== 1) return undefined;
  const [definition] = withGallery;
  const topic = definition.name ? `${definition.topic_id} (${definition.name})` : String(definition.topic_id);
  return { definition, notes: [l10n.t('topic_id: {0}, the only topic with a gallery for the photos', topic)] };
}

/** A folder of photos: each photo's path in it (the proposal is one spot per photo), and what {sha256} and group "folder" would do instead. */
function photoSourceId(path: string, sample: readonly SourceRow[]): { template: string; column: string; notes: string[] } {
  // The folder's name without its dates and numbers, as a file's is.
  const prefix = guessSourceId(path, ['file'], sample, undefined).template.replace(/\{file\}$/, '');
  const template = `${prefix}{file}`;
  const notes = [
    l10n.t(
      "source_id: {0}, each photo's path in the folder: a photo renamed or moved becomes a new spot; {1} (its content) keeps its spot, but reads every photo whole on each run",
      template,
      `${prefix}{sha256}`,
    ),
  ];
  const folders = [...new Set(sample.map((row) => row.values.folder).filter((folder): folder is string => typeof folder === 'string' && folder !== ''))];
  if (folders.length > 0)
    notes.push(
      l10n.t(
        'source.group: one spot per photo; the photos are in subfolders ({0}): "group": "folder" makes one spot of each subfolder, its photos its gallery (source_id then from {1})',
        `${folders.slice(0, 3).join(', ')}${folders.length > 3 ? ', …' : ''}`,
        '{folder}',
      ),
    );
  return { template, column: 'file', notes };
}

/** A folder of photos: the places are the photos' GPS positions, which the mapping need not name. */
function photoCoordinates(sample: readonly SourceRow[]): CoordinatesGuess {
  return {
    notes: [
      sample.length > 0
        ? l10n.t("latitude, longitude: each photo's GPS position, from its EXIF tags (the mapping need not name them)")
        : l10n.t('latitude, longitude: none of the photos looked at has a GPS position in its EXIF tags: a spot needs one'),
    ],
  };
}

/** A folder of photos: each row's photos (the column photos, paths in the folder) into the gallery. */
function photoMedia(folder: string, field: string, gallery: boolean): { media: MediaMapping; taken: string[]; notes: string[] } {
  // The folder relative to the mapping (beside it: "photos"; inside it: none).
  const where = relative(dirname(mappingPathFor(folder)), folder)
    .split(sep)
    .join('/');
  return {
    media: { columns: ['photos'], ...(where !== '' ? { folder: where } : {}) },
    taken: ['photos'],
    notes: [
      gallery
        ? l10n.t("media: {0} from the column photos: each photo into its spot's gallery", field)
        : l10n.t("media: {0} from the column photos: each photo into its spot's gallery; name the topic's gallery field", field),
    ],
  };
}

/** The column of a photo's time: DateTimeOriginal, with its offset when the photo has one. */
/** A field of a column: a date's pattern, and a date-time's zone per row (iNaturalist's time_zone), when they apply. */
function fieldOfColumn(
  name: string,
  spec: TopicField,
  column: string,
  columns: readonly string[],
  sample: readonly SourceRow[],
  taken: Set<string>,
): { field: NonNullable<Mapping['fields']>[string]; note: string } {
  const format = spec.type === 'date' || spec.type === 'datetime' ? dateFormatOf(sample.map((row) => row.values[column])) : undefined;
  // A zone per row: each row's time is written as its own wall clock.
  const zoneColumn = spec.type === 'datetime' ? columns.find((candidate) => ZONE_COLUMN.test(candidate)) : undefined;
  if (zoneColumn) {
    taken.add(zoneColumn);
    return {
      field: { column, ...(format ? { format } : {}), timezone: { column: zoneColumn } },
      note: l10n.t('fields: {0} ({1}) from the column {2}, each row in the time zone its column {3} names', name, spec.label, column, zoneColumn),
    };
  }
  return { field: format ? { column, format } : column, note: fieldNote(name, spec.label, column, format, spec.type === 'datetime') };
}

/** The topic's first date-time field nothing feeds yet, and the tool's first time column with a value in the rows looked at. */
function toolTime(
  candidates: readonly string[],
  definition: TopicDefinition,
  fields: NonNullable<Mapping['fields']>,
  sample: readonly SourceRow[],
  taken: ReadonlySet<string>,
): { field: string; spec: TopicField; column: string } | undefined {
  const free = Object.entries(definition.fields).find(([name, spec]) => spec.type === 'datetime' && !Object.hasOwn(fields, name));
  if (!free) return undefined;
  const column = candidates.find((candidate) => !taken.has(candidate) && sample.some((row) => cellHasText(row.values[candidate])));
  return column === undefined ? undefined : { field: free[0], spec: free[1], column };
}

function cellHasText(value: unknown): boolean {
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;
}

const PHOTO_TIME = 'taken';

/** A folder of photos: the topic's first date-time (else date) field no column feeds yet takes the time each photo was taken. */
function photoTime(
  definition: TopicDefinition,
  fields: NonNullable<Mapping['fields']>,
  sample: readonly SourceRow[],
): { field: string; note: string } | undefined {
  const free = Object.entries(definition.fields).filter(([name]) => !Object.hasOwn(fields, name));
  const [field, spec] = free.find(([, candidate]) => candidate.type === 'datetime') ?? free.find(([, candidate]) => candidate.type === 'date') ?? [];
  if (field === undefined || spec === undefined) return undefined;
  const times = sample.map((row) => row.values[PHOTO_TIME]).filter((time): time is string => typeof time === 'string' && time !== '');
  const local = times.some((time) => !/[+-]\d{2}:\d{2}$/.test(time));
  return {
    field,
    note: local
      ? l10n.t(
          'fields: {0} ({1}) from the column taken, the time each photo was taken; some photos have no time offset (OffsetTimeOriginal): add "inputTimezone", the zone their cameras\' clocks were set to',
          field,
          spec.label,
        )
      : l10n.t('fields: {0} ({1}) from the column taken, the time each photo was taken', field, spec.label),
  };
}

/** A column naming each row's time zone, as iNaturalist (time_zone) and others write it. */
const ZONE_COLUMN = /^(time_?zone|timezone|tz|zeitzone)$/i;

/** "fields: fld_7_1 (Species) from the column Art", with the dates' pattern and a datetime's zones when they apply. */
function fieldNote(name: string, label: string, column: string, format: string | undefined, datetime: boolean): string {
  if (format) {
    return datetime
      ? l10n.t(
          'fields: {0} ({1}) from the column {2}, dates written {3}: add "timezone" (and "inputTimezone") if its times are not UTC',
          name,
          label,
          column,
          format,
        )
      : l10n.t('fields: {0} ({1}) from the column {2}, dates written {3}', name, label, column, format);
  }
  return datetime
    ? l10n.t('fields: {0} ({1}) from the column {2}: add "timezone" (and "inputTimezone") if its times are not UTC', name, label, column)
    : l10n.t('fields: {0} ({1}) from the column {2}', name, label, column);
}

/** The pattern of a column's dates, when they are not ISO 8601 (which needs none). */
function dateFormatOf(values: readonly unknown[]): string | undefined {
  const texts = values.filter((value): value is string => typeof value === 'string' && value.trim() !== '').map((value) => value.trim());
  if (texts.length === 0) return undefined;
  // Days, months and hours as one letter: Luxon reads one or two digits for them (dd, MM and HH want two).
  const patterns: Array<[RegExp, string]> = [
    [/^\d{1,2}\.\d{1,2}\.\d{4} \d{1,2}:\d{2}:\d{2}$/, 'd.M.yyyy H:mm:ss'],
    [/^\d{1,2}\.\d{1,2}\.\d{4} \d{1,2}:\d{2}$/, 'd.M.yyyy H:mm'],
    [/^\d{1,2}\.\d{1,2}\.\d{4}$/, 'd.M.yyyy'],
    [/^\d{4}\/\d{1,2}\/\d{1,2}$/, 'yyyy/M/d'],
    // Survey123's US dates, "4/11/2019 1:22:44 PM": the AM/PM says the month comes first.
    [/^\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2}:\d{2} [AP]M$/, 'M/d/yyyy h:mm:ss a'],
  ];
  return patterns.find(([pattern]) => texts.every((text) => pattern.test(text)))?.[1];
}

/** The mapping as the file is written: two spaces, a newline at the end. */
export function mappingText(mapping: Mapping): string {
  return `${JSON.stringify(mapping, null, 2)}\n`;
}
