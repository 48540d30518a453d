// Everything an import checks before a byte is sent, in one call for the engine, validate and
// --dry-run: the document and its media (checkSpotMedia), then the topic rules (importRules.ts).
import type { TopicRules } from '../import/importRules';
import { topicRuleProblems } from '../import/importRules';
import { checkSpotMedia, type CheckOptions, type SpotMediaCheck, type SpotProblem } from './checkSpotMedia';

export async function checkSpotForImport(path: string, text: string, options: CheckOptions & TopicRules, found: readonly SpotProblem[] = []): Promise<SpotMediaCheck> {
  return withTopicRules(await checkSpotMedia(path, text, options), options, found);
}

/** A place is one pair: a source's problem with either coordinate leaves both out, and says why once. */
const COORDINATES = ['/data/attributes/latitude', '/data/attributes/longitude'];

/**
 * A check made without the topic rules (the editor's, as its diagnostics show it), with them
 * added, and the problems the source found while making the document (`found`).
 */
export function withTopicRules(check: SpotMediaCheck, rules: TopicRules, found: readonly SpotProblem[] = []): SpotMediaCheck {
  const problems = [...topicRuleProblems(check.parsed, rules), ...found];
  if (problems.length === 0) return check;
  // What the source found about a member (a cell that is not a number) says more than the base
  // rules' word on the member it then left out ("latitude is required").
  const foundAt = new Set(found.flatMap((problem) => (COORDINATES.includes(problem.pointer) ? COORDINATES : [problem.pointer])));
  const all = [...check.problems.filter((problem) => !foundAt.has(problem.pointer)), ...problems];
  return { ...check, problems: all, ok: check.ok && !problems.some((problem) => problem.severity === 'error') };
}
