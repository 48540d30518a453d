// Members named twice in one object. JSON.parse keeps the last value silently, and a service may
// keep the first: a document with a name twice could update a different spot than the one that
// was validated, so it is refused.
import type { Node } from 'jsonc-parser';

export interface DuplicateMember {
  /** Path of the repeated member (the object's path and the name). */
  path: string[];
  /** The repeated occurrence's key, quotes included. */
  offset: number;
  length: number;
}

/** Every occurrence after the first of a name within the same object, anywhere in the tree. */
export function duplicateMembers(root: Node): DuplicateMember[] {
  const found: DuplicateMember[] = [];
  const walk = (node: Node, path: string[]): void => {
    if (node.type === 'array') {
      node.children?.forEach((child, index) => walk(child, [...path, String(index)]));
      return;
    }
    if (node.type !== 'object') return;
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key) continue;
      const name = String(key.value);
      if (seen.has(name)) found.push({ path: [...path, name], offset: key.offset, length: key.length });
      seen.add(name);
      if (value) walk(value, [...path, name]);
    }
  };
  walk(root, []);
  return found;
}

/**
 * For text that JSON.parse accepted: true when no object in it names a member twice. JSON.parse
 * keeps one member per name, so the names in the text outnumber the members of the value exactly
 * when some name is repeated. The count is one pass over the text's strings (a fraction of a
 * positioned parse), so the common case, a valid document, keeps its fast path.
 */
export function provablyNoDuplicates(text: string, value: unknown): boolean {
  return countNames(text) === countMembers(value);
}

const BACKSLASH = 92;
const COLON = 58;

/** Strings followed by a colon, in valid JSON. Every string is stepped over whole, keys and values alike. */
function countNames(text: string): number {
  let names = 0;
  let start = text.indexOf('"');
  while (start !== -1) {
    let end = text.indexOf('"', start + 1);
    while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
    if (end === -1) break;
    let next = end + 1;
    while (isWhitespace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === COLON) names++;
    start = text.indexOf('"', next);
  }
  return names;
}

/** A quote preceded by an odd number of backslashes is part of the string. */
function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let at = quote - 1; text.charCodeAt(at) === BACKSLASH; at--) backslashes++;
  return backslashes % 2 === 1;
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

function countMembers(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countMembers(item), 0);
  let count = 0;
  for (const member of Object.values(value)) count += 1 + countMembers(member);
  return count;
}
