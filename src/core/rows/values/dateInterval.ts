// ISO 8601 time intervals in a date or datetime cell, as Darwin Core's eventDate writes them
// ("2021-05-01/2021-05-03", the end written short as "2021-05-01/03", or with times): the end the
// field's "interval" names, as a cell of its own. Only cells that start with a year are taken for
// intervals, and only without a format pattern, so "4/11/2019" stays a date of its pattern.
import { l10n } from '../../text/l10n';

export type IntervalEnd = 'start' | 'end';

const INTERVAL = /^([+-]?\d{4}[^/]*)\/([^/]+)$/;

/** The cell to read: the cell itself when it is no interval, else the end asked for; a problem when none is asked for or it cannot be had. */
export function intervalEnd(cell: string, interval: IntervalEnd | undefined): { text: string } | { problem: string } {
  const match = INTERVAL.exec(cell);
  if (!match) return { text: cell };
  const [, start, end] = match;
  if (interval === undefined)
    return {
      problem: l10n.t(
        '{0} is a time interval (ISO 8601): set "interval": "start" or "end" in the field\'s mapping to take one end of it.',
        JSON.stringify(cell),
      ),
    };
  const wanted = interval === 'start' ? start : end;
  if (/^P/i.test(wanted))
    return {
      problem: l10n.t('{0}: "interval": "{1}" names a duration ({2}), which is not read; take the other end.', JSON.stringify(cell), interval, wanted),
    };
  return { text: interval === 'start' || /^P/i.test(start) ? wanted : completedEnd(start, end) };
}

/** An end written short takes what it leaves out from the start: "2021-05-01/03" ends 2021-05-03, "2021-05-01T08:00/10:30" at 10:30 that day. */
function completedEnd(start: string, end: string): string {
  const [startDate] = start.split(/[T ]/);
  if (/^\d{2}:\d{2}/.test(end)) return `${startDate}T${end}`;
  const [endDate, ...time] = end.split(/(?=[T ])/);
  if (endDate.length >= startDate.length) return end;
  return startDate.slice(0, startDate.length - endDate.length) + endDate + time.join('');
}
