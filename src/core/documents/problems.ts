// A problem found in a spot document, located by a JSON pointer (RFC 6901) so that the editor,
// the sandbox and the command line can all place it.
export interface Problem {
  pointer: string;
  message: string;
  /**
   * The rule that fired, when a tool acts on it (the editor keys quick fixes on it as
   * Diagnostic.code; the command line prints it). Stable ids, listed in SPOT_RULES.
   */
  rule?: string;
}

/** Rule ids of the base document rules that something keys on. */
export const SPOT_RULES = {
  /** A member name given twice in one object (reported at the second). */
  duplicateMember: 'spot.duplicateMember',
  /** A gallery field sent as null (pending) while state is not 2. */
  pendingNeedsState2: 'spot.pendingNeedsState2',
  /** A latitude out of range that, swapped with the longitude, makes a position (core/geo/position.ts). */
  swappedCoordinates: 'spot.swappedCoordinates',
  /** topic_id is not the topic the account (profile, project) imports into. */
  accountTopic: 'spot.projectTopic',
  /** A source_id an earlier spot of the run has (reported at the later one's source_id). */
  repeatedSourceId: 'spot.repeatedSourceId',
} as const;

export function toPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part) => '/' + String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Rule ids for problems that carry none, so every report can name the rule that fired. */
export const FALLBACK_RULES = {
  /** Not JSON, or not strict JSON. */
  syntax: 'spot.syntax',
  /** A member the spot import interface refuses (type, range, required). */
  schema: 'spot.schema',
  /** A problem with the document's media folder or one of its files. */
  media: 'spot.media',
} as const;

/** The rule a problem is reported under: its own, else by what it is about. */
export function ruleOf(problem: { rule?: string; file?: string; syntax?: unknown }): string {
  if (problem.rule) return problem.rule;
  if (problem.file) return FALLBACK_RULES.media;
  return problem.syntax ? FALLBACK_RULES.syntax : FALLBACK_RULES.schema;
}
