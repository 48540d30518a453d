// How many decimals a coordinate the importer works out (rather than reads as a cell writes it)
// keeps: the one rule for transformed, summed and averaged coordinates. Plain numbers in cells are
// not rounded; they are sent as written.

/**
 * Transformed from another system (a grid's metres, a photo's EXIF rationals): 7 decimals of a
 * degree, about a centimetre, more than a transformation or a GPS can claim.
 */
export const TRANSFORMED_DECIMALS = 7;

/**
 * Computed from degrees as written (minutes and seconds summed, a line's or shape's centroid): the
 * arithmetic leaves binary noise (15.049999999999999 for 15.05); ten decimals, about 0.01 mm, drop
 * it and nothing a cell wrote.
 */
export const COMPUTED_DECIMALS = 10;

export function roundCoordinate(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}
