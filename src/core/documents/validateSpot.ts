// Validation of an already-parsed spot document against the zod schema, as pointer problems.
import { definitionFor, pendingGalleryFields, pendingGalleryProblems, type GalleryFieldCatalog } from '../api/spotSchema';
import { spotDocumentSchema, type SpotDocument } from '../api/spotDocumentSchema';
import { swapMakesPosition } from '../geo/position';
import { SPOT_RULES, toPointer, type Problem } from './problems';
import { l10n } from '../text/l10n';

/** `pendingGalleries`: the gallery fields set to null (see pendingGalleryFields), with the topic's definition. */
export type SpotValidation = { ok: true; document: SpotDocument; pendingGalleries: string[] } | { ok: false; problems: Problem[] };

export interface SpotRuleOptions {
  /**
   * The topic definitions in effect: a fld_ field a definition types as a gallery is a gallery
   * whatever its value, and a null field of another type is no pending gallery. Without them, a fld_ member
   * set to null is one.
   */
  topics?: GalleryFieldCatalog;
}

export function validateSpotDocument(value: unknown, options: SpotRuleOptions = {}): SpotValidation {
  const result = spotDocumentSchema.safeParse(value);
  const problems: Problem[] = result.success ? [] : result.error.issues.map((issue) => ({ pointer: toPointer(issue.path), message: describeIssue(issue) }));
  // The cross-field rules are checked here rather than as zod refinements, which would need the
  // topic and would run only once every field is valid: the author sees every problem at once.
  const attributes = attributesOf(value);
  if (attributes) markSwapped(attributes, problems);
  const definition = attributes && definitionFor(attributes, options.topics);
  if (attributes) {
    for (const problem of pendingGalleryProblems(attributes, definition)) {
      const pointer = toPointer(['data', 'attributes', ...problem.path]);
      if (problems.some((known) => known.pointer === pointer)) continue;
      problems.push({ pointer, message: describeIssue({ code: 'custom', message: problem.message, path: problem.path }), rule: problem.rule });
    }
  }
  if (!result.success || problems.length > 0) return { ok: false, problems };
  return { ok: true, document: result.data, pendingGalleries: pendingGalleryFields(result.data.data.attributes, definition) };
}

const LATITUDE_POINTER = toPointer(['data', 'attributes', 'latitude']);

/**
 * A latitude out of range beside a longitude that, swapped with it, makes a position: the range
 * problem (the schema's words, which the editor schema shows too) says they are probably swapped,
 * under a rule of its own that the swap quick fix keys on.
 */
function markSwapped(attributes: Record<string, unknown>, problems: Problem[]): void {
  const { latitude, longitude } = attributes;
  if (typeof latitude !== 'number' || typeof longitude !== 'number' || !swapMakesPosition(latitude, longitude)) return;
  const index = problems.findIndex((problem) => problem.pointer === LATITUDE_POINTER);
  if (index < 0) return;
  problems[index] = {
    pointer: LATITUDE_POINTER,
    message: l10n.t('{0}; latitude and longitude are probably swapped.', problems[index].message.replace(/\.$/, '')),
    rule: SPOT_RULES.swappedCoordinates,
  };
}

/** data.attributes when it is an object; undefined for any other document. */
export function attributesOf(value: unknown): Record<string, unknown> | undefined {
  const attributes = (value as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  return typeof attributes === 'object' && attributes !== null && !Array.isArray(attributes) ? (attributes as Record<string, unknown>) : undefined;
}

function describeIssue(issue: { code: string; message: string; path: PropertyKey[] }): string {
  const name =
    issue.path.length > 0
      ? String(issue.path[issue.path.length - 1])
      : l10n.t({
          message: 'document',
          args: [],
          comment: ['Stands where a member\'s name would, in "document: …" and "document is required.", for a problem with the whole spot document.'],
        });
  // The schema's own messages already name the member.
  if (issue.message.includes(name)) return issue.message;
  // zod's wording for a missing member is "expected number, received undefined": say it plainly.
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return l10n.t('{0} is required.', name);
  return `${name}: ${issue.message}`;
}
