// The mapping file (`trees.mapping.json` beside `trees.csv`): how the rows of a table become spot
// documents. One contract for the core, the command line and the editor: the one zod source the
// core parses it with, and from which the editor's JSON Schema is generated (completion, hovers).
import * as z from '../../api/zod';
import { l10n } from '../../text/l10n';
import { GEOMETRY_RULES, type GeometryRule } from '../values/geometryRules';
import { POSITION_ORDERS, type PositionOrder } from '../values/positionOrders';

export const SOURCE_FORMATS = ['csv', 'tsv', 'geojson', 'ndjson', 'xlsx', 'shapefile', 'photos'] as const;
/** A folder of photos: one spot per photo, or one per subfolder (its photos its gallery). */
const PHOTO_GROUPINGS = ['photo', 'folder'] as const;
export const SOURCE_ENCODINGS = ['utf-8', 'windows-1252', 'windows-1250', 'latin1', 'macintosh', 'utf-16le', 'utf-16be'] as const;
/** In a source_id template, a GeoJSON feature's own `id` member ("osm-{$id}"), which no column holds. */
export const FEATURE_ID = '$id';
/**
 * Cells that mean "no value" in a number, date or boolean column when the mapping names none:
 * what R (NA), Stata (.), spreadsheets (#N/A) and databases (NULL) write for a missing value.
 */
export const DEFAULT_NULL_VALUES = ['NA', 'N/A', 'n/a', '#N/A', '-', '.', 'NULL', 'null', 'NaN'] as const;
/** Types a column can be read as; a topic definition's field type wins where there is one. */
export const CELL_TYPES = ['text', 'number', 'integer', 'boolean', 'date', 'datetime', 'category', 'categories'] as const;

/** A description for the editor's hovers (globalRegistry.add: register() cannot be typed for a generic schema). */
const describe = <T extends z.core.$ZodType>(schema: T, description: string): T => {
  z.globalRegistry.add(schema, { description });
  return schema;
};

// The messages are functions: they are worded when a problem is found, in the language set by then
// (this schema is built when the module loads, before the extension sets its language).
// Column names are read composed (NFC), as the table's header is (columnNames.ts): a mapping typed
// on a Mac may spell "Länge" decomposed.
const column = describe(
  z.string().check(z.regex(/\S/, { error: () => l10n.t('A column name must not be empty.') }), z.normalize('NFC')),
  'A column of the table, by its header (a GeoJSON property, an NDJSON member).',
);
const fromColumn = describe(z.strictObject({ column }), 'The value of this column in each row.');

const sourceSchema = describe(
  z.strictObject({
    format: describe(
      z.optional(z.enum(SOURCE_FORMATS)),
      'csv, tsv, geojson (a FeatureCollection), ndjson (a JSON object per line), xlsx (an Excel workbook: .xlsx, .xlsm), shapefile (.shp with its .dbf) or photos (a folder of geotagged photos). Detected when left out.',
    ),
    delimiter: describe(
      z.optional(z.string().check(z.length(1, { error: () => l10n.t('The delimiter is one character: "," ";" "\\t" "|".') }))),
      'The field delimiter of a CSV. Detected when left out.',
    ),
    quote: describe(
      z.optional(z.enum(['"', ''])),
      'How cells are quoted: "\\"" as in CSV, or "" when a quote is a character like any other (GBIF downloads, Darwin Core\'s fieldsEnclosedBy=""). Detected for tab-separated text when left out; "\\"" otherwise.',
    ),
    decimalSeparator: describe(
      z.optional(z.enum(['.', ','])),
      'How numbers in cells write their decimals: "." or "," (a decimal comma). Detected when left out.',
    ),
    encoding: describe(
      z.optional(z.enum(SOURCE_ENCODINGS)),
      'utf-8 (with or without a byte-order mark), windows-1252, windows-1250 (Central European: Excel in Polish, Czech, Hungarian …), latin1, macintosh (Mac OS Roman: Excel for Mac\'s "CSV (Macintosh)"), utf-16le or utf-16be (a spreadsheet\'s "Unicode text"). Detected when left out.',
    ),
    header: describe(z.optional(z.number().check(z.int(), z.gte(1))), 'The row number of the header (1 unless title rows come first).'),
    sheet: describe(
      z.optional(z.union([z.string().check(z.minLength(1)), z.number().check(z.int(), z.gte(1))])),
      'A workbook: the sheet, by its name or its place (1 is the first). The first sheet when left out.',
    ),
    entry: describe(
      z.optional(z.string().check(z.minLength(1))),
      'An archive (.zip): the entry that is the table, e.g. "layers/baeume.shp". The only one when left out.',
    ),
    group: describe(
      z.optional(z.enum(PHOTO_GROUPINGS)),
      'A folder of photos: "photo" (default) makes one spot of each photo; "folder" one spot of each subfolder (a tree, a plant, a site), its photos in name order its gallery.',
    ),
    nullValues: describe(
      z.optional(z.array(z.string())),
      'Cells that mean "no value" in number, date and boolean columns and coordinates (default ["NA", "N/A", "n/a", "#N/A", "-", ".", "NULL", "null", "NaN"]; [] for none).',
    ),
  }),
  'How the table is written. Each member is detected when left out, and what was detected is reported.',
);

const crsSchema = describe(
  z.union([
    z.string().check(z.regex(/^EPSG:\d+$/, { error: () => l10n.t('crs is "EPSG:<code>", e.g. "EPSG:31256", or { "proj4": "…" }.') })),
    z.strictObject({
      proj4: describe(z.string(), 'A proj4 definition, for a system that is not built in.'),
      name: z.optional(z.string()),
    }),
  ]),
  'The coordinates\' reference system: "EPSG:<code>" (default "EPSG:4326", degrees) or { "proj4": "…" }. A GeoJSON file\'s own crs member (a shapefile\'s .prj) is honoured: an EPSG code given here must name the same system, a proj4 definition is taken as the file\'s. Coordinates are transformed to WGS 84 degrees.',
);

export const fieldMappingSchema = z.union([
  column,
  z.strictObject({
    column: z.optional(column),
    type: describe(z.optional(z.enum(CELL_TYPES)), "How to read the cell (default: the topic definition's type of the field, else text)."),
    values: describe(
      z.optional(z.record(z.string(), z.string())),
      'Cell value → what is sent, for values the cells write their own way ({ "ja": "1", "nein": "0" }). A topic\'s category labels need no entry: they become their keys.',
    ),
    format: describe(z.optional(z.string()), 'The cell\'s date pattern, e.g. "dd.MM.yyyy HH:mm" (default ISO 8601).'),
    interval: describe(
      z.optional(z.enum(['start', 'end'])),
      'A date or datetime column of ISO 8601 intervals ("2021-05-01/2021-05-03", Darwin Core\'s eventDate): the end to send.',
    ),
    timezone: describe(
      z.optional(z.union([z.string(), fromColumn])),
      'The IANA zone of the service\'s wall-clock times (default "UTC"): a cell with an offset is converted to it. { "column": "time_zone" }: each row\'s own zone, an IANA name or a Rails name as iNaturalist writes it ("Buenos Aires").',
    ),
    inputTimezone: describe(
      z.optional(z.union([z.string(), fromColumn])),
      'The IANA zone of cells without an offset (default: timezone), or { "column": "…" } for each row\'s own.',
    ),
    default: describe(z.optional(z.unknown()), 'What is sent when the cell is empty.'),
  }),
]);

export const mediaMappingSchema = z.strictObject({
  columns: describe(
    z.array(column).check(z.minLength(1, { error: () => l10n.t('columns names at least one column.') })),
    'Columns naming photo files, in gallery order.',
  ),
  separator: describe(z.optional(z.string().check(z.minLength(1))), 'Between several file names in one cell (default ";").'),
  folder: describe(z.optional(z.string()), "Where the files are, relative to the mapping file (default: the mapping file's folder)."),
  headers: describe(
    z.optional(
      z.record(
        z.string().check(z.regex(/^[A-Za-z0-9-]+$/, { error: () => l10n.t('A header name is letters, digits and "-", e.g. "Authorization".') })),
        z.strictObject({
          env: describe(
            z.string().check(z.minLength(1)),
            'The environment variable that holds the value on the command line; the editor asks once and keeps it in its secret storage.',
          ),
          host: describe(
            z.string().check(z.minLength(1, { error: () => l10n.t('A login header names the one host it is sent to, e.g. "host": "kf.kobotoolbox.org".') })),
            'The one host it is sent to, e.g. "kf.kobotoolbox.org": a cell naming another host never gets it.',
          ),
        }),
      ),
    ),
    'Photos given by web address that need a login: header → where its value comes from, never the value: { "Authorization": { "env": "KOBO_TOKEN", "host": "kf.kobotoolbox.org" } }. Sent only to that host, never across a redirect to another, never to the spot service.',
  ),
});

export const mappingSchema = z
  .strictObject({
    $schema: z.optional(z.string()),
    source: z.optional(sourceSchema),
    topic_id: describe(z.union([z.number().check(z.int()), fromColumn]), 'The topic of every spot, or { "column": "…" } for a topic per row.'),
    source_id: describe(
      z
        .string()
        .check(
          z.regex(/\{[^{}]+\}/, { error: () => l10n.t('source_id is a template naming at least one column in braces, e.g. "kobo-{_uuid}".') }),
          z.normalize('NFC'),
        ),
      'A template of column names in braces, e.g. "kobo-{_uuid}": each row\'s external id. In a GeoJSON layer, {$id} is each feature\'s own id member.',
    ),
    latitude: describe(z.optional(column), 'The column of the latitude (or, in a projected crs, the northing). GeoJSON: default the Point geometry.'),
    longitude: describe(z.optional(column), 'The column of the longitude (or, in a projected crs, the easting). GeoJSON: default the Point geometry.'),
    wkt: describe(
      z.optional(column),
      'The column of each row\'s place as Well-Known Text, e.g. "POINT (16.3577 48.2048)" (a GIS export\'s or a city\'s SHAPE column), in the crs; instead of latitude and longitude. EWKT\'s "SRID=31256;" must agree with the crs.',
    ),
    position: describe(
      z.optional(
        z.union([
          column,
          z.strictObject({
            column,
            order: describe(
              z.optional(z.enum(POSITION_ORDERS)),
              '"latitude-longitude" (default: "48.2048 16.3577", in a grid the northing first) or "longitude-latitude" for cells that write the longitude first ("16.3577, 48.2048", in a grid the easting first).',
            ),
          }),
        ]),
      ),
      'The column of each row\'s place as latitude and longitude in one cell, latitude first: an ODK or KoBoToolbox geopoint "47.0707 15.4395 350 5" (altitude and accuracy are left out), or "48.2048, 16.3577" as a map copies it; a geotrace or geoshape (points joined by ";") becomes one point by geometry. Instead of latitude and longitude. { "column": "…", "order": "longitude-latitude" } for cells that write the longitude first.',
    ),
    crs: z.optional(crsSchema),
    geometry: describe(
      z.optional(z.enum(GEOMETRY_RULES)),
      'GeoJSON (and a wkt or position column): how a feature that is not a Point becomes one place. "point-only" (default): other geometries are refused (a one-point MultiPoint is its point); "centroid": a line\'s or polygon\'s centroid; "first-point": its first position.',
    ),
    state: describe(z.optional(z.union([z.number().check(z.int()), fromColumn])), '1 active, 2 in progress; or { "column": "…" }.'),
    privacy_type: describe(z.optional(z.union([z.number().check(z.int()), fromColumn])), '0 public, 1 private; or { "column": "…" }.'),
    fields: describe(
      z.optional(z.record(z.string().check(z.regex(/\S/)), fieldMappingSchema)),
      'Attribute name → column (or { "column", "type", "values", "format", "interval", "timezone", "inputTimezone", "default" }). With a topic definition, a column whose header is a field\'s label maps to that field by itself.',
    ),
    media: describe(
      z.optional(
        z.record(z.string().check(z.regex(/^fld_\d+_\d+$/, { error: () => l10n.t('A gallery field is named fld_<number>_<number>.') })), mediaMappingSchema),
      ),
      'Gallery field → the columns that name its photos.',
    ),
  })
  .register(z.globalRegistry, {
    title: 'Spot mapping of a table',
    description:
      'How the rows of a table (CSV, TSV, GeoJSON, NDJSON, XLSX, a shapefile, a ZIP archive, a folder of photos) become spot documents (trees.mapping.json beside trees.csv).',
  });

export type Mapping = z.infer<typeof mappingSchema>;
export type FieldMapping = z.infer<typeof fieldMappingSchema>;
export type MediaMapping = z.infer<typeof mediaMappingSchema>;
export type CellType = (typeof CELL_TYPES)[number];
export type { GeometryRule, PositionOrder };
