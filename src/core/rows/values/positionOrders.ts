// The mapping's `position` orders, apart from the code that reads the cells (positionCell.ts), so
// the mapping's schema names them without importing the reader, as geometryRules.ts does for geometry.

/** Which of the two a `position` cell writes first (in a grid: the northing or the easting). */
export const POSITION_ORDERS = ['latitude-longitude', 'longitude-latitude'] as const;
export type PositionOrder = (typeof POSITION_ORDERS)[number];
