// "Did you mean …?": the member an unknown name is most likely a misspelling of. Distances are
// counted without regard to case (State is one edit from state), with a swap of two neighbouring
// letters as one edit (lattiude), and are cut off early: only "within two edits" matters.
import { KNOWN_SPOT_MEMBERS } from './topicSchema';

export const MAX_SUGGESTION_DISTANCE = 2;

/** Edit distance (optimal string alignment), or Infinity once it is certainly above `limit`. */
export function editDistance(a: string, b: string, limit = MAX_SUGGESTION_DISTANCE): number {
  if (a === b) return 0;
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  // Differing only in case is still a different member: one edit.
  if (left === right) return 1;
  if (Math.abs(left.length - right.length) > limit) return Infinity;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) value = Math.min(value, beforePrevious[j - 2] + 1);
      current[j] = value;
      best = Math.min(best, value);
    }
    if (best > limit) return Infinity;
    beforePrevious = previous;
    previous = current;
  }
  return previous[right.length] <= limit ? previous[right.length] : Infinity;
}

/**
 * The one candidate closest to `name` within two edits; undefined when there is none or two are
 * equally close (a guess between two would mislead).
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance && distance !== Infinity) tie = true;
  }
  return tie ? undefined : best;
}

/** The known spot member (state, latitude, …) an unknown member is a misspelling of. */
export function misspeltKnownMember(name: string): string | undefined {
  return closestName(name, KNOWN_SPOT_MEMBERS);
}
