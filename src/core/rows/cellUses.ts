// What a cell of a row becomes in the spot it stands for: the attributes its value was sent as (a
// cell can feed more than one: a source_id template and a field) and the photos it names. The
// editor's hover on a table's cell says this, so a user sees the value the service will get
// (a category's key, a date in the field's format, degrees from a national grid) before importing.
import { fromPointer } from '../documents/problems';
import type { CellPosition } from './read/types';
import type { RowSpot } from './rowToSpot';

export interface CellUse {
  /** The spot attribute, e.g. "fld_1_2", "latitude". */
  attribute: string;
  /** The value as sent (undefined: the attribute is not sent, its cell has a problem). */
  value: unknown;
}

export interface CellUses {
  attributes: CellUse[];
  /** The photos (paths) the cell names, in the gallery's order. */
  photos: string[];
}

export function usesOfCell(spot: Pick<RowSpot, 'text' | 'cells' | 'files'>, at: CellPosition): CellUses {
  const same = (other: CellPosition) => other.line === at.line && other.column === at.column;
  const sent = JSON.parse(spot.text) as { data: { attributes: Record<string, unknown> } };
  const attributes: CellUse[] = [];
  for (const [pointer, position] of spot.cells) {
    if (!same(position)) continue;
    const path = fromPointer(pointer);
    const attribute = path[path.length - 1];
    attributes.push({ attribute, value: Object.hasOwn(sent.data.attributes, attribute) ? sent.data.attributes[attribute] : undefined });
  }
  const photos = [...spot.files].filter(([, position]) => same(position)).map(([path]) => path);
  return { attributes, photos };
}

/** The cell of a row a position is in: the last one that starts at or before it (cells run to the next one). */
export function cellAt(cells: Readonly<Record<string, CellPosition>>, at: CellPosition): { column: string; position: CellPosition } | undefined {
  let found: { column: string; position: CellPosition } | undefined;
  for (const [column, position] of Object.entries(cells)) {
    const before = position.line < at.line || (position.line === at.line && position.column <= at.column);
    if (!before) continue;
    if (!found || position.line > found.position.line || (position.line === found.position.line && position.column > found.position.column))
      found = { column, position };
  }
  return found;
}
