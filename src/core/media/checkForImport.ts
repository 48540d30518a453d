// Everything an import checks before a byte is sent, in one call for the engine, validate and
// --dry-run: the document and its media (checkSpotMedia), then the topic rules (importRules.ts).
import type { TopicRules } from '../import/importRules';
import { topicRuleProblems } from '../import/importRules';
import { checkSpotMedia, type CheckOptions, type SpotMediaCheck } from './checkSpotMedia';

export async function checkSpotForImport(path: string, text: string, options: CheckOptions & TopicRules): Promise<SpotMediaCheck> {
  return withTopicRules(await checkSpotMedia(path, text, options), options);
}

/** A check made without the topic rules (the editor's, as its diagnostics show it), with them added. */
export function withTopicRules(check: SpotMediaCheck, rules: TopicRules): SpotMediaCheck {
  const problems = topicRuleProblems(check.parsed, rules);
  if (problems.length === 0) return check;
  const all = [...check.problems, ...problems];
  return { ...check, problems: all, ok: check.ok && !problems.some((problem) => problem.severity === 'error') };
}
