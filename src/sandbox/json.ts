// Parsing JSON request bodies, with one bound on how deeply they may nest. JSON.parse itself
// copes with any depth, but everything after it (validation, the state file, replies) walks the
// value recursively: a 10,000-deep member would later blow the stack where nobody can answer
// the client any more. So depth is refused here, at the door, with a pointer to the spot.
import { toPointer } from '../core/documents/problems';
import { HttpError } from './http';

/** Deepest nesting of objects and arrays accepted in a JSON body; the document itself is level 1. */
export const MAX_JSON_DEPTH = 64;

/** Parses a JSON body: 400 invalid_json when it is not JSON, 422 too_deep when it nests too deeply. */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw HttpError.of(400, 'invalid_json', `The body is not valid JSON: ${(error as Error).message}`, { pointer: '' });
  }
  const tooDeep = firstTooDeep(value, MAX_JSON_DEPTH);
  if (tooDeep) {
    throw HttpError.of(422, 'too_deep', `The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`, { pointer: toPointer(tooDeep) });
  }
  return value;
}

/**
 * The path of the first object or array found deeper than maxDepth, or undefined. Iterative
 * (an explicit stack), so the check itself cannot overflow on the values it exists to refuse.
 */
export function firstTooDeep(root: unknown, maxDepth: number): string[] | undefined {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= maxDepth) return path;
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
    // Pushed in reverse, so members are visited in document order and the pointer names the first.
    for (let index = entries.length - 1; index >= 0; index--) stack.push({ value: entries[index][1], path: [...path, entries[index][0]] });
  }
  return undefined;
}
