// How one line names a document's problems: the first one, and how many more there are. Import
// Spot's error message uses it; the core's bulk import words its per-file reasons the same way.
// No vscode import, so it could move into the core as is.

export function describeProblems(problems: ReadonlyArray<{ message: string }>, fallback = 'not a valid spot document.'): string {
  const first = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return `${first?.message ?? fallback}${more}`;
}
