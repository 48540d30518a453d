// A small JSON file the project reads for itself (a topic definition, a mapping of a table's rows
// to spots) checked against its zod schema, each problem placed on the exact characters (its
// member name or value) so the editor and the command line show it where the file is wrong. One
// reading for all such files: the depth check before anything recursive, strict JSON, the
// schema's issues in words the file's author understands.
import { getLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type * as z from '../api/zod';
import { locateInTree } from './locate';
import { firstTooDeepInText } from './nesting';
import type { LocatedProblem } from './parseSpotText';
import { toPointer } from './problems';

export interface CheckedJsonWords {
  /** "a topic definition", "a mapping": what the file is, in messages. */
  what: string;
  /** How a problem with the whole file starts ("The definition"); default from `what`. */
  subject?: string;
  /** What a file nested too deep is told (the spot documents' depth limit). */
  tooDeep: string;
  rules: { syntax: string; schema: string };
  /** The choices of a discriminated union's discriminator, for "must be one of …". */
  choices?: string;
  /** What an object at `path` is called in "x is not a member of …" (default: its dotted path). */
  ownerOf?: (path: readonly (string | number)[]) => string | undefined;
}

export interface CheckedJson<T> {
  /** The value, when the schema accepted it. */
  value?: T;
  /** The parsed JSON tree (for rules of the caller's own), when the text is JSON. */
  root?: Node;
  /** The raw value, when the text is JSON. */
  raw?: unknown;
  problems: Array<LocatedProblem & { rule: string }>;
}

export function parseCheckedJson<T>(text: string, schema: z.ZodMiniType<T>, words: CheckedJsonWords): CheckedJson<T> {
  // Before anything that recurses (the tree, its value, the schema): a file thousands of levels
  // deep would overflow the stack. The schema cannot say this, so the caller names its rule.
  const tooDeep = firstTooDeepInText(text);
  if (tooDeep !== undefined) {
    const pointer = toPointer(getLocation(text, tooDeep).path);
    return { problems: [{ pointer, message: words.tooDeep, offset: tooDeep, length: 1, severity: 'error', rule: words.rules.schema }] };
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || !root) {
    const problems = errors.map((error): LocatedProblem & { rule: string } => {
      const offset = Math.min(error.offset, text.length);
      return {
        pointer: '',
        message: `Not valid JSON: ${printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}.`,
        offset,
        length: Math.min(Math.max(1, error.length), text.length - offset),
        severity: 'error',
        rule: words.rules.syntax,
      };
    });
    if (problems.length === 0) problems.push(problemAt(root, [], `The file is empty: ${words.what} is a JSON object.`, words.rules.syntax));
    return { problems };
  }
  const raw: unknown = getNodeValue(root);
  const result = schema.safeParse(raw);
  if (result.success) return { value: result.data, root, raw, problems: [] };
  return { root, raw, problems: result.error.issues.flatMap((issue) => describeIssue(root, issue, words)) };
}

/** A problem at `path` of the file: on its value, or its member name (`mark: 'key'`). */
export function problemAt(root: Node | undefined, path: ReadonlyArray<string | number>, message: string, rule: string, mark: 'value' | 'key' = 'value'): LocatedProblem & { rule: string } {
  const span = root ? locateInTree(root, path, mark) : { offset: 0, length: 0 };
  return { pointer: toPointer(path), message, ...span, severity: 'error', rule };
}

const EXPECTED: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a text',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
  tuple: 'a list',
};

/** zod's issues in words an author of the file understands, each on its member. */
function describeIssue(root: Node, issue: z.core.$ZodIssue, words: CheckedJsonWords): Array<LocatedProblem & { rule: string }> {
  const path = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
  const where = path.length > 0 ? path.join('.') : words.subject ?? `The ${words.what.replace(/^an? /, '')}`;
  const rule = words.rules.schema;
  if (issue.code === 'unrecognized_keys') {
    const owner = words.ownerOf?.(path) ?? (path.length === 0 ? words.what : where);
    return issue.keys.map((key) => problemAt(root, [...path, key], `${key} is not a member of ${owner}.`, rule, 'key'));
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue && words.choices) {
    const missing = getValueAt(root, path) === undefined;
    return [problemAt(root, path, missing ? `${where} is required: one of ${words.choices}.` : `${where} must be one of ${words.choices}.`, rule)];
  }
  if (issue.code === 'invalid_type') {
    if (getValueAt(root, path) === undefined) return [problemAt(root, path, `${where} is required.`, rule)];
    return [problemAt(root, path, `${where} must be ${EXPECTED[issue.expected] ?? issue.expected}.`, rule)];
  }
  // Our own messages (refinements, patterns) are sentences already; zod's need the place.
  const own = !/^(Invalid|Too|Expected)/.test(issue.message);
  return [problemAt(root, path, own ? issue.message : `${where}: ${issue.message}`, rule)];
}

function getValueAt(root: Node, path: ReadonlyArray<string | number>): unknown {
  let value: unknown = getNodeValue(root);
  for (const part of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}
