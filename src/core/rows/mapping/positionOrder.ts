// What a mapping's `position` says of the order its cells write the two in, and what to write
// instead when the rows look the other way round: one rule behind the row's message and the
// editor's quick fix (swapCoordinateColumns.ts), so both say the same change.
import { l10n } from '../../text/l10n';
import type { PositionOrder } from '../values/positionOrders';
import { shownCell } from '../values/positionCell';

/** The other order. */
export function otherOrder(order: PositionOrder): PositionOrder {
  return order === 'latitude-longitude' ? 'longitude-latitude' : 'latitude-longitude';
}

/** The `position` member's value for `column` read in `order`: the plain column for the default order. */
export function positionMember(column: string, order: PositionOrder): string {
  return order === 'latitude-longitude' ? JSON.stringify(column) : `{ "column": ${JSON.stringify(column)}, "order": "${order}" }`;
}

/**
 * A row of a position mapping that reads as a place only the other way round (a latitude out of
 * range, hemisphere letters of the other axis, a grid's numbers outside its system, or outside the
 * topic's area): the cell, and the mapping's change that reads it so.
 */
export function positionSwappedMessage(cell: string, column: string, order: PositionOrder): string {
  // Two whole sentences, so a translation names the axes in its own words.
  const member = positionMember(column, otherOrder(order));
  return order === 'latitude-longitude'
    ? l10n.t(
        'position: {0} read latitude first is no place where it should be, the other way round it is: the cells of "{1}" probably write the longitude first; say so in the mapping: "position": {2}.',
        shownCell(cell),
        column,
        member,
      )
    : l10n.t(
        'position: {0} read longitude first is no place where it should be, the other way round it is: the cells of "{1}" probably write the latitude first; say so in the mapping: "position": {2}.',
        shownCell(cell),
        column,
        member,
      );
}
