// "New Topic Definition from Document": a first definition file inferred from one document, with
// the types its values show and empty labels, for the author to complete. What a value cannot
// tell (a number that is really a category key) is the author's to correct.
import { TOPIC_FIELD_NAME } from '../api/spotSchema';
import { DATE_PATTERN, DATETIME_PATTERN } from './fieldRules';
import { KNOWN_SPOT_MEMBERS, type TopicField } from './topicSchema';
import { l10n } from '../text/l10n';

export type InferredDefinition = { ok: true; topicId: number; text: string } | { ok: false; reason: string };

export function inferTopicDefinition(document: string | unknown): InferredDefinition {
  let value = document;
  if (typeof document === 'string') {
    try {
      value = JSON.parse(document);
    } catch {
      return { ok: false, reason: l10n.t('The document is not valid JSON.') };
    }
  }
  const attributes = (value as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes))
    return { ok: false, reason: l10n.t('The document has no data.attributes object.') };
  const topicId = (attributes as Record<string, unknown>).topic_id;
  if (typeof topicId !== 'number' || !Number.isInteger(topicId)) return { ok: false, reason: l10n.t('The document has no whole-number topic_id.') };
  const fields: Record<string, TopicField> = {};
  for (const [name, field] of Object.entries(attributes as Record<string, unknown>)) {
    if (KNOWN_SPOT_MEMBERS.includes(name)) continue;
    fields[name] = inferField(name, field);
  }
  const definition = { topic_id: topicId, name: '', fields };
  return { ok: true, topicId, text: JSON.stringify(definition, null, 2) + '\n' };
}

function inferField(name: string, value: unknown): TopicField {
  const label = '';
  if (value === null) {
    // null: a pending gallery by the rule without definitions (fld_ names); else nothing to go by.
    return TOPIC_FIELD_NAME.test(name) ? { type: 'gallery', label } : { type: 'text', label };
  }
  if (typeof value === 'boolean') return { type: 'boolean', label };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number', label };
  if (typeof value === 'string') {
    if (DATETIME_PATTERN.test(value)) return { type: 'datetime', label };
    if (DATE_PATTERN.test(value)) return { type: 'date', label };
    return { type: 'text', label };
  }
  if (Array.isArray(value) && value.every((element) => typeof element === 'string' || typeof element === 'number')) {
    const keys = [...new Set(value.map(String))];
    return { type: 'categories', label, values: Object.fromEntries((keys.length > 0 ? keys : ['1']).map((key) => [key, ''])) };
  }
  return { type: 'text', label, description: 'Could not infer the type from the value (an object or a mixed array).' };
}
