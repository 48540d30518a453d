// Reading tables: rows of CSV/TSV (spreadsheet and form-tool exports), Excel workbooks, GeoJSON
// FeatureCollections (and lone Features) and NDJSON as values with the position of every cell, streamed where the
// format allows: what the rows say, not what they mean.
export { openTable, previewTable, isWorkbookPath, isArchivePath, archiveWithoutTable } from './openTable';
export { supportedTables, unsupportedFile, unsupportedReason, type UnsupportedFormat } from './fileFormats';
export { jsonFileContent, type JsonContent } from './jsonSniff';
export { cellReference, cellNamer } from './cellReference';
export { detectFormat, type FormatDetection } from './detectFormat';
export { TableReadError } from './tableReadError';
export { SAMPLE_BYTES, MAX_ROW_CHARS } from './limits';
export * from './types';
