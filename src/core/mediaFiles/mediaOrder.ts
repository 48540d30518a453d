// Reordering a gallery's media by hand (drag and drop, Move Up/Down/to Top). The service orders by
// orderWeight (a float, lower first, gaps allowed) and needs only the weights that change. The
// gallery reply does not show the weights (the interface lists only file and mimeType), so they
// are known only when the reply carries them anyway or this client set them: with every weight
// known, only the media that move get a new one, between their neighbours; otherwise every media
// item of the gallery gets one, since a single new weight means nothing against unknown others.
import type { MediaOrderEntry } from '../api/serviceClient';

/** Where moved media go: before or after another media item, or to either end. */
export type MediaPlace = { before: number } | { after: number } | 'top' | 'bottom';

/**
 * The new order with `moving` (in their current relative order) taken out and put at `place`.
 * Unknown ids in `moving` are ignored; a place relative to a moving item keeps that item's spot.
 */
export function moveMediaIds(order: readonly number[], moving: readonly number[], place: MediaPlace): number[] {
  const movingSet = new Set(moving.filter((id) => order.includes(id)));
  if (movingSet.size === 0) return [...order];
  const moved = order.filter((id) => movingSet.has(id));
  const rest = order.filter((id) => !movingSet.has(id));
  let index: number;
  if (place === 'top') index = 0;
  else if (place === 'bottom') index = rest.length;
  else {
    const anchor = 'before' in place ? place.before : place.after;
    if (movingSet.has(anchor)) return [...order];
    const at = rest.indexOf(anchor);
    if (at < 0) return [...order];
    index = 'before' in place ? at : at + 1;
  }
  return [...rest.slice(0, index), ...moved, ...rest.slice(index)];
}

/**
 * One step up or down for one media item (Move Up / Move Down); the order unchanged at the ends.
 */
export function stepMediaId(order: readonly number[], id: number, step: -1 | 1): number[] {
  const index = order.indexOf(id);
  const other = index + step;
  if (index < 0 || other < 0 || other >= order.length) return [...order];
  return moveMediaIds(order, [id], step < 0 ? { before: order[other] } : { after: order[other] });
}

/**
 * The weights to send so the gallery reads in `desired` order. `known`: the weight of each media
 * item as the service has it, when known. With every weight known, the longest run of media
 * whose weights already rise in the wanted order keeps its weights and every other one gets a
 * weight between its neighbours; otherwise every media item gets one (1, 2, 3, …).
 */
export function orderWeightsFor(desired: readonly number[], known: ReadonlyMap<number, number>): MediaOrderEntry[] {
  const complete = desired.every((id) => Number.isFinite(known.get(id)));
  if (!complete) return desired.map((id, index) => ({ id, orderWeight: index + 1 }));
  return weightsToSend(desired, Object.fromEntries(desired.map((id) => [String(id), known.get(id)!])));
}

/**
 * Keeps the longest run of media whose known weights already increase in the wanted order, and
 * gives every other one a weight between its neighbours (lower comes first, gaps are allowed).
 */
export function weightsToSend(desired: readonly number[], known: Readonly<Record<string, number>>): MediaOrderEntry[] {
  const weights = desired.map((id) => known[String(id)]);
  const keep = longestIncreasing(weights);
  const entries: MediaOrderEntry[] = [];
  let previous: number | undefined;
  for (let index = 0; index < desired.length; index++) {
    if (keep.has(index)) {
      previous = weights[index]!;
      continue;
    }
    let next = index + 1;
    while (next < desired.length && !keep.has(next)) next++;
    const upper = next < desired.length ? weights[next]! : undefined;
    const lower = previous ?? (upper === undefined ? 0 : upper - (next - index + 1));
    const weight = upper === undefined ? lower + 1 : lower + (upper - lower) / (next - index + 1);
    entries.push({ id: desired[index], orderWeight: weight });
    previous = weight;
  }
  return entries;
}

/** Indices of a longest strictly increasing subsequence of the known (defined) values. */
function longestIncreasing(values: ReadonlyArray<number | undefined>): Set<number> {
  const tails: number[] = [];
  const parent = new Array<number>(values.length).fill(-1);
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (value === undefined) continue;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (values[tails[middle]]! < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) parent[index] = tails[low - 1];
    tails[low] = index;
  }
  const keep = new Set<number>();
  for (let index = tails.length > 0 ? tails[tails.length - 1] : -1; index >= 0; index = parent[index]) keep.add(index);
  return keep;
}

/** The weights each media item has after `entries` were applied to `known`. */
export function applyOrderWeights(known: ReadonlyMap<number, number>, entries: readonly MediaOrderEntry[]): Map<number, number> {
  const result = new Map(known);
  for (const entry of entries) result.set(entry.id, entry.orderWeight);
  return result;
}
