// Conversions of the cells of a table (CSV, GeoJSON properties) into the values a spot document
// carries: numbers with either decimal separator, coordinates in a coordinate system to WGS 84
// degrees, dates and times into the service's zone, category labels into keys. Each gives a value
// (perhaps with a warning), a problem about the cell, or no value for an empty cell.
export { NO_VALUE, isEmptyCell, type CellResult, type NoValue } from './cellResult';
export { parseNumber, DECIMAL_SEPARATOR_SETTING, type DecimalSeparator } from './parseNumber';
export { parseDegrees } from './parseDegrees';
export { resolveCrs, builtInCodes, gridFileOf, type Crs, type CrsSpec } from './crs';
export { toWgs84, type Wgs84Result } from './toWgs84';
export { checkLatitudeLongitude, latitudeLongitudeProblems, type CoordinateProblem } from './latitudeLongitude';
export { convertDateTime, type DateTimeOptions } from './convertDateTime';
export { categoryKeyOfCell, categoryKeysOfCell } from './categoryCell';
