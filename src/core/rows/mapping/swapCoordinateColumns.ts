// The quick fix for a table whose rows have their latitude and longitude the wrong way round (a
// surveyor's X is the northing, a form's columns were named crosswise): the mapping's `latitude`
// and `longitude` exchange their columns, each written exactly as it was, the rest of the file
// untouched. Nothing when the mapping does not name both as columns once (a GeoJSON layer's
// geometry is in the file, not the mapping).
import { parseTree, type Node } from 'jsonc-parser';
import type { SpotTextEdit } from '../../documents/textEdits';

export interface CoordinateColumnsSwap {
  /** The columns as the mapping names them now. */
  latitude: string;
  longitude: string;
  edits: SpotTextEdit[];
}

export function swapCoordinateColumns(mappingText: string): CoordinateColumnsSwap | undefined {
  const root = parseTree(mappingText, [], { allowTrailingComma: true });
  if (root?.type !== 'object') return undefined;
  const member = (name: string): Node | undefined => {
    const found = (root.children ?? []).filter((property) => property.children?.[0]?.value === name);
    const value = found.length === 1 ? found[0].children?.[1] : undefined;
    return value?.type === 'string' ? value : undefined;
  };
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
