// JSON text parsed into jsonc-parser's tree (which keeps every value's offset), strictly: JSON, not
// the JSON with comments and trailing commas jsonc-parser also reads. One place, so GeoJSON files
// and NDJSON lines are held to the same rule.
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/** The tree, or the first error; undefined for text with no JSON value at all. */
export function parseJson(text: string): { node: Node } | { error: ParseError } | undefined {
  const errors: ParseError[] = [];
  const node = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0) return { error: errors[0] };
  return node ? { node } : undefined;
}

/** jsonc-parser's error codes in words ("CommaExpected": "comma expected"). */
export function describeParseError(error: ParseError): string {
  return printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
