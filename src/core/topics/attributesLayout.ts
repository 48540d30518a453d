// Where each member of data.attributes is in the text: its name, its value, and the elements of
// an array value. Built in one pass of jsonc-parser's visitor (no tree of the whole document, which
// for a 1 MB spot costs several times more), or read off a tree the caller already has. Problems,
// inlay hints and quick fixes all place themselves with it.
import { findNodeAtLocation, visit, type Node } from 'jsonc-parser';
import type { Span } from '../documents/locate';
import { firstTooDeepInText } from '../documents/nesting';

export interface MemberLayout {
  name: string;
  key: Span;
  value: Span;
  /** The elements of an array value. */
  items?: Span[];
}

export interface AttributesLayout {
  /** The "attributes" member name; undefined when there is no data.attributes. */
  key?: Span;
  /** The attributes object, braces included. */
  object?: Span;
  /** In document order; a duplicated name appears twice. */
  members: MemberLayout[];
}

export function layoutFromTree(root: Node): AttributesLayout {
  const object = findNodeAtLocation(root, ['data', 'attributes']);
  if (!object || object.type !== 'object' || object.parent?.type !== 'property') return { members: [] };
  const keyNode = object.parent.children![0];
  const members: MemberLayout[] = [];
  for (const property of object.children ?? []) {
    const [name, value] = property.children ?? [];
    if (!name || !value) continue;
    const member: MemberLayout = { name: String(name.value), key: span(name), value: span(value) };
    if (value.type === 'array') member.items = (value.children ?? []).map(span);
    members.push(member);
  }
  return { key: span(keyNode), object: span(object), members };
}

export function layoutFromText(text: string): AttributesLayout {
  const layout: AttributesLayout = { members: [] };
  // The visitor recurses: a document too deep for it has no layout (parseSpotText reports the depth).
  if (firstTooDeepInText(text) !== undefined) return layout;
  // Open containers, each with the member name being read in it (objects) or undefined (arrays).
  const open: Array<{ array: boolean; key?: string; start: number }> = [];
  let member: MemberLayout | undefined;
  let attributesKey: Span | undefined;
  // Depths: the root object is 1, data 2, attributes 3, a member's object or array value 4.
  const inAttributes = () => open.length === 3 && !open[2].array && open[0].key === 'data' && open[1].key === 'attributes' && !open[0].array && !open[1].array;
  const valueStarts = (offset: number) => {
    if (inAttributes() && member && member.value.offset < 0) member.value.offset = offset;
    else if (open.length === 4 && open[3].array && member && inAttributesAt(open)) member.items!.push({ offset, length: -1 });
  };
  const valueEnds = (end: number) => {
    if (inAttributes() && member && member.value.length < 0) member.value.length = end - member.value.offset;
    else if (open.length === 4 && open[3].array && member?.items?.length) {
      const item = member.items[member.items.length - 1];
      if (item.length < 0) item.length = end - item.offset;
    }
  };
  visit(
    text,
    {
      onObjectBegin: (offset) => {
        valueStarts(offset);
        open.push({ array: false, start: offset });
        if (inAttributes()) layout.key = attributesKey;
      },
      onObjectProperty: (name, offset, length) => {
        const top = open[open.length - 1];
        if (top) top.key = name;
        if (open.length === 2 && open[0].key === 'data' && name === 'attributes') attributesKey = { offset, length };
        if (inAttributes()) {
          member = { name, key: { offset, length }, value: { offset: -1, length: -1 } };
          layout.members.push(member);
        }
      },
      onObjectEnd: (offset, length) => {
        const closing = open.pop();
        if (open.length === 2 && closing && open[1].key === 'attributes' && open[0].key === 'data' && !closing.array && layout.key && !layout.object) {
          layout.object = { offset: closing.start, length: offset + length - closing.start };
        }
        valueEnds(offset + length);
      },
      onArrayBegin: (offset) => {
        valueStarts(offset);
        open.push({ array: true, start: offset });
        if (open.length === 4 && inAttributesAt(open) && member) member.items = [];
      },
      onArrayEnd: (offset, length) => {
        open.pop();
        valueEnds(offset + length);
      },
      onLiteralValue: (_value, offset, length) => {
        valueStarts(offset);
        valueEnds(offset + length);
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return layout;
}

/** True when open[0..2] are the root, data and attributes objects. */
function inAttributesAt(open: ReadonlyArray<{ array: boolean; key?: string }>): boolean {
  return open.length >= 3 && !open[0].array && open[0].key === 'data' && !open[1].array && open[1].key === 'attributes' && !open[2].array;
}

function span(node: Node): Span {
  return { offset: node.offset, length: node.length };
}

/** The last occurrence of each name: the one JSON.parse keeps, so the one a value problem is about. */
export function membersByName(layout: AttributesLayout): Map<string, MemberLayout> {
  const byName = new Map<string, MemberLayout>();
  for (const member of layout.members) byName.set(member.name, member);
  return byName;
}
