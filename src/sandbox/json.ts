// Parsing JSON request bodies, with the project's one bound on how deeply they may nest
// (MAX_JSON_DEPTH, in the core: the CLI and the editor refuse the same documents before sending).
// Everything after JSON.parse (validation, the state file, replies) walks the value recursively,
// so depth is refused here, at the door, with a pointer to the spot.
import { firstTooDeep, MAX_JSON_DEPTH } from '../core/documents/nesting';
import { toPointer } from '../core/documents/problems';
import { HttpError } from './http';

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
