// How one line names a document's problems: the first one, and how many more there are. Import
// Spot's error message and the bulk import's per-file reasons both use it.

export function describeProblems(problems: ReadonlyArray<{ message: string }>, fallback = 'not a valid spot document.'): string {
  const first = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return `${first?.message ?? fallback}${more}`;
}
