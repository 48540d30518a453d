// The quick fix for a table whose rows have their latitude and longitude the wrong way round (a
// surveyor's X is the northing, a form's columns were named crosswise): the mapping's `latitude`
// and `longitude` exchange their columns, each written exactly as it was, the rest of the file
// untouched. A `position` column, whose one cell holds both, gets the other order instead
// (positionOrder.ts). Nothing when the mapping does not name both as columns once nor a position
// column (a GeoJSON layer's geometry is in the file, not the mapping).
import { parseTree, type Node } from 'jsonc-parser';
import type { SpotTextEdit } from '../../documents/textEdits';
import { POSITION_ORDERS, type PositionOrder } from '../values/positionOrders';
import { otherOrder, positionMember } from './positionOrder';

export type CoordinateColumnsSwap =
  | {
      /** The columns as the mapping names them now. */
      latitude: string;
      longitude: string;
      edits: SpotTextEdit[];
    }
  | {
      /** The position column, and the order the edit gives it. */
      position: string;
      order: PositionOrder;
      edits: SpotTextEdit[];
    };

export function swapCoordinateColumns(mappingText: string): CoordinateColumnsSwap | undefined {
  const root = parseTree(mappingText, [], { allowTrailingComma: true });
  if (root?.type !== 'object') return undefined;
  const member = (name: string): Node | undefined => {
    const found = (root.children ?? []).filter((property) => property.children?.[0]?.value === name);
    const value = found.length === 1 ? found[0].children?.[1] : undefined;
    return value?.type === 'string' ? value : undefined;
  };
  const position = positionSwap(root);
  if (position) return position;
  const [latitude, longitude] = [member('latitude'), member('longitude')];
  if (!latitude || !longitude || latitude.value === longitude.value) return undefined;
  const source = (node: Node) => mappingText.slice(node.offset, node.offset + node.length);
  return {
    latitude: String(latitude.value),
    longitude: String(longitude.value),
    edits: [
      { offset: latitude.offset, length: latitude.length, content: source(longitude) },
      { offset: longitude.offset, length: longitude.length, content: source(latitude) },
    ],
  };
}

/** The mapping's `position` (a column, or { "column", "order" }) written in the other order. */
function positionSwap(root: Node): CoordinateColumnsSwap | undefined {
  const found = (root.children ?? []).filter((property) => property.children?.[0]?.value === 'position');
  const value = found.length === 1 ? found[0].children?.[1] : undefined;
  if (!value) return undefined;
  let column: unknown;
  let order: unknown = 'latitude-longitude';
  if (value.type === 'string') column = value.value;
  else if (value.type === 'object') {
    for (const property of value.children ?? []) {
      const [key, item] = property.children ?? [];
      if (key?.value === 'column') column = item?.value;
      else if (key?.value === 'order') order = item?.value;
    }
  }
  if (typeof column !== 'string' || !(POSITION_ORDERS as readonly unknown[]).includes(order)) return undefined;
  const wanted = otherOrder(order as PositionOrder);
  return { position: column, order: wanted, edits: [{ offset: value.offset, length: value.length, content: positionMember(column, wanted) }] };
}
