// Places a problem given by a path on the characters it is about, in a jsonc-parser tree: the
// value when it exists, its member name when asked for (an unknown or misspelt member), else the
// nearest member that does exist.
import { findNodeAtLocation, type Node } from 'jsonc-parser';

export interface Span {
  offset: number;
  length: number;
}

export function locateInTree(root: Node, path: ReadonlyArray<string | number>, mark: 'value' | 'key' = 'value'): Span {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(root, path.slice(0, depth) as Array<string | number>);
    if (!node) continue;
    // A missing member, or a member whose name is the point, is marked on the member name.
    const onKey = (depth < path.length || mark === 'key') && node.parent?.type === 'property';
    const target = onKey ? node.parent!.children![0] : node;
    // An object or array as the target would underline the whole block: mark only its opening bracket.
    return { offset: target.offset, length: target.type === 'object' || target.type === 'array' ? 1 : target.length };
  }
  return { offset: 0, length: 0 };
}
