// The reader's sizes, in one place: how much is read to detect a format, how long a row may be.

/** Bytes read from the start of a file to detect its format, delimiter and decimal separator. */
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
