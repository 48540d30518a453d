// What a date or time cell is converted by (convertDateTime.ts): its own file, so the lazily
// loaded dateTimeCell.ts and its loader convertDateTime.ts both use it without importing each other.

export interface DateTimeOptions {
  kind: 'date' | 'datetime';
  /** A luxon pattern, e.g. "dd.MM.yyyy HH:mm"; default ISO 8601 (and "YYYY-MM-DD HH:MM:SS"). */
  format?: string;
  /** IANA zone of the service's wall-clock times; default "UTC". */
  timezone?: string;
  /** IANA zone of the cells that carry no offset; default `timezone`. */
  inputTimezone?: string;
}
