// For the command line's tests of rows as spots (test/unit/cliRows*.test.ts): a project folder
// with topic definitions, photos, and tables modelled on real exports (see
// /work/shared/design/data-sources.md), each with its mapping beside it:
// - survey.csv: a KoBoToolbox export (UTF-8 with a byte-order mark, semicolons, decimal commas,
//   CRLF, group paths in the headers, _uuid and _location_latitude/_location_longitude near the
//   end, a note over two lines holding the delimiter), with one row per problem kind;
// - baeume.csv: a German spreadsheet saved as windows-1252 (umlauts, dd.MM.yyyy HH:mm local times
//   in Europe/Vienna, one in the repeated hour, one in the daylight-saving gap);
// - kataster.geojson: a QGIS layer in EPSG:31256 (MGI / Austria GK East) with its legacy crs member.
// Every expected value is written here by hand or computed by independent means (PROJ's cs2cs
// for coordinates, a naive search of the text for positions), never by the code under test.
import * as assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, scratch } from './cliProcess';

export { positionOf } from './tableFiles';

/** Text as windows-1252 bytes: Latin-1 for ä ö ü ß and the like (the tables here need nothing beyond it). */
export function windows1252(text: string): Buffer {
  return Buffer.from([...text].map((char) => (char.charCodeAt(0) < 256 ? char.charCodeAt(0) : assert.fail(`no windows-1252 byte for ${char}`))));
}

/**
 * test/fixtures/topics/project/spot-topics/7.topic.json ("Trail observations"): fld_7_1 Species
 * (category 1 Oak, 2 Beech, 3 Larch; required), fld_7_2 Height (m) (number), fld_7_3 Photos
 * (gallery), fld_7_4 Notes (text), spotted_at Observed at (datetime), …
 */
export const TRAIL_TOPIC = join(ROOT, 'test', 'fixtures', 'topics', 'project', 'spot-topics', '7.topic.json');

/** A tree register in German, whose labels are the spreadsheet's and the GIS layer's headers. */
export const BAUM_TOPIC = {
  topic_id: 12,
  name: 'Baumkataster',
  fields: {
    fld_12_1: { label: 'Baumart', type: 'category', values: { '1': 'Eiche', '2': 'Buche', '3': 'Lärche' }, required: true },
    fld_12_2: { label: 'Höhe (m)', type: 'number', minimum: 0, maximum: 120 },
    fld_12_3: { label: 'Fotos', type: 'gallery' },
    fld_12_4: { label: 'Bemerkung', type: 'text' },
    fld_12_5: { label: 'Beobachtet am', type: 'datetime' },
    fld_12_6: { label: 'Gepflanzt am', type: 'date' },
  },
};

// ---- survey.csv: KoBoToolbox -------------------------------------------------------------

export const KOBO_HEADER = [
  'start',
  'group_obs/species',
  'group_obs/notes',
  'group_obs/height',
  '_location_latitude',
  '_location_longitude',
  'photo_1',
  'photo_2',
  '_id',
  '_uuid',
  '_submission_time',
  '_index',
];

interface KoboRow {
  start?: string;
  species?: string;
  notes?: string;
  height?: string;
  latitude?: string;
  longitude?: string;
  photo1?: string;
  photo2?: string;
  uuid: string;
}

function koboLine(row: KoboRow, index: number): string {
  return [
    row.start ?? '2026-06-03T09:00:00.000+02:00',
    row.species ?? 'Oak',
    row.notes ?? '',
    row.height ?? '4',
    row.latitude ?? '47,2',
    row.longitude ?? '11,3',
    row.photo1 ?? '',
    row.photo2 ?? '',
    String(500 + index),
    row.uuid,
    '2026-06-04T10:00:00',
    String(index + 1),
  ].join(';');
}

/** The rows of survey.csv: three valid ones first, then one per problem kind. */
export const KOBO_ROWS: KoboRow[] = [
  // A note holding the delimiter and a line break; the photos named against name order.
  {
    start: '2026-05-31T13:30:00.000+01:00',
    species: 'Oak',
    notes: '"Am Teich; nass\r\nzweite Zeile"',
    height: '12,5',
    latitude: '47,2692',
    longitude: '11,3933',
    photo1: 'b.jpg',
    photo2: 'a.jpg',
    uuid: 'uuid-1',
  },
  {
    start: '2026-06-01T08:00:00.000+02:00',
    species: 'Beech',
    notes: 'kurz',
    height: '3,25',
    latitude: '47,2701',
    longitude: '11,4012',
    photo1: 'c.jpg',
    uuid: 'uuid-2',
  },
  { start: '2026-06-02T06:15:00.000Z', species: 'Larch', height: '20', latitude: '47,31', longitude: '11,42', uuid: 'uuid-3' },
  // One problem each, from here on.
  { latitude: 'ca. 47,27', uuid: 'uuid-4' },
  { latitude: '47,28', longitude: '200', uuid: 'uuid-5' },
  { latitude: '95', longitude: '-200', uuid: 'uuid-6' },
  { latitude: '165', longitude: '47', uuid: 'uuid-7' },
  { species: 'Beeche', uuid: 'uuid-8' },
  { photo1: 'verloren.jpg', uuid: 'uuid-9' },
  { uuid: '' },
  { uuid: 'uuid-2' },
  // A problem after a quoted cell with the delimiter and a line break: on the row's second line.
  { notes: '"Feld; ""trocken""\r\nam Rand"', height: 'hoch', uuid: 'uuid-12' },
];

/** survey.csv's text (what an editor shows: without the byte-order mark). */
export const KOBO_TEXT = [KOBO_HEADER.join(';'), ...KOBO_ROWS.map(koboLine), ''].join('\r\n');

export const KOBO_MAPPING = {
  topic_id: 7,
  source_id: 'kobo:{_uuid}',
  latitude: '_location_latitude',
  longitude: '_location_longitude',
  fields: {
    fld_7_1: 'group_obs/species',
    fld_7_2: 'group_obs/height',
    fld_7_4: 'group_obs/notes',
    spotted_at: { column: 'start', timezone: 'Europe/Vienna' },
  },
  media: { fld_7_3: { columns: ['photo_1', 'photo_2'], folder: 'photos' } },
};

/** The photos in photos/: distinct bytes, so a gallery's order can be told by content too. */
export const PHOTOS: Record<string, string> = {
  'a.jpg': 'jpeg bytes of a',
  'b.jpg': 'jpeg bytes of b, longer',
  'c.jpg': 'jpeg bytes of c',
  'eiche-1.jpg': 'jpeg bytes of an oak',
};

/** What the valid rows of survey.csv are as spots, by source_id: worked out by hand from KOBO_ROWS. */
export const KOBO_SPOTS: Record<string, Record<string, unknown>> = {
  'kobo:uuid-1': {
    topic_id: 7,
    source_id: 'kobo:uuid-1',
    latitude: 47.2692,
    longitude: 11.3933,
    fld_7_1: 1,
    fld_7_2: 12.5,
    fld_7_4: 'Am Teich; nass\r\nzweite Zeile',
    // 13:30 at +01:00 is 12:30 UTC, 14:30 in Vienna (CEST, +02:00).
    spotted_at: '2026-05-31 14:30:00',
  },
  'kobo:uuid-2': {
    topic_id: 7,
    source_id: 'kobo:uuid-2',
    latitude: 47.2701,
    longitude: 11.4012,
    fld_7_1: 2,
    fld_7_2: 3.25,
    fld_7_4: 'kurz',
    spotted_at: '2026-06-01 08:00:00',
  },
  // An empty note is no value: the field is left out.
  'kobo:uuid-3': { topic_id: 7, source_id: 'kobo:uuid-3', latitude: 47.31, longitude: 11.42, fld_7_1: 3, fld_7_2: 20, spotted_at: '2026-06-02 08:15:00' },
};

/** The photos of each valid row, in gallery order (cell order). */
export const KOBO_PHOTOS: Record<string, string[]> = { 'kobo:uuid-1': ['b.jpg', 'a.jpg'], 'kobo:uuid-2': ['c.jpg'], 'kobo:uuid-3': [] };

// ---- baeume.csv: a German spreadsheet in windows-1252 ---------------------------------------

export const BAEUME_TEXT = [
  'Nr;Baumart;Höhe (m);Beobachtet am;Gepflanzt am;Breite;Länge;Bemerkung;Foto',
  '17;Eiche;12,5;31.05.2026 14:30;01.04.1921;48,2082;16,3738;Große Eiche am Südufer;eiche-1.jpg',
  // In the hour that repeats when the clocks go back (03:00 CEST → 02:00 CET): a warning.
  '18;Buche;3,25;25.10.2026 02:30;15.03.2019;48,2101;16,3801;Buche für Jürgen;',
  // In the hour the clocks skip (02:00 CET → 03:00 CEST): no such time.
  '19;Lärche;8;29.03.2026 02:30;20.11.2001;48,2110;16,3820;Lärche beim Weg;',
  '20;Eiche;5;gestern 14 Uhr;02.02.2002;48,2120;16,3830;;',
  '',
].join('\r\n');

export const BAEUME_MAPPING = {
  topic_id: 12,
  source_id: 'kataster-{Nr}',
  latitude: 'Breite',
  longitude: 'Länge',
  // Baumart, Höhe (m) and Bemerkung are the topic's labels: mapped by themselves.
  fields: {
    fld_12_5: { column: 'Beobachtet am', format: 'dd.MM.yyyy HH:mm', inputTimezone: 'Europe/Vienna', timezone: 'UTC' },
    fld_12_6: { column: 'Gepflanzt am', format: 'dd.MM.yyyy' },
  },
  media: { fld_12_3: { columns: ['Foto'], folder: 'Fotos' } },
};

/** By hand: Vienna is UTC+2 in summer (CEST), so 14:30 is 12:30 UTC; the repeated 02:30 taken at +02:00 is 00:30 UTC. */
export const BAEUME_SPOTS: Record<string, Record<string, unknown>> = {
  'kataster-17': {
    topic_id: 12,
    source_id: 'kataster-17',
    latitude: 48.2082,
    longitude: 16.3738,
    fld_12_1: 1,
    fld_12_2: 12.5,
    fld_12_4: 'Große Eiche am Südufer',
    fld_12_5: '2026-05-31 12:30:00',
    fld_12_6: '1921-04-01',
  },
  'kataster-18': {
    topic_id: 12,
    source_id: 'kataster-18',
    latitude: 48.2101,
    longitude: 16.3801,
    fld_12_1: 2,
    fld_12_2: 3.25,
    fld_12_4: 'Buche für Jürgen',
    fld_12_5: '2026-10-25 00:30:00',
    fld_12_6: '2019-03-15',
  },
};

// ---- kataster.geojson: QGIS, EPSG:31256 -----------------------------------------------------

/**
 * Two trees in MGI / Austria GK East, with WGS 84 degrees from PROJ 9.1.1's cs2cs (the same
 * points test/unit/rowsValues.test.ts checks the conversion with):
 *   echo "-2500 340000" | cs2cs -f %.9f +proj=tmerc +lat_0=0 +lon_0=16.3333333333333 +k=1 +x_0=0 \
 *     +y_0=-5000000 +ellps=bessel +towgs84=577.326,90.129,463.919,5.137,1.474,5.297,2.4232 +units=m \
 *     +no_defs +to +proj=longlat +datum=WGS84          → 16.298505342  48.198403073
 *   echo "-67800 215000" | cs2cs … (the same)           → 15.439596603  47.070634802
 */
export const GEOJSON_TREES = [
  { fid: 1, baumart: 'Eiche', hoehe: 21.5, gepflanzt: '1921-04-01', x: -2500, y: 340000, longitude: 16.298505342, latitude: 48.198403073 },
  { fid: 2, baumart: 'Lärche', hoehe: 30, gepflanzt: '1950-10-10', x: -67800, y: 215000, longitude: 15.439596603, latitude: 47.070634802 },
];

export const GEOJSON_TEXT = [
  '{',
  '"type": "FeatureCollection",',
  '"name": "baeume",',
  '"crs": { "type": "name", "properties": { "name": "urn:ogc:def:crs:EPSG::31256" } },',
  '"features": [',
  GEOJSON_TREES.map(
    (tree) =>
      `{ "type": "Feature", "properties": { "fid": ${tree.fid}, "Baumart": "${tree.baumart}", "Höhe (m)": ${tree.hoehe}, "Gepflanzt am": "${tree.gepflanzt}" }, ` +
      `"geometry": { "type": "Point", "coordinates": [ ${tree.x.toFixed(1)}, ${tree.y.toFixed(1)} ] } }`,
  ).join(',\n'),
  ']',
  '}',
  '',
].join('\n');

export const GEOJSON_MAPPING = { topic_id: 12, source_id: 'qgis-{fid}' };

// ---- the project ------------------------------------------------------------------------

export type Project = ReturnType<typeof scratch>;

/** A folder with spot-topics/ (topics 7 and 12), photos/ and Fotos/, and the three tables with their mappings. */
export function rowsProject(): Project {
  const project = scratch({
    'spot-topics/12.topic.json': JSON.stringify(BAUM_TOPIC, null, 2),
    ...Object.fromEntries(['a.jpg', 'b.jpg', 'c.jpg'].map((name) => [`photos/${name}`, PHOTOS[name]])),
    'Fotos/eiche-1.jpg': PHOTOS['eiche-1.jpg'],
    'survey.csv': `\uFEFF${KOBO_TEXT}`,
    'survey.mapping.json': JSON.stringify(KOBO_MAPPING, null, 2),
    'baeume.mapping.json': JSON.stringify(BAEUME_MAPPING, null, 2),
    'kataster.geojson': GEOJSON_TEXT,
    'kataster.mapping.json': JSON.stringify(GEOJSON_MAPPING, null, 2),
  });
  cpSync(TRAIL_TOPIC, project.path('spot-topics/7.topic.json'));
  writeFileSync(project.path('baeume.csv'), windows1252(BAEUME_TEXT));
  return project;
}
