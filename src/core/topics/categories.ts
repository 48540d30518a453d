// Category values: documents send a key of the field's `values`. The key is written in the
// definition as a JSON member name (a string), and a document may send it as that string or, for
// a numeric key, as the number (1 for "1"); a label ("Oak") is what an author often types instead.
import type { TopicField } from './topicSchema';
import { l10n } from '../text/l10n';

export type CategoryField = Extract<TopicField, { type: 'category' | 'categories' }>;

export function isCategoryField(spec: TopicField | undefined): spec is CategoryField {
  return spec?.type === 'category' || spec?.type === 'categories';
}

/** The key a value stands for, or undefined when it is not one of the keys. */
export function categoryKeyOf(spec: CategoryField, value: unknown): string | undefined {
  // A number stands for its key only when it was read exactly: 12345678901234567890 reads as 12345678901234567000.
  const exact = typeof value === 'number' && Number.isFinite(value) && (Number.isSafeInteger(value) || !Number.isInteger(value));
  const key = typeof value === 'string' ? value : exact ? String(value) : undefined;
  return key !== undefined && Object.hasOwn(spec.values, key) ? key : undefined;
}

/**
 * The key whose label the value is, if any: the label written exactly so first (labels may differ
 * only in case: "r" and "R"), then compared without case; outer spaces and Unicode's two ways of
 * writing an accented letter (NFC) never count.
 */
export function keyOfLabel(spec: CategoryField, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const wanted = value.trim().normalize('NFC');
  if (wanted === '') return undefined;
  const { exact, anyCase } = labelIndex(spec);
  return exact.get(wanted) ?? anyCase.get(wanted.toLowerCase());
}

/** Each field's labels as keys to look up, made once per definition's field (a table looks one up for every cell). */
const labelIndexes = new WeakMap<CategoryField['values'], { exact: Map<string, string>; anyCase: Map<string, string> }>();

function labelIndex(spec: CategoryField): { exact: Map<string, string>; anyCase: Map<string, string> } {
  let index = labelIndexes.get(spec.values);
  if (!index) {
    index = { exact: new Map(), anyCase: new Map() };
    // The first key of a label wins, as a search in key order would find it.
    for (const [key, label] of Object.entries(spec.values)) {
      const text = label.trim().normalize('NFC');
      if (!index.exact.has(text)) index.exact.set(text, key);
      if (!index.anyCase.has(text.toLowerCase())) index.anyCase.set(text.toLowerCase(), key);
    }
    labelIndexes.set(spec.values, index);
  }
  return index;
}

/** How a key is written into a document: a plain whole number as a number, anything else as a string. */
export function categoryKeyLiteral(key: string): string {
  return /^(0|-?[1-9]\d{0,14})$/.test(key) ? key : JSON.stringify(key);
}

/** `1 (Oak), 2 (Beech)`, cut after `limit` entries for long lists. */
export function describeCategoryKeys(spec: CategoryField, limit = 12): string {
  const keys = Object.keys(spec.values);
  const shown = keys.slice(0, limit).map((key) => (spec.values[key] ? `${key} (${spec.values[key]})` : key));
  return keys.length > limit ? l10n.t('{0}, … ({1} more)', shown.join(', '), keys.length - limit) : shown.join(', ');
}
