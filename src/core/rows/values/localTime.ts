// A clock reading without an offset ("2026-03-29 02:30") in a time zone. Usually it is one instant.
// Where the clocks jump forward it is none: the reading lies in the gap and does not exist. Where
// they go back it is two: the reading happens twice. luxon (like JavaScript's Date) settles both
// without a word (shifting a gap's reading forward, taking one of the two), so the candidates are
// worked out here: the reading at each of the offsets in force a day before and a day after,
// kept when the zone has that offset at that instant.
import type { Zone } from 'luxon';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A change of offset: the instant (ms) and the offsets (minutes east of UTC) before and after. */
export interface OffsetChange {
  at: number;
  offsetBefore: number;
  offsetAfter: number;
}

export type LocalTime =
  /** The one instant the reading stands for. */
  | { instant: number }
  /** A reading in the repeated hour: its earlier instant, and the change that repeats it. */
  | { instant: number; repeated: OffsetChange }
  /** A reading the clocks skipped. */
  | { gap: OffsetChange };

/** `wall`: the reading's fields as if they were UTC, in ms (Date.UTC of them). */
export function resolveLocalTime(wall: number, zone: Zone): LocalTime {
  const offsetBefore = zone.offset(wall - DAY);
  const offsetAfter = zone.offset(wall + DAY);
  const instants = [...new Set([offsetBefore, offsetAfter])]
    .map((offset) => ({ offset, instant: wall - offset * MINUTE }))
    .filter(({ offset, instant }) => zone.offset(instant) === offset)
    .map(({ instant }) => instant)
    .sort((a, b) => a - b);
  if (instants.length === 1) return { instant: instants[0] };
  const change = { at: changeInstant(zone, wall, offsetBefore, offsetAfter), offsetBefore, offsetAfter };
  return instants.length === 0 ? { gap: change } : { instant: instants[0], repeated: change };
}

/**
 * When the offset changed, to the millisecond. Read at the larger offset the reading is an instant
 * before the change, at the smaller one an instant after it (in a gap and in a repeated hour
 * alike), so the change lies between the two, at most the difference of the offsets apart.
 */
function changeInstant(zone: Zone, wall: number, offsetBefore: number, offsetAfter: number): number {
  let before = wall - Math.max(offsetBefore, offsetAfter) * MINUTE;
  let after = wall - Math.min(offsetBefore, offsetAfter) * MINUTE;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (zone.offset(middle) === offsetBefore) before = middle;
    else after = middle;
  }
  return after;
}
