// When a column's header names a topic field: the header compared with the field's label as
// people write them in forms and spreadsheets, "Species:", " species ", "SPECIES" all being the
// label "Species", and form tools' group paths ending in it ("group_obs/Species", columnOfLabel),
// Epicollect5's numbered questions ("2_Species") or the label with its unit ("Größe (cm)").
// The one rule for the proposal (guessMapping) and for the fields a mapping leaves
// to their labels (resolveMapping), so the two never disagree on a label; the proposal also takes
// a header that is the field's name, which it then writes into the mapping.
import { recogniseExportTool } from './exportTool';

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

/**
 * The column a label heads: one written with the label; else, as form tools write a question in a
 * group, the one column whose last path segment is the label: KoBoToolbox's "group_obs/Species",
 * ODK Central's "grp-species" (its "-" only in a table ODK Central wrote: elsewhere a hyphen is as
 * likely part of a word, "Baum-Art"); Epicollect5's "2_Species", in a table Epicollect5 wrote; or
 * the one column that is the label (or such a question) with a unit or note in brackets after it,
 * as exports write a question's unit ("Größe (cm)", "Höhe [m]", "group_obs/Height (m)"). Two such
 * columns (one question in two groups, one measure in two units) give none, as which is meant
 * cannot be told. `free`: whether a column may still be taken.
 */
export function columnOfLabel(columns: readonly string[], label: string, free: (column: string) => boolean = () => true): string | undefined {
  const whole = columns.filter((column) => sameLabel(column, label));
  if (whole.length > 0) return whole.find(free);
  const key = labelKey(label);
  if (key === '') return undefined;
  const tool = recogniseExportTool(columns)?.prefix;
  const question = tool === 'ec5-' ? epicollectQuestion : (column: string) => lastSegment(column, tool === 'odk-');
  const ending = columns.filter((column) => {
    const asked = question(column);
    if (asked !== undefined && (labelKey(asked) === key || withoutUnit(asked) === key)) return true;
    // The unit goes first: a "/" in it ("Dichte (kg/m³)") is no group path's.
    const bare = withoutUnit(column);
    const bareAsked = bare === undefined ? undefined : question(bare);
    return bare === key || (bareAsked !== undefined && labelKey(bareAsked) === key);
  });
  return ending.length === 1 && free(ending[0]) ? ending[0] : undefined;
}

/** A header's key without the one unit in brackets at its end ("Höhe [m]", "Höhe: (m)" → "höhe"), or undefined when it has none. */
function withoutUnit(header: string): string | undefined {
  const key = labelKey(header);
  const unit = /\s*(?:\([^()]*\)|\[[^[\]]*\])$/u.exec(key);
  return unit && unit.index > 0 ? labelKey(key.slice(0, unit.index)) : undefined;
}

/** Epicollect5 heads a question's column with its number and its words joined by "_": "2_Species", "5_Tree_height". */
function epicollectQuestion(header: string): string | undefined {
  const numbered = /^\d+_(.+)$/.exec(header);
  return numbered ? numbered[1].replaceAll('_', ' ') : undefined;
}

/** What follows a header's last "/" (or, with `hyphens`, its last "-"), if it has one. */
function lastSegment(header: string, hyphens: boolean): string | undefined {
  const at = Math.max(header.lastIndexOf('/'), hyphens ? header.lastIndexOf('-') : -1);
  return at >= 0 ? header.slice(at + 1) : undefined;
}
