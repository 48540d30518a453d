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
// The rule ids of the spot schema's own checks live with it (api/spotRules.ts): the schema reports them.
export { SPOT_RULES } from '../api/spotRules';

export function toPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part) => '/' + String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
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
