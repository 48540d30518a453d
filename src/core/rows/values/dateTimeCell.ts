// The work behind convertDateTime (convertDateTime.ts, which loads this file and with it luxon on
// first use). luxon parses the cell (fromISO, fromSQL for the service's own "2026-05-31 14:30:00",
// fromFormat for a pattern) and formats the result; it knows the zones through Intl. It settles
// readings in gaps and repeated hours without a word, so localTime.ts decides those. Month and
// weekday names are read in English, so the result never depends on the machine's locale.
// Seconds' fractions are cut off, not rounded.
import { DateTime, type IANAZone } from 'luxon';
import { l10n } from '../../text/l10n';
import { isDate, isDateTime } from '../../topics/fieldRules';
import { isEmptyCell, NO_VALUE, type CellResult } from './cellResult';
import { dateOutOfRange } from './dateOutOfRange';
import { intervalEnd } from './dateInterval';
import { resolveLocalTime, type OffsetChange } from './localTime';
import { resolveTimeZone } from './timeZone';
import type { DateTimeOptions } from './dateTimeOptions';

const LOCALE = 'en-US';
const MINUTE = 60_000;
const DAY = 86_400_000;
const OUTPUT_FORMAT = { date: 'yyyy-MM-dd', datetime: 'yyyy-MM-dd HH:mm:ss' } as const;
const ISO_EXAMPLES = { date: '2026-05-31', datetime: ['2026-05-31T14:30:00+02:00', '2026-05-31 14:30:00'] } as const;

export function convertDateTime(text: string, options: DateTimeOptions): CellResult<string> {
  if (isEmptyCell(text)) return NO_VALUE;
  const whole = text.trim();
  const end = options.format === undefined ? intervalEnd(whole, options.interval) : { text: whole };
  if ('problem' in end) return end;
  const cell = end.text;
  const output = resolveTimeZone(options.timezone ?? 'UTC', 'timezone');
  if ('problem' in output) return output;
  const input = options.inputTimezone === undefined ? output : resolveTimeZone(options.inputTimezone, 'inputTimezone');
  if ('problem' in input) return input;

  const read = readCell(cell, options);
  if ('problem' in read) return read;
  if (!read.hasTime && options.kind === 'datetime') {
    return { problem: l10n.t('{0} has no time of day; a date and time is expected ({1}).', JSON.stringify(cell), expectedFormat(options)) };
  }
  const instant = read.hasTime ? instantOf(read, input.zone) : undefined;
  if (instant && 'problem' in instant) return instant;
  // A date without a time is that date, as written; anything with a time is its instant in the service's zone.
  const time = instant ? DateTime.fromMillis(instant.at, { zone: output.zone, locale: LOCALE }) : read.parsed;
  const value = time.toFormat(OUTPUT_FORMAT[options.kind]);
  // Years past 9999 (or before 0) are no date the service takes.
  if (!(options.kind === 'date' ? isDate(value) : isDateTime(value))) return { problem: l10n.t('{0} is outside the years 0000–9999.', JSON.stringify(cell)) };
  return instant?.warning === undefined ? { value } : { value, warning: instant.warning };
}

/** The instant a cell with a time stands for: by its own offset, or as a reading of the clocks in `zone`. */
function instantOf({ parsed, hasOffset }: ReadCell, zone: IANAZone): { at: number; warning?: string } | { problem: string } {
  if (hasOffset) return { at: parsed.toMillis() };
  // Without an offset, parsed holds the reading's fields as UTC: its ms are the wall clock's.
  const wall = parsed.toMillis();
  const local = resolveLocalTime(wall, zone);
  if ('gap' in local) {
    const [from, to] = changeClocks(local.gap, wall);
    return { problem: l10n.t('{0} does not exist in {1}: the clocks went from {2} to {3}.', clock(wall, true), zone.name, from, to) };
  }
  if (!('repeated' in local)) return { at: local.instant };
  const offset = DateTime.fromMillis(local.instant, { zone, locale: LOCALE }).toFormat('ZZ');
  const [from, to] = changeClocks(local.repeated, wall);
  const warning = l10n.t(
    '{0} happened twice in {1} (the clocks went back from {2} to {3}); taken as the earlier, at {4}.',
    clock(wall, true),
    zone.name,
    from,
    to,
    offset,
  );
  return { at: local.instant, warning };
}

interface ReadCell {
  /** In the cell's own offset; without one, the cell's fields as UTC. */
  parsed: DateTime;
  hasOffset: boolean;
  hasTime: boolean;
}

function readCell(cell: string, options: DateTimeOptions): ReadCell | { problem: string } {
  const tokens = options.format === undefined ? undefined : formatTokens(options.format);
  if (tokens && !tokens.hasDate) {
    return {
      problem: l10n.t(
        'the format {0} has no year, month and day (e.g. "dd.MM.yyyy HH:mm"); without them the date would be today\'s.',
        JSON.stringify(options.format),
      ),
    };
  }
  const parsed = parse(cell, options.format, 'UTC');
  // ISO 8601 also reads a time alone (today's date), a year or a month (its first day): a date made up.
  if (parsed.isValid && tokens === undefined && !WHOLE_ISO_DATE.test(cell)) {
    return {
      problem: l10n.t('{0} names no whole day: a year, a month and a day are needed ({1}).', JSON.stringify(cell), expectedFormat(options)),
    };
  }
  if (!parsed.isValid) {
    const problem =
      parsed.invalidReason === 'unit out of range'
        ? dateOutOfRange(cell, parsed.invalidExplanation)
        : options.kind === 'date'
          ? l10n.t('{0} is not a date in the expected format ({1}).', JSON.stringify(cell), expectedFormat(options))
          : l10n.t('{0} is not a date and time in the expected format ({1}).', JSON.stringify(cell), expectedFormat(options));
    return { problem };
  }
  // Read against a second default zone: a cell with its own offset keeps it, one without takes the default.
  const hasOffset = parsed.offset !== 0 || parse(cell, options.format, 'UTC+1').offset === 0;
  const hasTime = tokens ? tokens.hasTime : /[T\s]/i.test(cell);
  return { parsed, hasOffset, hasTime };
}

/** A day at the start of an ISO 8601 (or SQL) text: 2026-03-29, 20260329, 2026-W13-7, 2026-088, with a sign and more digits for far years. */
const WHOLE_ISO_DATE = /^[+-]?\d{4,6}(-\d{2}-\d{2}|\d{4}(?!\d)|-?W\d{2}-?\d|-?\d{3})(?!\d)/;

function parse(cell: string, format: string | undefined, zone: string): DateTime {
  const options = { zone, setZone: true, locale: LOCALE };
  if (format !== undefined) return DateTime.fromFormat(cell, format, options);
  const iso = DateTime.fromISO(cell, options);
  if (iso.isValid) return iso;
  // The service's own form ("2026-05-31 14:30:00", a space for the T) when the cell is not ISO; when
  // neither reads it, ISO's reading if it got as far as a part that does not exist ("20240230").
  const sql = DateTime.fromSQL(cell, options);
  return sql.isValid || iso.invalidReason !== 'unit out of range' ? sql : iso;
}

const formats = new Map<string, { hasDate: boolean; hasTime: boolean }>();

/** Which fields a luxon pattern reads (its tokens, with macros such as "D" expanded). */
function formatTokens(format: string): { hasDate: boolean; hasTime: boolean } {
  let found = formats.get(format);
  if (!found) {
    const fields = DateTime.fromFormatExplain('', format, { locale: LOCALE })
      .tokens.filter((token) => !token.literal)
      .map((token) => token.val[0]);
    found = {
      hasDate: ['y', 'd'].every((field) => fields.includes(field)) && (fields.includes('M') || fields.includes('L')),
      hasTime: fields.includes('H') || fields.includes('h'),
    };
    formats.set(format, found);
  }
  return found;
}

/** "dd.MM.yyyy HH:mm, e.g. 31.05.2026 14:30", or the ISO 8601 examples. */
function expectedFormat({ format, kind }: DateTimeOptions): string {
  if (format === undefined)
    return kind === 'date' ? l10n.t('ISO 8601, e.g. {0}', ISO_EXAMPLES.date) : l10n.t('ISO 8601, e.g. {0} or {1}', ...ISO_EXAMPLES.datetime);
  const example = DateTime.fromObject({ year: 2026, month: 5, day: 31, hour: 14, minute: 30 }, { zone: 'UTC', locale: LOCALE });
  return l10n.t('{0}, e.g. {1}', format, example.toFormat(format));
}

/** A wall-clock reading held as UTC ms: "2026-03-29 02:30" or "02:30", with seconds only when there are some. */
function clock(wall: number, withDate: boolean): string {
  const time = DateTime.fromMillis(wall, { zone: 'UTC', locale: LOCALE });
  return time.toFormat(`${withDate ? 'yyyy-MM-dd ' : ''}HH:mm${time.second === 0 ? '' : ':ss'}`);
}

/** ["02:00", "03:00"]: the clocks at the change, read before and after it (with dates when not on `wall`'s day). */
function changeClocks(change: OffsetChange, wall: number): [string, string] {
  const from = change.at + change.offsetBefore * MINUTE;
  const to = change.at + change.offsetAfter * MINUTE;
  const withDate = ![from, to].every((reading) => Math.floor(reading / DAY) === Math.floor(wall / DAY));
  return [clock(from, withDate), clock(to, withDate)];
}
