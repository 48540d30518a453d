// The mapping's `geometry` choices, apart from the code that applies them (geometryPoint.ts), so the
// mapping's schema names them without loading the geometry library.

/** How a feature that is not a Point becomes one place (a one-point MultiPoint is always its point). */
export const GEOMETRY_RULES = ['point-only', 'centroid', 'first-point'] as const;
export type GeometryRule = (typeof GEOMETRY_RULES)[number];
