// When a column's header names a topic field: the header compared with the field's label as
// people write them in forms and spreadsheets, "Species:", " species ", "SPECIES" all being the
// label "Species". The one rule for the proposal (guessMapping) and for the fields a mapping leaves
// to their labels (resolveMapping), so the two never disagree on a label; the proposal also takes
// a header that is the field's name, which it then writes into the mapping.

/** The text a header or label is compared by: trimmed, without a trailing colon, spaces as one, in lower case. */
export function labelKey(text: string): string {
  return text
    .normalize('NFC')
    .trim()
    .replace(/\s*[:：]$/u, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** True when `header` is `label` written another way (case, spacing, a trailing colon). */
export function sameLabel(header: string, label: string): boolean {
  const key = labelKey(label);
  return key !== '' && labelKey(header) === key;
}
