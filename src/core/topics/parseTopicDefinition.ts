// Reads one topic definition file into a definition, or into problems placed on the exact
// characters (jsonc-parser), so a broken file is reported where it is broken and never used.
import { parseCheckedJson, problemAt } from '../documents/checkedJson';
import { TOPIC_RULES, type TopicProblem } from './topicProblem';
import { definitionRuleProblems, topicDefinitionSchema, TOPIC_FIELD_TYPES, type TopicDefinition } from './topicSchema';
import { topicTooDeepMessage } from '../documents/nesting';
import { l10n } from '../text/l10n';

export interface ParsedTopicDefinition {
  /** The definition when the file has no problem at all. */
  definition?: TopicDefinition;
  problems: TopicProblem[];
}

export function parseTopicDefinition(text: string): ParsedTopicDefinition {
  const checked = parseCheckedJson(text, topicDefinitionSchema, {
    what: l10n.t({
      message: 'a topic definition',
      args: [],
      comment: ['What the file is, in "The file is empty: a topic definition is a JSON object." and "x is not a member of a topic definition."'],
    }),
    subject: l10n.t({
      message: 'The definition',
      args: [],
      comment: ['A topic definition file as a whole, at the start of "The definition must be an object."'],
    }),
    tooDeep: topicTooDeepMessage,
    rules: { syntax: TOPIC_RULES.definitionSyntax, schema: TOPIC_RULES.definitionSchema },
    choices: TOPIC_FIELD_TYPES.join(', '),
    ownerOf: (path) =>
      path.length === 2 && path[0] === 'fields'
        ? l10n.t({ message: 'a field', args: [], comment: ['A field of a topic definition, in "x is not a member of a field."'] })
        : undefined,
  });
  // The depth problem is a rule of its own for definitions: the JSON language service, which
  // reports the schema's problems in the editor, says nothing about depth.
  const tooDeep = checked.problems.length > 0 ? topicTooDeepMessage() : undefined;
  const problems = checked.problems.map((problem) =>
    problem.message === tooDeep ? { ...problem, rule: TOPIC_RULES.definitionRule } : problem,
  ) as TopicProblem[];
  if (checked.raw === undefined && problems.length > 0) return { problems };
  for (const rule of definitionRuleProblems(checked.raw))
    problems.push(problemAt(checked.root, rule.path, rule.message, TOPIC_RULES.definitionRule, 'key') as TopicProblem);
  if (problems.length > 0 || !checked.value) return { problems };
  return { definition: checked.value, problems: [] };
}
