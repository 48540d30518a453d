// The reader's vocabulary: a table's format, where a cell is, what a row and a table are. Every
// type a caller of src/core/rows/read meets is declared here; the readers only fill them in.
import type { PackedFile } from '../../files/packedFile';

export type SourceFormatName = 'csv' | 'tsv' | 'geojson' | 'ndjson' | 'xlsx' | 'shapefile' | 'photos';

/**
 * The encodings the reader decodes. 'latin1' is ISO-8859-1 proper (every byte is its own code
 * point), unlike a browser's TextDecoder('latin1'), which is windows-1252: the two differ only in
 * 0x80–0x9F, where windows-1252 has € ‚ „ … – — and ISO-8859-1 control characters. Detection never
 * picks 'latin1'. UTF-16 is what a spreadsheet's "Unicode text" export writes (with a byte-order
 * mark); it is found by that mark. 'macintosh' is Mac OS Roman, what Excel for Mac's "CSV
 * (Macintosh)" writes (with lines ending in CR alone). 'windows-1250' is Windows' Central European
 * code page, what Excel in Polish, Czech, Slovak, Hungarian or Slovenian saves.
 */
export type SourceEncoding = 'utf-8' | 'windows-1252' | 'windows-1250' | 'latin1' | 'macintosh' | 'utf-16le' | 'utf-16be';

export interface SourceFormat {
  format: SourceFormatName;
  /** CSV/TSV: the field delimiter, one character (',' ';' '\t' '|' are the ones detected). */
  delimiter?: string;
  /** CSV/TSV: numbers in cells are written with '.' or ',' (a decimal comma). Detected from the first rows' numeric-looking cells. */
  decimalSeparator?: '.' | ',';
  /**
   * CSV/TSV: '"' (the default) quotes a cell, as CSV does; '' makes every quote a character, as
   * GBIF's downloads and Darwin Core's fieldsEnclosedBy="" write them. Tab-separated text: detected.
   */
  quote?: '"' | '';
  /** With or without a byte-order mark; a byte-order mark is never part of the text. */
  encoding?: SourceEncoding;
  /**
   * CSV/TSV: 1-based line number of the header row, default 1; the lines before it (title rows of a
   * spreadsheet export) are skipped unread. A workbook: the sheet's row number of the header.
   */
  header?: number;
  /** A workbook (xlsx): the sheet, by name or 1-based index; the first visible one with values by default. As used: its name. */
  sheet?: string | number;
  /** An archive (.zip): the entry that is the table (a shapefile layer's .shp); the only one by default. */
  entry?: string;
}

/** The format as used: what was given, completed by what was detected. CSV/TSV always have delimiter, decimalSeparator and header. */
export type TableFormat = SourceFormat & Required<Pick<SourceFormat, 'format' | 'encoding'>>;

/**
 * Where something starts in the file, as an editor shows it: 1-based line and column, the column
 * counted in UTF-16 code units, lines ended by LF, CRLF or a lone CR, a byte-order mark not
 * counted. A CSV cell's position is its first character (for a quoted cell, the opening quote; for
 * an empty cell, where it would start). A GeoJSON property's or NDJSON member's position is its
 * value's first character: that is what an editor should underline for a problem with the value.
 */
export interface CellPosition {
  line: number;
  column: number;
}

/** GeoJSON: a feature's geometry as the file has it. */
export interface SourceGeometry {
  type: string;
  /** As in the file (a GeometryCollection has none: its `geometries` are here instead). */
  coordinates: unknown;
  /** Where `coordinates` starts (its '['), or the geometry object's '{' when it has none. */
  position: CellPosition;
}

export interface SourceRow {
  /** 1-based data row number: the first row after the header (CSV/TSV), the first feature, the first object line is 1. */
  row: number;
  /** Line (1-based) of the row's first character (a quoted cell can span lines). */
  line: number;
  /** Values by column name: strings for CSV/TSV (as written, unquoted), JSON values for GeoJSON properties and NDJSON members. */
  values: Record<string, unknown>;
  /** Where each column's value starts in the file. */
  cells: Record<string, CellPosition>;
  /** GeoJSON (and NDJSON lines that are GeoJSON features): the feature's geometry, when it has one (a null geometry is left out). */
  geometry?: SourceGeometry;
  /** A GeoJSON feature without a geometry: where its `null` is, or the feature's own start when it has no such member (a layer may be one line). */
  noGeometryAt?: CellPosition;
  /** GeoJSON: the feature's own `id` member, when it has one. */
  id?: { value: string | number; position: CellPosition };
  /**
   * CSV/TSV: the file ends in this row's last cell, this column's, without a line break, its value
   * shorter than the column's other filled ones (a download cut short leaves it so); `compared` is
   * false when the column had no filled value above to compare with.
   */
  endsUnterminatedIn?: { column: string; compared: boolean };
  /** What the reader took on trust about the row's place (a photo whose GPS tags lack a hemisphere): a warning at the latitude once the place is read. */
  placeWarning?: string;
}

/** A row that could not be read (or, once, why reading stopped early): what is wrong, and where. */
export interface RowReadProblem {
  problem: string;
  line: number;
  column: number;
  /** The data row the problem is about, when it is about one. */
  row?: number;
}

export interface SourceTable {
  path: string;
  /** The format as used: given, or detected. */
  format: TableFormat;
  /** What was guessed rather than given, in words for the user ("delimiter ';' (detected)", "encoding windows-1252 (detected: not valid UTF-8, line 3)"). */
  detected: string[];
  /**
   * Column names in file order. CSV/TSV: the header's cells (an empty one is called "column N",
   * a repeated one gets " (2)", " (3)"…; `detected` says so). GeoJSON: every property name of every
   * feature, in order of first appearance. NDJSON (streamed, so not known whole in advance): the
   * member names of the objects in the file's first 64 KiB; a later row may have more.
   */
  columns: string[];
  /** GeoJSON: the file's own legacy `crs` member as 'EPSG:<code>' when it has one (OGC's CRS84 is 'EPSG:4326'). */
  crs?: string;
  /** A workbook: the names of its sheets, in order (the one read is format.sheet). */
  sheets?: string[];
  /** A workbook: the names of its hidden sheets, which are read only when the mapping names one. */
  hiddenSheets?: string[];
  /** The archive the table was read from (export.zip): the photos its cells name are read from it. */
  archive?: TableArchive;
  /** A shapefile: its .prj (the coordinate system as WKT) and what messages call it; tableCrs (values/prjCrs.ts) reads it. */
  prj?: { text: string; name: string };
  /**
   * The rows are GeoJSON features, each with its geometry (a FeatureCollection; NDJSON whose first
   * 64 KiB hold Feature lines, as GeoJSON text sequences do): latitude and longitude come from it
   * unless the mapping names columns.
   */
  hasGeometry?: boolean;
  /**
   * The rows, read as they are asked for (each call reads the file again from its start): a
   * 100,000-row CSV is never held whole in memory. A row that cannot be read (a wrong number of
   * cells, a line that is not JSON) comes as a RowReadProblem in its place; a problem that stops
   * the reading (an unclosed quote, bytes that are not UTF-8) comes last. Rows whose cells are
   * all empty (a blank line, the `;;;` a spreadsheet leaves below its data) are not rows. Aborting
   * the signal ends the iteration with the core's CancelledError.
   */
  rows(signal?: AbortSignal): AsyncIterable<SourceRow | RowReadProblem>;
}

/** An archive's entries by name, each readable as a file of its own. */
export interface TableArchive {
  names(): string[];
  has(name: string): boolean;
  packed(name: string): PackedFile;
}

export function isRowReadProblem(item: SourceRow | RowReadProblem): item is RowReadProblem {
  return typeof (item as RowReadProblem).problem === 'string';
}
