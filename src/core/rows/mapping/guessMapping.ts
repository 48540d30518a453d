// A mapping made for the user from a table's header and first rows: the columns matched to the
// topic's labels and to the names exports give coordinates and ids (lat, latitude, y,
// _location_latitude, decimalLatitude, …), the photos' columns found by their file names, and the
// table's format as detected, written out so the user sees it. Every guess is said, for the user
// to check; what cannot be guessed is left for them to fill in.
import { existsSync, readdirSync, type Dirent } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isGalleryField } from '../../api/spotSchema';
import { l10n } from '../../text/l10n';
import type { TopicCatalog, TopicDefinition } from '../../topics/topicSchema';
import type { SourceRow, SourceTable } from '../read';
import type { Mapping } from './mappingSchema';

export interface GuessedMapping {
  mapping: Mapping;
  /** Each guess in words ("latitude: the column _location_latitude"), and what is left to fill in. */
  notes: string[];
}

const LATITUDE = ['latitude', 'lat', 'y', '_location_latitude', 'location-latitude', 'location_latitude', 'decimallatitude', 'gps_latitude', 'breite', 'breitengrad', 'northing', 'hochwert', 'rechtswert_y'];
const LONGITUDE = ['longitude', 'lon', 'lng', 'long', 'x', '_location_longitude', 'location-longitude', 'location_longitude', 'decimallongitude', 'gps_longitude', 'laenge', 'länge', 'laengengrad', 'easting', 'rechtswert'];
const IDS = ['_uuid', 'uuid', 'instanceid', 'meta/instanceid', 'occurrenceid', 'id', 'fid', 'objectid', 'gid', '_id', 'key'];
const PHOTO = /\.(jpe?g|png|gif|webp|heic|heif|avif|tiff?|bmp|mp4|mov|webm)$/i;

export function guessMapping(table: SourceTable, sample: readonly SourceRow[], topics?: TopicCatalog): GuessedMapping {
  const notes: string[] = [];
  const columns = table.columns;
  const byName = (names: readonly string[]) => names.map((name) => columns.find((column) => normal(column) === name)).find((column) => column !== undefined);
  const definitions = topics ? [...topics.values()] : [];

  // The topic: the one defined, or the one whose labels match the most columns.
  const definition = bestTopic(definitions, columns);
  const topicColumn = byName(['topic_id', 'topic', 'topicid']);
  let topic: Mapping['topic_id'];
  if (definition) {
    topic = definition.topic_id;
    notes.push(
      definition.name
        ? l10n.t('topic_id: {0} ({1}), the topic whose fields\' labels match the most columns', definition.topic_id, definition.name)
        : l10n.t('topic_id: {0}, the topic whose fields\' labels match the most columns', definition.topic_id),
    );
  } else if (topicColumn) {
    topic = { column: topicColumn };
    notes.push(l10n.t('topic_id: the column {0}', topicColumn));
  } else {
    topic = 0;
    notes.push(l10n.t('topic_id: set it to your topic\'s number (0 is a placeholder)'));
  }

  const idColumn = byName(IDS);
  const stem = basename(table.path).replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9_-]+/g, '-');
  const sourceId = idColumn ? `${stem}-{${idColumn}}` : `${stem}-{${columns[0]}}`;
  notes.push(idColumn ? l10n.t('source_id: {0}, from the column {1}', sourceId, idColumn) : l10n.t('source_id: {0}, from the first column: name a column that identifies each row for good', sourceId));

  const mapping: Mapping = {
    source: { format: table.format.format, ...(table.format.delimiter ? { delimiter: table.format.delimiter } : {}), ...(table.format.decimalSeparator ? { decimalSeparator: table.format.decimalSeparator } : {}), encoding: table.format.encoding, ...(table.format.header && table.format.header !== 1 ? { header: table.format.header } : {}) },
    topic_id: topic,
    source_id: sourceId,
  };
  for (const detected of table.detected) notes.push(`source: ${detected}`);

  const latitude = byName(LATITUDE);
  const longitude = byName(LONGITUDE);
  const geometry = sample.some((row) => row.geometry?.type === 'Point');
  if (latitude && longitude) {
    mapping.latitude = latitude;
    mapping.longitude = longitude;
    notes.push(l10n.t('latitude, longitude: the columns {0} and {1}', latitude, longitude));
    if (looksProjected(sample, latitude, longitude)) notes.push(l10n.t('crs: the coordinates are not degrees: set crs to their system, e.g. "EPSG:31256"'));
  } else if (geometry) {
    notes.push(l10n.t('latitude, longitude: each feature\'s Point geometry'));
  } else {
    notes.push(l10n.t('latitude, longitude: no column looks like them: name them'));
  }
  if (table.crs) notes.push(l10n.t('crs: {0}, from the file\'s crs member', table.crs));

  const taken = new Set([latitude, longitude, idColumn, topicColumn].filter(Boolean));
  const fields: NonNullable<Mapping['fields']> = {};
  const media: NonNullable<Mapping['media']> = {};
  const photoColumns = columns.filter((column) => sample.some((row) => typeof row.values[column] === 'string' && (row.values[column] as string).split(';').some((name) => PHOTO.test(name.trim()))));
  const galleries = definition ? Object.keys(definition.fields).filter((name) => isGalleryField(name, definition)) : [];
  if (photoColumns.length > 0) {
    const field = galleries[0] ?? `fld_${typeof topic === 'number' ? topic : 0}_1`;
    const folder = photoFolder(table.path, photoColumns.flatMap((column) => sample.flatMap((row) => photoNames(row.values[column]))));
    media[field] = { columns: photoColumns, ...(folder ? { folder } : {}) };
    photoColumns.forEach((column) => taken.add(column));
    notes.push(mediaNote(field, photoColumns, folder, Boolean(galleries[0])));
  }
  if (definition) {
    for (const [name, spec] of Object.entries(definition.fields)) {
      if (spec.type === 'gallery') continue;
      const column = columns.find((candidate) => !taken.has(candidate) && (normal(candidate) === normal(spec.label) || normal(candidate) === normal(name)));
      if (!column) continue;
      taken.add(column);
      const format = spec.type === 'date' || spec.type === 'datetime' ? dateFormatOf(sample.map((row) => row.values[column])) : undefined;
      fields[name] = format ? { column, format } : column;
      notes.push(fieldNote(name, spec.label, column, format, spec.type === 'datetime'));
    }
  }
  if (Object.keys(fields).length > 0) mapping.fields = fields;
  if (Object.keys(media).length > 0) mapping.media = media;
  const left = columns.filter((column) => !taken.has(column));
  if (left.length > 0) notes.push(l10n.t('not mapped: {0} (add them under fields to send them)', `${left.slice(0, 12).join(', ')}${left.length > 12 ? ', …' : ''}`));
  return { mapping, notes };
}

/** "media: fld_7_3 from the column photo, files in photos/": each case a whole sentence. */
function mediaNote(field: string, columns: readonly string[], folder: string | undefined, gallery: boolean): string {
  const names = columns.join(', ');
  if (columns.length > 1) {
    if (folder) {
      return gallery
        ? l10n.t('media: {0} from the columns {1}, files in {2}/', field, names, folder)
        : l10n.t('media: {0} from the columns {1}, files in {2}/: name the topic\'s gallery field', field, names, folder);
    }
    return gallery
      ? l10n.t('media: {0} from the columns {1} (files beside the mapping)', field, names)
      : l10n.t('media: {0} from the columns {1} (files beside the mapping): name the topic\'s gallery field', field, names);
  }
  if (folder) {
    return gallery
      ? l10n.t('media: {0} from the column {1}, files in {2}/', field, names, folder)
      : l10n.t('media: {0} from the column {1}, files in {2}/: name the topic\'s gallery field', field, names, folder);
  }
  return gallery
    ? l10n.t('media: {0} from the column {1} (files beside the mapping)', field, names)
    : l10n.t('media: {0} from the column {1} (files beside the mapping): name the topic\'s gallery field', field, names);
}

/** "fields: fld_7_1 (Species) from the column Art", with the dates' pattern and a datetime's zones when they apply. */
function fieldNote(name: string, label: string, column: string, format: string | undefined, datetime: boolean): string {
  if (format) {
    return datetime
      ? l10n.t('fields: {0} ({1}) from the column {2}, dates written {3}: add "timezone" (and "inputTimezone") if its times are not UTC', name, label, column, format)
      : l10n.t('fields: {0} ({1}) from the column {2}, dates written {3}', name, label, column, format);
  }
  return datetime
    ? l10n.t('fields: {0} ({1}) from the column {2}: add "timezone" (and "inputTimezone") if its times are not UTC', name, label, column)
    : l10n.t('fields: {0} ({1}) from the column {2}', name, label, column);
}

const PHOTO_FOLDERS = ['photos', 'media', 'images', 'fotos', 'bilder', 'attachments'];

/** The photo file names a cell holds. */
function photoNames(value: unknown): string[] {
  return typeof value === 'string' ? value.split(';').map((name) => name.trim()).filter((name) => PHOTO.test(name)) : [];
}

/**
 * Where the photos are: among the table's sibling folders named like photo folders (in any case:
 * "Fotos" as a German export spells it), the one that holds a file the cells name; none when they
 * are beside the table; else the first such folder, for the user to check. Not merely the first
 * folder that exists: a project may keep another table's photos/ beside this one's Fotos/.
 */
function photoFolder(tablePath: string, names: readonly string[]): string | undefined {
  const dir = dirname(tablePath);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const folders = entries
    .filter((entry) => entry.isDirectory() && PHOTO_FOLDERS.includes(entry.name.toLowerCase()))
    .map((entry) => entry.name)
    .sort((a, b) => PHOTO_FOLDERS.indexOf(a.toLowerCase()) - PHOTO_FOLDERS.indexOf(b.toLowerCase()));
  const holds = (folder: string) => names.some((name) => existsSync(join(dir, folder, name)));
  return folders.find(holds) ?? (holds('.') ? undefined : folders[0]);
}

/** The pattern of a column's dates, when they are not ISO 8601 (which needs none). */
function dateFormatOf(values: readonly unknown[]): string | undefined {
  const texts = values.filter((value): value is string => typeof value === 'string' && value.trim() !== '').map((value) => value.trim());
  if (texts.length === 0) return undefined;
  const patterns: Array<[RegExp, string]> = [
    [/^\d{1,2}\.\d{1,2}\.\d{4} \d{1,2}:\d{2}:\d{2}$/, 'dd.MM.yyyy HH:mm:ss'],
    [/^\d{1,2}\.\d{1,2}\.\d{4} \d{1,2}:\d{2}$/, 'dd.MM.yyyy HH:mm'],
    [/^\d{1,2}\.\d{1,2}\.\d{4}$/, 'dd.MM.yyyy'],
    [/^\d{4}\/\d{1,2}\/\d{1,2}$/, 'yyyy/MM/dd'],
  ];
  return patterns.find(([pattern]) => texts.every((text) => pattern.test(text)))?.[1];
}

function normal(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

function bestTopic(definitions: readonly TopicDefinition[], columns: readonly string[]): TopicDefinition | undefined {
  if (definitions.length === 1) return definitions[0];
  const headers = new Set(columns.map(normal));
  let best: TopicDefinition | undefined;
  let bestCount = 0;
  for (const definition of definitions) {
    const count = Object.values(definition.fields).filter((spec) => headers.has(normal(spec.label))).length;
    if (count > bestCount) [best, bestCount] = [definition, count];
  }
  return best;
}

/** Values beyond what degrees can be (|latitude| > 90 or |longitude| > 180): metres of a grid. */
function looksProjected(sample: readonly SourceRow[], latitude: string, longitude: string): boolean {
  const number = (value: unknown) => (typeof value === 'number' ? value : Number(String(value ?? '').replace(',', '.')));
  return sample.some((row) => Math.abs(number(row.values[latitude])) > 90 || Math.abs(number(row.values[longitude])) > 180);
}

/** The mapping as the file is written: two spaces, a newline at the end. */
export function mappingText(mapping: Mapping): string {
  return `${JSON.stringify(mapping, null, 2)}\n`;
}
