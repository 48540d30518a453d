// Objects keyed by names from the file (column names, JSON member names), built as JSON.parse
// builds them: plain objects whose every name is an own member. Plain assignment would not do: a
// column or member named "__proto__" would set the object's prototype instead of holding a value.
import type { Node } from 'jsonc-parser';

export function setOwn<T>(record: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Plain assignment: the same own members as setOwn for every name but "__proto__", several times faster. */
function assign<T>(record: Record<string, T>, name: string, value: T): void {
  record[name] = value;
}

/** How to fill records keyed by these names (a table's columns): setOwn only when one of them is "__proto__". */
export function memberSetter(names: readonly string[]): <T>(record: Record<string, T>, name: string, value: T) => void {
  return names.includes('__proto__') ? setOwn : assign;
}

/** A JSON value from its tree, as JSON.parse gives it (jsonc-parser's getNodeValue gives objects without a prototype). */
export function jsonValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const member of node.children ?? []) {
        const [key, value] = member.children ?? [];
        if (value) setOwn(object, String(key.value), jsonValue(value));
      }
      return object;
    }
    case 'array':
      return (node.children ?? []).map(jsonValue);
    default:
      return node.value;
  }
}
