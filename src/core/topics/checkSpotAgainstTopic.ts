// The topic rules for one spot document: every member of data.attributes against its topic's
// definition (when the catalog has one), and, for every document, the members that look like a
// misspelt known member. Values are judged on the parsed value; positions are worked out only
// when there is something to place, so a clean 1 MB document costs one JSON.parse at most.
import type { Node } from 'jsonc-parser';
import { layoutFromText, layoutFromTree, membersByName, type AttributesLayout } from './attributesLayout';
import { checkFieldValue } from './fieldRules';
import { closestName, misspeltKnownMember } from './suggestMember';
import { TOPIC_RULES, type TopicProblem, type TopicRule } from './topicProblem';
import { fieldTitle, KNOWN_SPOT_MEMBERS, topicTitle, type TopicCatalog, type TopicDefinition, type TopicField } from './topicSchema';
import { TOPIC_FIELD_NAME } from '../api/spotSchema';
import { firstTooDeepInText } from '../documents/nesting';
import { toPointer } from '../documents/problems';
import { describeBbox, isPosition, judgeArea } from '../geo/position';
import { l10n } from '../text/l10n';

/** The document: its text, and what the caller has already parsed of it (saves parsing twice). */
export interface TopicCheckInput {
  text: string;
  /** JSON.parse(text), e.g. ParsedSpotText.value. */
  value?: unknown;
  /** A jsonc-parser tree of text, if the caller has one. */
  tree?: Node;
}

interface Finding {
  /** The member; undefined for a problem about the attributes object itself. */
  member?: string;
  /** Inside the member's value (an element of an array). */
  at?: number[];
  /** Mark the member name rather than its value. */
  onName?: boolean;
  /** A member the problem is about that the attributes do not have. */
  absent?: string;
  message: string;
  rule: TopicRule;
  severity: 'error' | 'warning';
}

export function checkSpotAgainstTopic(input: string | TopicCheckInput, catalog: TopicCatalog): TopicProblem[] {
  const source: TopicCheckInput = typeof input === 'string' ? { text: input } : input;
  const attributes = attributesOf(source);
  if (!attributes) return [];
  const topicId = attributes.topic_id;
  const definition = typeof topicId === 'number' ? catalog.get(topicId) : undefined;
  const findings = definition ? againstDefinition(attributes, definition) : [];
  for (const name of Object.keys(attributes)) {
    if (KNOWN_SPOT_MEMBERS.includes(name) || TOPIC_FIELD_NAME.test(name) || (definition && Object.hasOwn(definition.fields, name))) continue;
    const meant = misspeltKnownMember(name);
    if (meant)
      findings.push({
        member: name,
        onName: true,
        message: l10n.t('{0} is sent as a topic field; did you mean {1}?', name, meant),
        rule: TOPIC_RULES.misspeltMember,
        severity: 'warning',
      });
  }
  if (findings.length === 0) return [];
  return place(findings, source.tree ? layoutFromTree(source.tree) : layoutFromText(source.text), source.text);
}

/**
 * Undefined members that get a "Did you mean …?": each is compared with every field left, so a
 * document of tens of thousands of them against thousands of fields took minutes (the editor
 * checks as it is typed). The rest are said without a guess.
 */
const SUGGESTED_AT_MOST = 200;

function againstDefinition(attributes: Record<string, unknown>, definition: TopicDefinition): Finding[] {
  const findings: Finding[] = [];
  const present = new Set(Object.keys(attributes));
  // The fields a misspelt member may have meant: those the document does not have, listed once.
  let candidates: string[] | undefined;
  let suggested = 0;
  for (const name of present) {
    if (KNOWN_SPOT_MEMBERS.includes(name)) continue;
    const spec = Object.hasOwn(definition.fields, name) ? definition.fields[name] : undefined;
    if (spec) {
      for (const finding of checkFieldValue(name, spec, attributes[name]))
        findings.push({ member: name, at: finding.at, message: finding.message, rule: finding.rule, severity: 'error' });
      continue;
    }
    // A misspelt known member gets its own warning instead (see checkSpotAgainstTopic).
    if (!TOPIC_FIELD_NAME.test(name) && misspeltKnownMember(name)) continue;
    candidates ??= Object.keys(definition.fields).filter((field) => !present.has(field));
    const meant = suggested++ < SUGGESTED_AT_MOST ? closestName(name, candidates) : undefined;
    const message = meant
      ? l10n.t('{0} is not a field of {1}; it is still sent. Did you mean {2}?', name, topicTitle(definition), fieldTitle(meant, definition.fields[meant]))
      : l10n.t('{0} is not a field of {1}; it is still sent.', name, topicTitle(definition));
    findings.push({ member: name, onName: true, message, rule: TOPIC_RULES.undefinedField, severity: 'warning' });
  }
  const area = areaFinding(attributes, definition);
  if (area) findings.push(area);
  for (const [name, spec] of Object.entries(definition.fields)) {
    if (spec.required && !present.has(name)) {
      findings.push({ absent: name, message: requiredByTopicMessage(name, spec, definition), rule: TOPIC_RULES.requiredMissing, severity: 'error' });
    }
  }
  return findings;
}

/**
 * A position outside the topic's area, on its latitude. Only a position is judged: a latitude or
 * longitude out of range is the base rules' error (with its own "probably swapped").
 */
function areaFinding(attributes: Record<string, unknown>, definition: TopicDefinition): Finding | undefined {
  const { latitude, longitude } = attributes;
  if (!definition.area || typeof latitude !== 'number' || typeof longitude !== 'number' || !isPosition(latitude, longitude)) return undefined;
  const verdict = judgeArea(definition.area.bbox, latitude, longitude);
  if (verdict === 'inside') return undefined;
  const area = describeBbox(definition.area.bbox);
  const message =
    verdict === 'swappedInside'
      ? l10n.t(
          'latitude {0}, longitude {1} is outside the area of {2} ({3}); swapped, it is inside: latitude and longitude are probably swapped.',
          latitude,
          longitude,
          topicTitle(definition),
          area,
        )
      : l10n.t('latitude {0}, longitude {1} is outside the area of {2} ({3}).', latitude, longitude, topicTitle(definition), area);
  return { member: 'latitude', message, rule: TOPIC_RULES.outsideArea, severity: 'warning' };
}

/**
 * "Species (fld_7_1) is required by topic 7.": a required field the document lacks. Also how the
 * import knows the problem again (checkForImport.ts), since it names the field only in its words.
 */
export function requiredByTopicMessage(name: string, spec: TopicField, definition: Pick<TopicDefinition, 'topic_id' | 'name'>): string {
  return l10n.t('{0} is required by {1}.', fieldTitle(name, spec), topicTitle(definition));
}

function attributesOf(source: TopicCheckInput): Record<string, unknown> | undefined {
  let value = source.value;
  if (value === undefined) {
    // Too deep to place problems in (see layoutFromText): the parse reports the depth instead.
    if (firstTooDeepInText(source.text) !== undefined) return undefined;
    try {
      value = JSON.parse(source.text);
    } catch {
      // Not JSON: the syntax error is the document's own problem, reported by its parser.
      return undefined;
    }
  }
  const attributes = (value as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  return typeof attributes === 'object' && attributes !== null && !Array.isArray(attributes) ? (attributes as Record<string, unknown>) : undefined;
}

function place(findings: Finding[], layout: AttributesLayout, text: string): TopicProblem[] {
  const members = membersByName(layout);
  return findings.map((finding) => {
    const path: Array<string | number> = ['data', 'attributes', ...(finding.member !== undefined ? [finding.member] : []), ...(finding.at ?? [])];
    const member = finding.member !== undefined ? members.get(finding.member) : undefined;
    let span = layout.key ?? layout.object ?? { offset: 0, length: 0 };
    if (member) {
      const item = finding.at?.length ? member.items?.[finding.at[0]] : undefined;
      span = finding.onName ? member.key : (item ?? member.value);
      // An object or array: only its opening bracket, not the whole block.
      if (!finding.onName && (text[span.offset] === '{' || text[span.offset] === '[')) span = { offset: span.offset, length: 1 };
    }
    const absent = finding.absent !== undefined ? { absent: toPointer(['data', 'attributes', finding.absent]) } : {};
    return {
      pointer: toPointer(path),
      message: finding.message,
      offset: span.offset,
      length: span.length,
      severity: finding.severity,
      rule: finding.rule,
      ...absent,
    };
  });
}
