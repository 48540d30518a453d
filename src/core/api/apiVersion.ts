// The version segment of the service's API paths (/api/v2.4/…): the one used when none is given
// (the client, the extension's profiles, the command line) and the shape a given one must have.
// No dependencies: the extension's profile code bundles this at activation without loading the core.

export const DEFAULT_API_VERSION = 'v2.4';

/** v2, v2.4, v2.4.1: a version as it may stand in a request path. */
export const API_VERSION_PATTERN = /^v\d+(?:\.\d+)*$/;
