// Dates in a workbook: a number whose cell's number format shows a date or a time is a date, a
// serial count of days in the workbook's 1900 or 1904 date system (ECMA-376 Part 1, 18.17.4).
// Read as the local date and time the sheet shows, written as ISO 8601 text without a zone, so the
// mapping's `format`, `timezone` and `inputTimezone` apply as they do to a date in a CSV.

/** The built-in number formats that show a date or a time (ECMA-376 Part 1, 18.8.30; 27 to 36 and 50 to 58 are the East Asian ones). */
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

/** Whether a number format shows a date or a time: a built-in one, or a format code with day, month, year, hour or second in it. */
export function isDateFormat(numFmtId: number, formatCode: string | undefined): boolean {
  if (BUILT_IN_DATE_FORMATS.has(numFmtId)) return true;
  if (formatCode === undefined) return false;
  // What is shown as written is not a token: quoted text, an escaped character, a colour or a locale in brackets.
  const tokens = formatCode
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '')
    // Only the first section (positive numbers) decides.
    .split(';')[0];
  return /[dmyhs]/i.test(tokens) && !/^general$/i.test(tokens.trim());
}

/** Whether the format shows a time of day (then a whole-day serial still gets its time). */
function showsTime(formatCode: string | undefined, numFmtId: number): boolean {
  if ([18, 19, 20, 21, 22, 45, 46, 47].includes(numFmtId)) return true;
  return formatCode !== undefined && /[hs]/i.test(formatCode.replace(/"[^"]*"/g, ''));
}

const MS_PER_DAY = 86_400_000;
/** Day 0 of each system, in UTC: the 1900 system's serial 1 is 1900-01-01, and it counts a 29 February 1900 that never was (serial 60). */
const EPOCH_1900 = Date.UTC(1899, 11, 31);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * A serial as the date (and time) it stands for, "2026-11-29" or "2026-11-29T10:41:02", rounded
 * to the second; undefined for a serial no date has (negative, or beyond the year 9999).
 */
export function serialToIso(serial: number, date1904: boolean, numFmtId: number, formatCode: string | undefined): string | undefined {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return undefined;
  let days = Math.floor(serial);
  // Serials after the 1900 system's 29 February (60) are one day ahead of the calendar.
  if (!date1904 && days >= 60) days -= 1;
  if (!date1904 && days === 59 && serial >= 60) return undefined;
  const seconds = Math.round((serial - Math.floor(serial)) * 86_400);
  const ms = (date1904 ? EPOCH_1904 : EPOCH_1900) + days * MS_PER_DAY + seconds * 1000;
  const iso = new Date(ms).toISOString();
  return seconds === 0 && !showsTime(formatCode, numFmtId) && serial === Math.floor(serial) ? iso.slice(0, 10) : iso.slice(0, 19);
}
