// Numbers as tables write them: a decimal point or a decimal comma (the file says which; the
// spreadsheets of German-speaking users write "47,2692"), thousands grouped by the other mark, a
// space or an apostrophe ("1.234,5", "1 234,5", "1'234.5"), a sign, an exponent ("1,5E-3").
// The classic mistake is a file of decimal commas read with decimal points, "47,2692" becoming
// 472692: so groups of thousands are read only when they have exactly three digits, and one group
// of the other mark with nothing else ("1.234" in a file of decimal commas, "16,373" in one of
// decimal points) is refused as ambiguous rather than taken as a thousand times the decimal.
import { l10n } from '../../text/l10n';
import { isEmptyCell, NO_VALUE, type CellResult } from './cellResult';

export type DecimalSeparator = '.' | ',';

/** Where a rows source says which decimal separator its file uses: messages name it. */
export const DECIMAL_SEPARATOR_SETTING = 'source.decimalSeparator';

// Marks that group thousands whatever the decimal separator: spaces (plain, no-break, narrow
// no-break, as spreadsheets write them) and apostrophes (Swiss).
const NEUTRAL_GROUP_MARKS = " \u00a0\u202f'\u2019";

const otherSeparator = (decimal: DecimalSeparator): DecimalSeparator => (decimal === '.' ? ',' : '.');
const escape = (marks: string) => marks.replace(/[.\\^\]-]/g, '\\$&');

/** sign, whole part (plain or grouped), the group mark, fraction, exponent. */
function numberPattern(decimal: DecimalSeparator): RegExp {
  const group = `[${escape(otherSeparator(decimal) + NEUTRAL_GROUP_MARKS)}]`;
  return new RegExp(`^([+\\-\u2212]?)(\\d{1,3}(${group})\\d{3}(?:\\3\\d{3})*|\\d*)(?:${escape(decimal)}(\\d+))?(?:[eE]([+-]?\\d+))?$`);
}

const PATTERNS: Record<DecimalSeparator, RegExp> = { '.': numberPattern('.'), ',': numberPattern(',') };

type Reading = { value: number } | { ambiguous: number } | undefined;

function read(text: string, decimal: DecimalSeparator): Reading {
  const match = PATTERNS[decimal].exec(text);
  if (!match) return undefined;
  const [, sign, whole, groupMark, fraction, exponent] = match;
  if (whole === '' && fraction === undefined) return undefined;
  const digits = whole.replace(/\D/g, '');
  const value = Number(`${sign === '' || sign === '+' ? '' : '-'}${digits || '0'}.${fraction ?? '0'}e${exponent ?? '0'}`);
  if (groupMark === otherSeparator(decimal) && fraction === undefined && exponent === undefined && whole.length === digits.length + 1) {
    return { ambiguous: value };
  }
  return { value };
}

/**
 * The number a cell holds, read with the file's decimal separator; an empty cell is no value.
 * Not finite results (an exponent past 1e308) are problems, never Infinity.
 */
export function parseNumber(text: string, decimalSeparator: DecimalSeparator): CellResult<number> {
  if (isEmptyCell(text)) return NO_VALUE;
  const cell = text.trim();
  const reading = read(cell, decimalSeparator);
  if (reading && 'value' in reading) {
    return Number.isFinite(reading.value) ? { value: reading.value } : { problem: l10n.t('{0} is too large a number.', cell) };
  }
  // Only a cell that is not a number gets here: its message is made now, not for every number read.
  // One whole sentence for each separator the file was read with (the other is the one to switch to).
  if (reading) {
    return {
      problem:
        decimalSeparator === ','
          ? l10n.t(
              "{0} is ambiguous with ',' as decimal separator: '.' may group thousands ({1}) or be a decimal point; write {1} without the '.', or if the file uses decimal points, set {2} to '.'.",
              cell,
              reading.ambiguous,
              DECIMAL_SEPARATOR_SETTING,
            )
          : l10n.t(
              "{0} is ambiguous with '.' as decimal separator: ',' may group thousands ({1}) or be a decimal comma; write {1} without the ',', or if the file uses decimal commas, set {2} to ','.",
              cell,
              reading.ambiguous,
              DECIMAL_SEPARATOR_SETTING,
            ),
    };
  }
  if (read(cell, otherSeparator(decimalSeparator))) {
    return {
      problem:
        decimalSeparator === ','
          ? l10n.t("{0} is not a number with ',' as decimal separator; if the file uses decimal points, set {1} to '.'.", cell, DECIMAL_SEPARATOR_SETTING)
          : l10n.t("{0} is not a number with '.' as decimal separator; if the file uses decimal commas, set {1} to ','.", cell, DECIMAL_SEPARATOR_SETTING),
    };
  }
  return { problem: l10n.t('{0} is not a number (e.g. 47{1}2692).', JSON.stringify(cell), decimalSeparator) };
}
