// The topic rules every import applies, in one place for the editor's three imports, spot-import
// import, validate and --dry-run: the account's topic (a profile's topic, the project's "topic" of
// spot-import.json or --topic: a document of another topic_id is refused) and the topic
// definitions in effect (their errors refuse a document; their warnings go along with it).
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { attributesOf } from '../documents/validateSpot';
import { SPOT_RULES } from '../documents/problems';
import type { LocatedProblem, ParsedSpotText } from '../documents/parseSpotText';
import { checkSpotAgainstTopic } from '../topics/checkSpotAgainstTopic';
import type { TopicCatalog } from '../topics/topicSchema';
import { l10n } from '../text/l10n';

/** The topic an account imports into, and how a message names who says so. */
export interface AccountTopic {
  topicId: number;
  /** Completes "… but {owner} imports into topic N": e.g. `profile "Field team"`, `this project`. */
  owner: string;
  /** Where that is set, said after the topic: e.g. `the "topic" of spot-import.json or --topic`. */
  setIn?: string;
}

export interface TopicRules {
  /** The account's topic: a document of another topic_id is refused. */
  topic?: AccountTopic;
  /** The topic definitions in effect (the workspace's spot-topics/, the command line's --topics). */
  topics?: TopicCatalog;
}

/** The problems of the topic rules; none for text that is not JSON at all (the base rules say so). */
export function topicRuleProblems(parsed: Pick<ParsedSpotText, 'text' | 'value'>, rules: TopicRules): LocatedProblem[] {
  if (parsed.value === undefined) return [];
  const problems: LocatedProblem[] = [];
  // Any JSON value: null and arrays included.
  const topicId = attributesOf(parsed.value)?.topic_id;
  if (rules.topic && typeof topicId === 'number' && topicId !== rules.topic.topicId) problems.push(accountTopicProblem(parsed.text, topicId, rules.topic));
  if (rules.topics) problems.push(...checkSpotAgainstTopic({ text: parsed.text, value: parsed.value }, rules.topics));
  return problems;
}

function accountTopicProblem(text: string, actual: number, expected: AccountTopic): LocatedProblem {
  const node = findNodeAtLocation(parseTree(text) ?? { type: 'null', offset: 0, length: 0 }, ['data', 'attributes', 'topic_id']);
  return {
    pointer: '/data/attributes/topic_id',
    message: expected.setIn
      ? l10n.t('topic_id is {0}, but {1} imports into topic {2} ({3}).', actual, expected.owner, expected.topicId, expected.setIn)
      : l10n.t('topic_id is {0}, but {1} imports into topic {2}.', actual, expected.owner, expected.topicId),
    offset: node?.offset ?? 0,
    length: node?.length ?? 0,
    severity: 'error',
    rule: SPOT_RULES.accountTopic,
  };
}
