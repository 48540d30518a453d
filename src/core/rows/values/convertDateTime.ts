// Dates and times of a table's cells to what the service takes: "YYYY-MM-DD" for a date field,
// "YYYY-MM-DD HH:MM:SS" for a datetime field, as wall-clock time in the service's zone
// (`timezone`). A cell with an offset ("2026-05-31T14:30:00Z", "…+02:00") is that instant; one
// without is a reading of the clocks in `inputTimezone` (by default `timezone`). A reading the
// clocks skipped (in a daylight-saving gap) is refused; one they showed twice (in the hour that
// repeats when they go back) is taken at the EARLIER of its two instants, the offset in force
// before the change, with a warning the caller may show. A date-only cell for a date field is
// that date, in no zone; for a datetime field it is refused (which midnight would be a guess).
//
// Without `format` a cell is ISO 8601 ("2026-05-31", "2026-05-31T14:30", offsets, week and
// ordinal dates) or the service's own "2026-05-31 14:30:00". A `format` is a luxon pattern such as
// "dd.MM.yyyy HH:mm" (https://moment.github.io/luxon/#/parsing?id=table-of-tokens).
//
// The work is in dateTimeCell.ts, loaded on the first call: luxon takes a few milliseconds to
// load, which a process that converts no dates should not pay.
import type { CellResult } from './cellResult';
import type * as DateTimeCell from './dateTimeCell';
import type { DateTimeOptions } from './dateTimeOptions';

export type { DateTimeOptions } from './dateTimeOptions';

let dateTimeCell: typeof DateTimeCell | undefined;

export function convertDateTime(text: string, options: DateTimeOptions): CellResult<string> {
  dateTimeCell ??= require('./dateTimeCell') as typeof DateTimeCell;
  return dateTimeCell.convertDateTime(text, options);
}
