// Everything an import checks before a byte is sent, in one call for the engine, validate and
// --dry-run: the document and its media (checkSpotMedia), then the topic rules (importRules.ts).
import type { TopicRules } from './importRules';
import { topicRuleProblems } from './importRules';
import { fromPointer } from '../documents/problems';
import { attributesOf } from '../documents/validateSpot';
import { TOPIC_RULES } from '../topics/topicProblem';
import { requiredByTopicMessage } from '../topics/checkSpotAgainstTopic';
import { checkSpotMedia, type CheckOptions, type SpotMediaCheck, type SpotProblem } from '../media/checkSpotMedia';
import { withMembers } from '../objects/withMembers';

export async function checkSpotForImport(
  path: string,
  text: string,
  options: CheckOptions & TopicRules,
  found: readonly SpotProblem[] = [],
): Promise<SpotMediaCheck> {
  return withTopicRules(await checkSpotMedia(path, text, options), options, found);
}

/**
 * A check made without the topic rules (the editor's, as its diagnostics show it), with them
 * added, and the problems the source found while making the document (`found`).
 */
export function withTopicRules(check: SpotMediaCheck, rules: TopicRules, found: readonly SpotProblem[] = []): SpotMediaCheck {
  const topicProblems = topicRuleProblems(check.parsed, rules);
  if (topicProblems.length === 0 && found.length === 0) return check;
  // What the source found about a member (a cell that is not a number) says more than the base
  // rules' and the topic's word on the member it then left out ("latitude is required", "Species
  // is required by topic 7"): those are not said next to it.
  const leftOut = new Set(found.flatMap((problem) => [problem.pointer, ...(problem.leftOut ?? [])]));
  const sayNothingOf = requiredOfLeftOut(check, rules, leftOut);
  const problems = [
    ...topicProblems.filter((problem) => !leftOut.has(problem.pointer) && !(problem.rule === TOPIC_RULES.requiredMissing && sayNothingOf.has(problem.message))),
    ...found,
  ];
  const all = [...check.problems.filter((problem) => !leftOut.has(problem.pointer)), ...problems];
  return withMembers(check, { problems: all, ok: check.ok && !problems.some((problem) => problem.severity === 'error') });
}

/**
 * The topic's "… is required by topic N" messages for the required fields among `leftOut`. That
 * problem is placed on the attributes as a whole (it names the field only in its words), so it is
 * known by those words, made here by the function checkSpotAgainstTopic makes them with.
 */
function requiredOfLeftOut(check: SpotMediaCheck, rules: TopicRules, leftOut: ReadonlySet<string>): Set<string> {
  const messages = new Set<string>();
  const topicId = attributesOf(check.parsed.value)?.topic_id;
  const definition = typeof topicId === 'number' ? rules.topics?.get(topicId) : undefined;
  if (!definition) return messages;
  for (const pointer of leftOut) {
    const path = fromPointer(pointer);
    if (path.length !== 3 || path[0] !== 'data' || path[1] !== 'attributes') continue;
    const name = String(path[2]);
    const spec = Object.hasOwn(definition.fields, name) ? definition.fields[name] : undefined;
    if (spec?.required) messages.add(requiredByTopicMessage(name, spec, definition));
  }
  return messages;
}
