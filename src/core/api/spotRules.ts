// The ids of the spot rules beyond the schema's types and ranges: stable, as editors and the
// command line report them (Diagnostic.code, SARIF rule ids). Here, beside the spot schema that
// reports some of them, so the schema needs nothing from documents/.
export const SPOT_RULES = {
  /** A member name given twice in one object (reported at the second). */
  duplicateMember: 'spot.duplicateMember',
  /** A gallery field sent as null (pending) while state is not 2. */
  pendingNeedsState2: 'spot.pendingNeedsState2',
  /** A latitude and longitude that swapped would be a position, or one in its area (core/geo/position.ts); for a row, its two cells or columns. */
  swappedCoordinates: 'spot.swappedCoordinates',
  /** topic_id is not the topic the account (profile, project) imports into. */
  accountTopic: 'spot.projectTopic',
  /** A source_id an earlier spot of the run has (reported at the later one's source_id). */
  repeatedSourceId: 'spot.repeatedSourceId',
} as const;
