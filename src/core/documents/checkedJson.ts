// A small JSON file the project reads for itself (a topic definition, a mapping of a table's rows
// to spots) checked against its zod schema, each problem placed on the exact characters (its
// member name or value) so the editor and the command line show it where the file is wrong. One
// reading for all such files: the depth check before anything recursive, strict JSON, the
// schema's issues in words the file's author understands.
import { getLocation, getNodeValue, parseTree, type Node, type ParseError } from 'jsonc-parser';
import type * as z from '../api/zod';
import { duplicateMembers } from './duplicateMembers';
import { locateInTree } from './locate';
import { firstTooDeepInText } from './nesting';
import { notValidJsonMessage, withoutByteOrderMark, type LocatedProblem } from './parseSpotText';
import { toPointer } from './problems';
import { l10n } from '../text/l10n';

/**
 * The words that name the file in its messages, in the user's language (the caller words them with
 * l10n.t), each placed in a whole sentence of the message's own: `what` and `subject` are noun
 * phrases that can stand as a sentence's subject ("a topic definition", "The definition"), and so
 * is what `ownerOf` answers ("a field", as in "x is not a member of a field.").
 */
export interface CheckedJsonWords {
  /** "a topic definition", "a mapping": what the file is, in messages. */
  what: string;
  /** How a problem with the whole file starts ("The definition"); default from `what`. */
  subject?: string;
  /** What a file nested too deep is told (the spot documents' depth limit), or a function that words it when it is. */
  tooDeep: string | (() => string);
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

/** `input` may start with a byte-order mark, as editors write it; the problems' offsets leave it out. */
export function parseCheckedJson<T>(input: string, schema: z.ZodMiniType<T>, words: CheckedJsonWords): CheckedJson<T> {
  const text = withoutByteOrderMark(input);
  // Before anything that recurses (the tree, its value, the schema): a file thousands of levels
  // deep would overflow the stack. The schema cannot say this, so the caller names its rule.
  const tooDeep = firstTooDeepInText(text);
  if (tooDeep !== undefined) {
    const pointer = toPointer(getLocation(text, tooDeep).path);
    return {
      problems: [
        {
          pointer,
          message: typeof words.tooDeep === 'function' ? words.tooDeep() : words.tooDeep,
          offset: tooDeep,
          length: 1,
          severity: 'error',
          rule: words.rules.schema,
        },
      ],
    };
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || !root) {
    const problems = errors.map((error): LocatedProblem & { rule: string } => {
      const offset = Math.min(error.offset, text.length);
      return {
        pointer: '',
        message: notValidJsonMessage(error.error),
        offset,
        length: Math.min(Math.max(1, error.length), text.length - offset),
        severity: 'error',
        rule: words.rules.syntax,
      };
    });
    if (problems.length === 0) problems.push(problemAt(root, [], l10n.t('The file is empty: {0} is a JSON object.', words.what), words.rules.syntax));
    return { problems };
  }
  // The value keeps the last of a repeated name, which the author may not have meant; as in spot
  // documents, the file is not used until one is left.
  const repeated = duplicateMembers(root).map((duplicate) => ({
    pointer: toPointer(duplicate.path),
    message: repeatedMessage(duplicate.path, words),
    offset: duplicate.offset,
    length: duplicate.length,
    severity: 'error' as const,
    rule: words.rules.schema,
  }));
  const raw: unknown = getNodeValue(root);
  const result = schema.safeParse(raw);
  if (result.success) return repeated.length > 0 ? { root, raw, problems: repeated } : { value: result.data, root, raw, problems: [] };
  return { root, raw, problems: listed(repeated, result.error.issues, (issue) => describeIssue(root, raw, issue, words), words.rules.schema) };
}

/** More problems than anyone reads in one file; placing and wording each one costs a walk of the file. */
const MAX_LISTED_PROBLEMS = 100;

/** The first MAX_LISTED_PROBLEMS, an issue described only when it is listed, then how many more there are. */
function listed(
  first: Array<LocatedProblem & { rule: string }>,
  issues: readonly z.core.$ZodIssue[],
  describe: (issue: z.core.$ZodIssue) => Array<LocatedProblem & { rule: string }>,
  rule: string,
): Array<LocatedProblem & { rule: string }> {
  const problems = [...first];
  let next = 0;
  while (next < issues.length && problems.length < MAX_LISTED_PROBLEMS) problems.push(...describe(issues[next++]));
  let more = Math.max(0, problems.length - MAX_LISTED_PROBLEMS);
  // As many problems as describeIssue makes of each: one per unknown key, else one.
  for (const issue of issues.slice(next)) more += issue.code === 'unrecognized_keys' ? issue.keys.length : 1;
  if (more === 0) return problems;
  return [...problems.slice(0, MAX_LISTED_PROBLEMS), problemAt(undefined, [], l10n.t('{0} more problems of this file are not listed.', more), rule)];
}

/** "required appears more than once in fields.fld_7_1; keep one.": in the object that has the name, or the file itself. */
function repeatedMessage(path: readonly string[], words: CheckedJsonWords): string {
  const owner = path.length > 1 ? path.slice(0, -1).join('.') : words.what;
  return l10n.t('{0} appears more than once in {1}; keep one.', path[path.length - 1], owner);
}

/** A problem at `path` of the file: on its value, or its member name (`mark: 'key'`). */
export function problemAt(
  root: Node | undefined,
  path: ReadonlyArray<string | number>,
  message: string,
  rule: string,
  mark: 'value' | 'key' = 'value',
): LocatedProblem & { rule: string } {
  const span = root ? locateInTree(root, path, mark) : { offset: 0, length: 0 };
  return { pointer: toPointer(path), message, ...span, severity: 'error', rule };
}

/** "… must be a number.": what a member of the wrong type must be, by zod's name of the type expected. */
function mustBe(where: string, expected: string): string {
  switch (expected) {
    case 'number':
      return l10n.t('{0} must be a number.', where);
    case 'int':
      return l10n.t('{0} must be a whole number.', where);
    case 'string':
      return l10n.t('{0} must be a text.', where);
    case 'boolean':
      return l10n.t('{0} must be true or false.', where);
    case 'object':
    case 'record':
      return l10n.t('{0} must be an object.', where);
    case 'array':
    case 'tuple':
      return l10n.t('{0} must be a list.', where);
    default:
      return l10n.t('{0} must be {1}.', where, expected);
  }
}

/** zod's issues in words an author of the file understands, each on its member. */
function describeIssue(root: Node, raw: unknown, issue: z.core.$ZodIssue, words: CheckedJsonWords): Array<LocatedProblem & { rule: string }> {
  const path = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
  const where = path.length > 0 ? path.join('.') : (words.subject ?? `The ${words.what.replace(/^an? /, '')}`);
  const rule = words.rules.schema;
  if (issue.code === 'unrecognized_keys') {
    const owner = words.ownerOf?.(path) ?? (path.length === 0 ? words.what : where);
    return issue.keys.map((key) => problemAt(root, [...path, key], l10n.t('{0} is not a member of {1}.', key, owner), rule, 'key'));
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue && words.choices) {
    const missing = getValueAt(raw, path) === undefined;
    return [
      problemAt(
        root,
        path,
        missing ? l10n.t('{0} is required: one of {1}.', where, words.choices) : l10n.t('{0} must be one of {1}.', where, words.choices),
        rule,
      ),
    ];
  }
  if (issue.code === 'invalid_type') {
    if (getValueAt(raw, path) === undefined) return [problemAt(root, path, l10n.t('{0} is required.', where), rule)];
    return [problemAt(root, path, mustBe(where, issue.expected), rule)];
  }
  // Our own messages (refinements, patterns) are sentences already; zod's need the place, and
  // the bounds zod words itself are worded here, so they translate.
  const own = !/^(Invalid|Too|Expected)/.test(issue.message);
  if (!own && (issue.code === 'too_small' || issue.code === 'too_big')) {
    const bound = describeBound(where, issue);
    if (bound) return [problemAt(root, path, bound, rule)];
  }
  return [problemAt(root, path, own ? issue.message : `${where}: ${issue.message}`, rule)];
}

/** A bound zod checks without a message of ours (min, max, length), in words that translate. */
function describeBound(where: string, issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string | undefined {
  const limit = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  if (issue.origin === 'number') {
    if (issue.code === 'too_small')
      return issue.inclusive === false ? l10n.t('{0} must be greater than {1}.', where, limit) : l10n.t('{0} must be at least {1}.', where, limit);
    return issue.inclusive === false ? l10n.t('{0} must be less than {1}.', where, limit) : l10n.t('{0} must be at most {1}.', where, limit);
  }
  if (issue.origin === 'string') {
    if (issue.code === 'too_small')
      return limit === 1 ? l10n.t('{0} must not be empty.', where) : l10n.t('{0} must be at least {1} characters long.', where, limit);
    return l10n.t('{0} must be at most {1} characters long.', where, limit);
  }
  if (issue.origin === 'array') {
    return issue.code === 'too_small'
      ? l10n.t('{0} must have at least {1} entries.', where, limit)
      : l10n.t('{0} must have at most {1} entries.', where, limit);
  }
  return undefined;
}

/** The member at `path` of the file's value (read once, by parseCheckedJson: reading it per issue made many issues take minutes). */
function getValueAt(raw: unknown, path: ReadonlyArray<string | number>): unknown {
  let value: unknown = raw;
  for (const part of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}
