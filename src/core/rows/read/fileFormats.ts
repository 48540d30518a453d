// Formats in messages, in one place: the tables that are read (the list every "name a table"
// message gives), and the formats people hand over that are known and not read (a KML from
// Google Earth, a GeoPackage, KoBoToolbox's API JSON, …), each with what it is and what to do in
// the tool that made it. Known by the name's extension, and for .json files by their first bytes
// (jsonSniff.ts); an archive's entries by their names (archive/withoutTable.ts). The command line
// and the editor refuse such a file with these words before anything else reads it.
import { l10n } from '../../text/l10n';
import { jsonFileContent, type JsonContent } from './jsonSniff';

/**
 * The tables that are read, for "name …" in a message: every extension of tableNames.ts (a test
 * holds the two together).
 */
export function supportedTables(): string {
  return l10n.t(
    'a CSV or TSV file ({0}), a GeoJSON layer ({1}), an NDJSON file ({2}), an Excel workbook ({3}), a shapefile ({4}), a ZIP archive holding one of these ({5}), or a folder of photos',
    '.csv, .tsv, .tab, .txt, .dat',
    '.geojson, .json',
    '.ndjson, .jsonl, .geojsonl, .geojsons, .json',
    '.xlsx, .xlsm',
    '.shp',
    '.zip',
  );
}

/** The tables read inside an archive: tableNames.ts's ARCHIVE_TABLE_EXTENSIONS but workbooks, which are not read in place (a test holds the two together). */
export function supportedArchiveEntries(): string {
  return l10n.t('a .csv, .tsv, .tab, .geojson, .json, .ndjson, .jsonl, .geojsonl, .geojsons or .shp file');
}

export type UnsupportedFormat = 'kml' | 'kmz' | 'gpx' | 'ods' | 'xls' | 'xlsb' | 'numbers' | 'gpkg' | 'fileGdb' | 'esriJson' | 'koboApi' | 'jsonArray';

interface KnownFormat {
  /** The extensions (without the dot) that name it; none when only the content tells (a .json). */
  extensions: readonly string[];
  /** What it is, as "it is …" goes on: "a KML file (Google Earth, My Maps)". */
  what(): string;
  /** What to do in the tool that made it. */
  advice(): string;
}

const EXPORT_LAYER = () => l10n.t('export the layer as GeoJSON or CSV (in QGIS: Export > Save Features As…)');
const EXPORT_GIS_LAYER = () => l10n.t('export the layer as GeoJSON or a shapefile (in QGIS: Export > Save Features As…)');

/** The formats known and not read. */
const UNSUPPORTED: Readonly<Record<UnsupportedFormat, KnownFormat>> = {
  kml: { extensions: ['kml'], what: () => l10n.t('a KML file (Google Earth, My Maps)'), advice: EXPORT_LAYER },
  kmz: { extensions: ['kmz'], what: () => l10n.t('a KMZ file (zipped KML: Google Earth, My Maps)'), advice: EXPORT_LAYER },
  gpx: {
    extensions: ['gpx'],
    what: () => l10n.t('a GPS track file (GPX)'),
    advice: () => l10n.t('export its waypoints as GeoJSON or CSV (in QGIS: open it, then Export > Save Features As… on its waypoints layer)'),
  },
  ods: {
    extensions: ['ods'],
    what: () => l10n.t('an OpenDocument spreadsheet (LibreOffice Calc)'),
    advice: () => l10n.t('save it as .xlsx or CSV (File > Save As…)'),
  },
  xls: {
    extensions: ['xls'],
    what: () => l10n.t('an Excel 97–2003 workbook (.xls)'),
    advice: () => l10n.t('save it as .xlsx (File > Save As > Excel Workbook) or as CSV'),
  },
  xlsb: {
    extensions: ['xlsb'],
    what: () => l10n.t('an Excel binary workbook (.xlsb)'),
    advice: () => l10n.t('save it as .xlsx (File > Save As > Excel Workbook) or as CSV'),
  },
  numbers: {
    extensions: ['numbers'],
    what: () => l10n.t('an Apple Numbers spreadsheet'),
    advice: () => l10n.t('export it as Excel or CSV (File > Export To)'),
  },
  gpkg: { extensions: ['gpkg'], what: () => l10n.t('a GeoPackage'), advice: EXPORT_GIS_LAYER },
  fileGdb: { extensions: ['gdb'], what: () => l10n.t('an Esri file geodatabase (FileGDB)'), advice: EXPORT_GIS_LAYER },
  esriJson: {
    extensions: [],
    what: () => l10n.t('an ArcGIS layer as Esri JSON (not GeoJSON)'),
    advice: () =>
      l10n.t('export the layer as GeoJSON (in ArcGIS Pro: Features To JSON with "Output to GeoJSON"; from a feature service: query it with f=geojson)'),
  },
  koboApi: {
    extensions: [],
    what: () => l10n.t("a reply of KoBoToolbox's API (JSON)"),
    advice: () => l10n.t('download the export as XLSX or CSV (Project > Data > Downloads)'),
  },
  jsonArray: {
    extensions: [],
    what: () => l10n.t('a JSON array of records'),
    advice: () => l10n.t('save the records as CSV, or as one JSON object per line (.ndjson)'),
  },
};

/** The known format a file's name says, if any (a FileGDB is a folder named .gdb). */
export function unsupportedByName(path: string): UnsupportedFormat | undefined {
  const name = path.replace(/[\\/]+$/, '');
  const dot = name.lastIndexOf('.');
  if (dot < 0 || /[\\/]/.test(name.slice(dot))) return undefined;
  const extension = name.slice(dot + 1).toLowerCase();
  return (Object.keys(UNSUPPORTED) as UnsupportedFormat[]).find((format) => UNSUPPORTED[format].extensions.includes(extension));
}

const BY_CONTENT: Partial<Record<JsonContent, UnsupportedFormat>> = { esriJson: 'esriJson', koboApi: 'koboApi', jsonArray: 'jsonArray' };

/** The known format JSON content is when it is one that is not read. */
export function unsupportedJson(content: JsonContent): UnsupportedFormat | undefined {
  return BY_CONTENT[content];
}

/** The known format of a file not read: by its name, and a .json by its first bytes. */
export function unsupportedFile(path: string): UnsupportedFormat | undefined {
  const byName = unsupportedByName(path);
  if (byName) return byName;
  // A .json named for what it is (a spot document, a mapping, a topic definition) is not looked into.
  if (!/\.json$/i.test(path) || /\.(spot|mapping|topic)\.json$/i.test(path)) return undefined;
  const content = jsonFileContent(path);
  return content && BY_CONTENT[content];
}

/** "it is a KML file (Google Earth, My Maps), a format that is not read: export …": the reason a file of the format is refused. */
export function unsupportedReason(format: UnsupportedFormat): string {
  const known = UNSUPPORTED[format];
  return l10n.t('it is {0}, a format that is not read: {1}', known.what(), known.advice());
}

/** The reason an archive holding `entry` (and no table) is refused: what the entry is, and what to do. */
export function unsupportedEntryReason(entry: string, format: UnsupportedFormat): string {
  const known = UNSUPPORTED[format];
  return l10n.t('the archive holds {0}, {1}, a format that is not read: {2}', entry, known.what(), known.advice());
}
