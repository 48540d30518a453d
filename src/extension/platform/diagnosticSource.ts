// The name every diagnostic of the extension carries in the Problems panel (spot documents, topic
// definitions, tables and mappings), so a user can filter by it and tests can tell ours apart.
export const DIAGNOSTIC_SOURCE = 'Spot Import';
