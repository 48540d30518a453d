// Whether a cell the proposal looks at holds a value: not empty, and not one of the words that
// stand for none ("NA", "NULL", …) a mapping reads as empty by default.
import { DEFAULT_NULL_VALUES } from './mappingSchema';

const NULL_VALUES: ReadonlySet<string> = new Set(DEFAULT_NULL_VALUES);

export function filledCell(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  const text = String(value).trim();
  return text !== '' && !NULL_VALUES.has(text);
}
