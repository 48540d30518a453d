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
  const key = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
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
  const keys = Object.keys(spec.values);
  const label = (key: string) => spec.values[key].trim().normalize('NFC');
  return keys.find((key) => label(key) === wanted) ?? keys.find((key) => label(key).toLowerCase() === wanted.toLowerCase());
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
