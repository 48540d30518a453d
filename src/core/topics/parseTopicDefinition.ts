// Reads one topic definition file into a definition, or into problems placed on the exact
// characters (jsonc-parser), so a broken file is reported where it is broken and never used.
import { parseCheckedJson, problemAt } from '../documents/checkedJson';
import { TOPIC_RULES, type TopicProblem } from './topicProblem';
import { definitionRuleProblems, topicDefinitionSchema, TOPIC_FIELD_TYPES, type TopicDefinition } from './topicSchema';
import { TOPIC_TOO_DEEP_MESSAGE } from '../documents/nesting';

export interface ParsedTopicDefinition {
  /** The definition when the file has no problem at all. */
  definition?: TopicDefinition;
  problems: TopicProblem[];
}

export function parseTopicDefinition(text: string): ParsedTopicDefinition {
  const checked = parseCheckedJson(text, topicDefinitionSchema, {
    what: 'a topic definition',
    subject: 'The definition',
    tooDeep: TOPIC_TOO_DEEP_MESSAGE,
    rules: { syntax: TOPIC_RULES.definitionSyntax, schema: TOPIC_RULES.definitionSchema },
    choices: TOPIC_FIELD_TYPES.join(', '),
    ownerOf: (path) => (path.length === 2 && path[0] === 'fields' ? 'a field' : undefined),
  });
  // The depth problem is a rule of its own for definitions: the JSON language service, which
  // reports the schema's problems in the editor, says nothing about depth.
  const problems = checked.problems.map((problem) => (problem.message === TOPIC_TOO_DEEP_MESSAGE ? { ...problem, rule: TOPIC_RULES.definitionRule } : problem)) as TopicProblem[];
  if (checked.raw === undefined && problems.length > 0) return { problems };
  for (const rule of definitionRuleProblems(checked.raw)) problems.push(problemAt(checked.root, rule.path, rule.message, TOPIC_RULES.definitionRule, 'key') as TopicProblem);
  if (problems.length > 0 || !checked.value) return { problems };
  return { definition: checked.value, problems: [] };
}
