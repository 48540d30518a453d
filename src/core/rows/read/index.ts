// Reading tables: rows of CSV/TSV (spreadsheet and form-tool exports), GeoJSON FeatureCollections
// and NDJSON as values with the position of every cell, streamed where the format allows. The
// first part of importing rows as spots (issue 21): what the rows say, not what they mean.
export { openTable, previewTable } from './openTable';
export { detectFormat, type FormatDetection } from './detectFormat';
export { TableReadError } from './tableReadError';
export { SAMPLE_BYTES, MAX_ROW_CHARS } from './limits';
export * from './types';
