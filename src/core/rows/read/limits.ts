// The reader's sizes, in one place: how much is read to detect a format, how long a row may be.

/**
 * Bytes read from the start of a file to detect its format, delimiter and decimal separator. A
 * sample with fewer than two whole lines in it grows (twice as long each time) up to
 * MAX_SAMPLE_BYTES: a long survey's header of group paths is wider than this.
 */
export const SAMPLE_BYTES = 64 * 1024;

/** Data rows of that sample the decimal separator and the delimiter's consistency are judged on. */
export const SAMPLE_ROWS = 50;

/** Bytes read from disk at a time while rows stream. */
export const READ_CHUNK_BYTES = 64 * 1024;

/**
 * The longest row, in characters. A longer CSV row
 * is almost always a quote that is never closed, swallowing the rest of the file; without a limit
 * it would be held in memory whole.
 */
export const MAX_ROW_CHARS = 1024 * 1024;

/** The most a sample grows to: a row of MAX_ROW_CHARS in UTF-8 (up to 3 bytes a character), and then some. */
export const MAX_SAMPLE_BYTES = 4 * MAX_ROW_CHARS;

/** A workbook's rows looked at for its header when the mapping names none: a report's title block is a few rows, never this many. */
export const HEADER_SEARCH_ROWS = 20;

/** The widest merged header cell whose columns are named after it: a wider one is a title across the sheet, not a group of columns. */
export const MERGED_HEADER_COLUMNS = 256;
