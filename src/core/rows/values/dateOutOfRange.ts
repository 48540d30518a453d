// What is wrong with a date or time whose parts luxon read but which does not exist ("2024-02-30",
// an hour 25), in our words and translated. luxon names the part and its number only in an English
// explanation ("you specified 30 (of type number) as a day, which is invalid", its
// conversions.js), which this reads for them; a wording it does not know still gets a message of ours.
import { l10n } from '../../text/l10n';

const EXPLANATION = /^you specified (\S+) \(of type \w+\) as an? (\w+), which is invalid$/;

/** The problem of `cell`, from luxon's invalidExplanation of its "unit out of range". */
export function dateOutOfRange(cell: string, explanation: string | null): string {
  const quoted = JSON.stringify(cell);
  const [, value, unit] = EXPLANATION.exec(explanation ?? '') ?? [];
  switch (unit) {
    case 'day':
      return l10n.t('{0} is no valid date: its month has no day {1}.', quoted, value);
    case 'month':
      return l10n.t('{0} is no valid date: there is no month {1} (1 to 12).', quoted, value);
    case 'week':
      return l10n.t('{0} is no valid date: its year has no week {1}.', quoted, value);
    case 'weekday':
      return l10n.t('{0} is no valid date: there is no weekday {1} (1 is Monday, 7 Sunday).', quoted, value);
    case 'ordinal':
      return l10n.t('{0} is no valid date: its year has no day {1}.', quoted, value);
    case 'hour':
      return l10n.t('{0} is no valid time: there is no hour {1} (0 to 23).', quoted, value);
    case 'minute':
      return l10n.t('{0} is no valid time: there is no minute {1} (0 to 59).', quoted, value);
    case 'second':
      return l10n.t('{0} is no valid time: there is no second {1} (0 to 59).', quoted, value);
    default:
      return l10n.t('{0} is no valid date: a number in it is out of range.', quoted);
  }
}
