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
 * The path of the first object or array found deeper than maxDepth, or undefined. Recursive, but
 * it never descends more than maxDepth + 1 levels, so it cannot overflow on the values it exists
 * to refuse; and it allocates nothing unless it finds one (it runs on every import).
 */
export function firstTooDeep(value: unknown, maxDepth: number, depth = 1): string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > maxDepth) return [];
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const path = firstTooDeep(value[index], maxDepth, depth + 1);
      if (path) return [String(index), ...path];
    }
    return undefined;
  }
  for (const key in value) {
    const path = firstTooDeep((value as Record<string, unknown>)[key], maxDepth, depth + 1);
    if (path) return [key, ...path];
  }
  return undefined;
}
