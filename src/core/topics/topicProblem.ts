// Problems of the topic rules: a located problem (offsets into the text, like the spot document's
// own problems) that also names the rule that fired. The rule id is stable: the editor puts it in
// Diagnostic.code (quick fixes key on it) and the command line prints it (JSON, SARIF ruleId,
// GitHub annotations).
import type { LocatedProblem } from '../documents/parseSpotText';
import { SPOT_RULES } from '../documents/problems';

export const TOPIC_RULES = {
  /** A value of the wrong type for its field (a text where a number goes, …). */
  wrongType: 'topic.wrongType',
  /** A category value that is not a key of the field's values. */
  unknownCategory: 'topic.unknownCategory',
  /** A category value that is a label: the key is what must be sent. */
  categoryLabel: 'topic.categoryLabel',
  /** A number outside minimum..maximum. */
  outOfRange: 'topic.outOfRange',
  /** A text longer than maxLength. */
  tooLong: 'topic.tooLong',
  /** A required field missing (reported on "attributes"), or null. */
  requiredMissing: 'topic.requiredMissing',
  /** A gallery field that is neither null (pending) nor a gallery id. */
  invalidGallery: 'topic.invalidGallery',
  /** A spot outside its topic's area (warning); the message says when swapping latitude and longitude brings it in. */
  outsideArea: 'topic.outsideArea',
  /** A member the topic does not define (warning: it is still sent). */
  undefinedField: 'topic.undefinedField',
  /** Any document: a member within two edits of a known member (stat → state). Warning. */
  misspeltMember: 'spot.misspeltMember',
  /** Not raised here: the core's document validation raises these; quick fixes key on them. */
  duplicateMember: SPOT_RULES.duplicateMember,
  pendingNeedsState2: SPOT_RULES.pendingNeedsState2,
  swappedCoordinates: SPOT_RULES.swappedCoordinates,
  /** Problems of a definition file itself. */
  definitionSyntax: 'topicDefinition.syntax',
  definitionSchema: 'topicDefinition.schema',
  /**
   * What the definition's JSON Schema cannot say: minimum > maximum, a spot member as a field, a gallery field not named
   * fld_N_N, the name __proto__, a bbox's south > north or one without width or height.
   */
  definitionRule: 'topicDefinition.rule',
  /** A definition file that cannot be read as text: a link to nothing, not a file, too large, not UTF-8. */
  definitionUnreadable: 'topicDefinition.unreadable',
  /** The same topic_id in two files: the later file (by name) is not used. */
  duplicateTopic: 'topicDefinition.duplicateTopic',
} as const;

export type TopicRule = (typeof TOPIC_RULES)[keyof typeof TOPIC_RULES];

export interface TopicProblem extends LocatedProblem {
  rule: TopicRule;
}
