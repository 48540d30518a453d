// How one line names a document's problems: the first one, and how many more there are. Import
// Spot's error message and the bulk import's per-file reasons both use it.
import { l10n } from '../text/l10n';

/** `fallback`: what a document without a listed problem is told (default: "not a valid spot document."). */
export function describeProblems(problems: ReadonlyArray<{ message: string }>, fallback?: string): string {
  const first = problems[0]?.message ?? fallback ?? l10n.t('not a valid spot document.');
  const more = problems.length - 1;
  if (more < 1) return first;
  return more === 1 ? l10n.t('{0} (and 1 more)', first) : l10n.t('{0} (and {1} more)', first, more);
}
