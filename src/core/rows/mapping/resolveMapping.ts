// A mapping made concrete for one table: every default filled in (the coordinates' system, the
// decimal separator the table uses, the folder of the media), every field with the type it is
// read as (the mapping's, else the topic definition's, else text), and the topic's fields its
// labels map by themselves (a column headed "Species" feeds the field labelled Species).
import { dirname, relative, resolve } from 'node:path';
import { isGalleryField } from '../../api/spotSchema';
import { isCategoryField, type CategoryField } from '../../topics/categories';
import { KNOWN_SPOT_MEMBERS, type TopicCatalog, type TopicDefinition } from '../../topics/topicSchema';
import { archiveFolder, archivePhotos } from './archiveMedia';
import { folderPhotos } from './folderPhotos';
import type { PhotoLookup } from './photoLookup';
import { hostOfAddress } from '../../media/remote/photoAddress';
import { columnOfLabel } from './labelKey';
import type { TableArchive } from '../read/types';
import { DEFAULT_NULL_VALUES, type CellType, type GeometryRule, type Mapping, type PositionOrder } from './mappingSchema';

import type { CrsSpec } from '../values';

export interface ResolvedField {
  attribute: string;
  /** The topic definition's label of the field, for messages. */
  label?: string;
  column: string | undefined;
  type: CellType;
  /** The mapping's own table: cell value → what is sent. */
  values?: Record<string, string>;
  /** The topic's categories (key → label), for a category field. */
  categories?: CategoryField;
  format?: string;
  /** Which end of an ISO 8601 interval a date or datetime cell stands for. */
  interval?: 'start' | 'end';
  /** A zone for every row, or the column that gives each row's own. */
  timezone?: string | { column: string };
  inputTimezone?: string | { column: string };
  default?: unknown;
  /** Mapped by the topic field's label, not named in the mapping. */
  byLabel?: boolean;
}

export interface ResolvedMedia {
  field: string;
  columns: string[];
  separator: string;
  /** Absolute. */
  folder: string;
  /** As the mapping wrote it, for messages. */
  folderName: string;
  /** Finds the photo a cell names: in the folder, or in the table's archive below `folderName` (photoLookup.ts). */
  photos: PhotoLookup;
  /** The table was read from this archive: its photos are read from it. */
  archive?: TableArchive;
  /** Headers for photos given by web address, by where their values come from (never the values), and the one host each goes to. */
  headers?: Array<{ name: string; env: string; host: string }>;
}

export interface ResolvedMapping {
  mapping: Mapping;
  /** The mapping file. */
  path: string;
  topic: { id: number } | { column: string };
  /** The topic's definition, when the topic is one number and the catalog has it. */
  definition?: TopicDefinition;
  sourceId: string;
  /** Columns of the coordinates; undefined: the GeoJSON geometry, or the wkt or position column. */
  latitude?: string;
  longitude?: string;
  /** The column of each row's place as WKT (instead of latitude and longitude). */
  wkt?: string;
  /** The column of each row's place as latitude and longitude in one cell (a form tool's geopoint). */
  position?: string;
  /** Which of the two the position cells write first. */
  positionOrder: PositionOrder;
  crs: CrsSpec;
  /** GeoJSON: how a feature that is not a Point becomes one place. */
  geometry: GeometryRule;
  /** Cells read as empty in number, date and boolean columns and coordinates (trimmed, exact case). */
  nullValues: ReadonlySet<string>;
  /** The crs is geographic degrees (EPSG:4326 or 4258): latitude and longitude are read as they are. */
  degrees: boolean;
  state?: number | { column: string };
  privacyType?: number | { column: string };
  decimalSeparator: '.' | ',';
  fields: ResolvedField[];
  media: ResolvedMedia[];
}

export interface ResolveContext {
  columns: readonly string[];
  topics?: TopicCatalog;
  /** The table's own crs (a GeoJSON's legacy crs member). */
  tableCrs?: string;
  decimalSeparator?: '.' | ',';
  /** The table was read from this archive: its photos are read from it too. */
  archive?: TableArchive;
  /** The table is this folder of photos: a mapping without media sends each row's photos (its column photos) into the topic's gallery. */
  photoFolder?: string;
}

/** A header's host as an address has it: "KF.kobotoolbox.org" and "https://kf.kobotoolbox.org/" are kf.kobotoolbox.org. */
function hostOf(given: string): string {
  return hostOfAddress(given.includes('://') ? given : `https://${given}`) ?? given.toLowerCase();
}

const GEOGRAPHIC = new Set(['EPSG:4326', 'EPSG:4258']);

export function resolveMapping(mapping: Mapping, path: string, context: ResolveContext): ResolvedMapping {
  const topic: ResolvedMapping['topic'] = typeof mapping.topic_id === 'number' ? { id: mapping.topic_id } : { column: mapping.topic_id.column };
  const definition = typeof mapping.topic_id === 'number' ? context.topics?.get(mapping.topic_id) : undefined;
  const given = mapping.crs ?? context.tableCrs ?? 'EPSG:4326';
  const crs: CrsSpec = typeof given === 'string' ? (given as CrsSpec) : { proj4: given.proj4 };
  const fields: ResolvedField[] = [];
  for (const [attribute, spec] of Object.entries(mapping.fields ?? {})) {
    const options = typeof spec === 'string' ? { column: spec } : spec;
    const defined = definition && Object.hasOwn(definition.fields, attribute) ? definition.fields[attribute] : undefined;
    fields.push({
      attribute,
      ...(defined ? { label: defined.label } : {}),
      column: options.column,
      type: options.type ?? (defined && defined.type !== 'gallery' ? defined.type : 'text'),
      ...(options.values ? { values: options.values } : {}),
      ...(isCategoryField(defined) ? { categories: defined } : {}),
      ...pick(options, ['format', 'interval', 'timezone', 'inputTimezone', 'default']),
    });
  }
  // The topic's fields that no member of the mapping names, fed by the column headed with their label.
  if (definition) {
    const named = new Set([...fields.map((field) => field.attribute), ...Object.keys(mapping.media ?? {})]);
    const used = new Set(fields.map((field) => field.column));
    for (const [attribute, defined] of Object.entries(definition.fields)) {
      if (named.has(attribute) || defined.type === 'gallery' || KNOWN_SPOT_MEMBERS.includes(attribute)) continue;
      const column = columnOfLabel(context.columns, defined.label);
      if (!column || used.has(column)) continue;
      fields.push({ attribute, label: defined.label, column, type: defined.type, ...(isCategoryField(defined) ? { categories: defined } : {}), byLabel: true });
    }
  }
  const folder = dirname(path);
  const media = Object.entries(mapping.media ?? {})
    .filter(([field]) => isGalleryField(field, definition))
    .map(([field, spec]): ResolvedMedia => ({
      field,
      columns: spec.columns,
      separator: spec.separator ?? ';',
      folder: resolve(folder, spec.folder ?? '.'),
      folderName: spec.folder ?? '.',
      photos: context.archive ? archivePhotos(context.archive, archiveFolder(spec.folder) ?? '') : folderPhotos(resolve(folder, spec.folder ?? '.')),
      ...(context.archive ? { archive: context.archive } : {}),
      ...(spec.headers ? { headers: Object.entries(spec.headers).map(([name, from]) => ({ name, env: from.env, host: hostOf(from.host) })) } : {}),
    }));
  const photos = context.photoFolder !== undefined && mapping.media === undefined ? photoGallery(definition, context.photoFolder, folder) : undefined;
  if (photos) media.push(photos);
  return {
    mapping,
    path,
    topic,
    definition,
    sourceId: mapping.source_id,
    latitude: mapping.latitude,
    longitude: mapping.longitude,
    ...(mapping.wkt !== undefined ? { wkt: mapping.wkt } : {}),
    ...(mapping.position !== undefined ? { position: typeof mapping.position === 'string' ? mapping.position : mapping.position.column } : {}),
    positionOrder: (typeof mapping.position === 'object' && mapping.position.order) || 'latitude-longitude',
    crs,
    degrees: typeof crs === 'string' && GEOGRAPHIC.has(crs),
    geometry: mapping.geometry ?? 'point-only',
    nullValues: new Set(mapping.source?.nullValues ?? DEFAULT_NULL_VALUES),
    state: toNumberOrColumn(mapping.state),
    privacyType: toNumberOrColumn(mapping.privacy_type),
    decimalSeparator: mapping.source?.decimalSeparator ?? context.decimalSeparator ?? '.',
    fields,
    media,
  };
}

/** A folder of photos whose mapping names no media: its rows' photos into the topic's gallery field, when it has one. */
function photoGallery(definition: TopicDefinition | undefined, photoFolder: string, mappingFolder: string): ResolvedMedia | undefined {
  const field = definition ? Object.keys(definition.fields).find((name) => isGalleryField(name, definition)) : undefined;
  if (field === undefined) return undefined;
  return {
    field,
    columns: ['photos'],
    separator: ';',
    folder: photoFolder,
    folderName: relative(mappingFolder, photoFolder) || '.',
    photos: folderPhotos(photoFolder),
  };
}

function toNumberOrColumn(value: Mapping['state']): ResolvedMapping['state'] {
  if (value === undefined) return undefined;
  return typeof value === 'number' ? value : { column: value.column };
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) picked[key] = value[key];
  return picked;
}
