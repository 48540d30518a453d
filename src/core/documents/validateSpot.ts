// Validation of an already-parsed spot document against the zod schema, as pointer problems.
import { pendingGalleryProblems, spotDocumentSchema, type SpotDocument } from '../api/spotSchema';
import { toPointer, type Problem } from './problems';

export type SpotValidation = { ok: true; document: SpotDocument } | { ok: false; problems: Problem[] };

export function validateSpotDocument(value: unknown): SpotValidation {
  const result = spotDocumentSchema.safeParse(value);
  if (result.success) return { ok: true, document: result.data };
  const problems: Problem[] = result.error.issues.map((issue) => ({ pointer: toPointer(issue.path), message: describeIssue(issue), ...ruleOf(issue) }));
  // zod runs the cross-field rule only once the fields themselves are valid; report it anyway,
  // so the author sees every problem at once.
  for (const problem of crossFieldProblems(value)) {
    if (!problems.some((known) => known.pointer === problem.pointer)) problems.push(problem);
  }
  return { ok: false, problems };
}

function crossFieldProblems(value: unknown): Problem[] {
  const attributes = (value as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) return [];
  return pendingGalleryProblems(attributes as Record<string, unknown>).map((problem) => ({
    pointer: toPointer(['data', 'attributes', ...problem.path]),
    message: describeIssue({ code: 'custom', message: problem.message, path: problem.path }),
    rule: problem.rule,
  }));
}

/** The rule id a custom issue carries in its params (see spotSchema's superRefine). */
function ruleOf(issue: { code: string }): { rule?: string } {
  const rule = (issue as { params?: { rule?: unknown } }).params?.rule;
  return typeof rule === 'string' ? { rule } : {};
}

function describeIssue(issue: { code: string; message: string; path: PropertyKey[] }): string {
  const name = issue.path.length > 0 ? String(issue.path[issue.path.length - 1]) : 'document';
  // The schema's own messages already name the member.
  if (issue.message.includes(name)) return issue.message;
  // zod's wording for a missing member is "expected number, received undefined": say it plainly.
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `${name} is required.`;
  return `${name}: ${issue.message}`;
}
