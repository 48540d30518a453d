// How many imports may be in flight at once (spots, with or without their media): the bounds and
// the default, for the core's runs, the extension's setting and the command line's flag and
// project file alike. No dependencies: the extension's settings read these at activation without
// loading the core. package.json cannot import them: test/unit/settingsManifest.test.ts holds the
// setting's minimum, maximum and default to these.

export const MIN_CONCURRENCY = 1;
export const MAX_CONCURRENCY = 16;
export const DEFAULT_CONCURRENCY = 4;

/**
 * The number of imports to run at once for a requested value: whole (rounded down) and within
 * the bounds; undefined or NaN is the default.
 */
export function clampConcurrency(requested: number | undefined): number {
  const value = requested === undefined || Number.isNaN(requested) ? DEFAULT_CONCURRENCY : Math.floor(requested);
  return Math.max(MIN_CONCURRENCY, Math.min(MAX_CONCURRENCY, value));
}
