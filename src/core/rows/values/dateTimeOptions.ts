// What convertDateTime is told of a cell's date or time. Its own file, so that convertDateTime.ts
// (which loads dateTimeCell.ts on first use) and dateTimeCell.ts both name it without importing
// each other (test/unit/importCycles.test.ts).

export interface DateTimeOptions {
  kind: 'date' | 'datetime';
  /** A luxon pattern, e.g. "dd.MM.yyyy HH:mm"; default ISO 8601 (and "YYYY-MM-DD HH:MM:SS"). */
  format?: string;
  /** IANA zone of the service's wall-clock times; default "UTC". */
  timezone?: string;
  /** IANA zone of the cells that carry no offset; default `timezone`. */
  inputTimezone?: string;
  /** Which end of an ISO 8601 interval ("2021-05-01/2021-05-03") a cell stands for; without it, an interval is a problem. */
  interval?: 'start' | 'end';
}
