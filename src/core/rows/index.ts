// Rows of tables as a source of spots: read/ reads a table (CSV, TSV, GeoJSON, NDJSON) as rows of
// values with the position of every cell; values/ converts cells (numbers, coordinates, dates,
// categories); mapping/ is the mapping file (how rows become spot documents); rowToSpot makes a
// row's document, rowSource hands rows to the import engine, checkRows checks them all. Loaded on
// first use (dist/rows.js for the extension): its libraries (proj4, luxon) stay out of
// the core that every request loads.
export * from './read';
export * from './values';
export * from './mapping/mappingSchema';
export * from './mapping/readMapping';
export * from './mapping/mappingPath';
export * from './mapping/resolveMapping';
export * from './mapping/guessMapping';
export { previewForMapping } from './mapping/guessSheet';
export { swapCoordinateColumns, type CoordinateColumnsSwap } from './mapping/swapCoordinateColumns';
export { sheetText, type SheetText } from './read/xlsx/sheetText';
export * from './rowToSpot';
export * from './rowSource';
export * from './checkRows';
export { TablesRun } from './tablesRun';
export { TableRows } from './tableRows';
export { rowLooksSwapped } from './rowLooksSwapped';
export * from './mappedTable';
export * from './cellUses';
