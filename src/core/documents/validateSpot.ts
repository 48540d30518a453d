// Validation of an already-parsed spot document against the zod schema, as pointer problems.
import { spotDocumentSchema, type SpotDocument } from '../api/spotSchema';
import { toPointer, type Problem } from './problems';

export type SpotValidation = { ok: true; document: SpotDocument } | { ok: false; problems: Problem[] };

export function validateSpotDocument(value: unknown): SpotValidation {
  const result = spotDocumentSchema.safeParse(value);
  if (result.success) return { ok: true, document: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => ({ pointer: toPointer(issue.path), message: describeIssue(issue) })),
  };
}

function describeIssue(issue: { code: string; message: string; path: PropertyKey[] }): string {
  const name = issue.path.length > 0 ? String(issue.path[issue.path.length - 1]) : 'document';
  // zod's wording for a missing member is "expected number, received undefined": say it plainly.
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `${name} is required.`;
  return `${name}: ${issue.message}`;
}
