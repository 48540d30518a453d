// Reads one topic definition file into a definition, or into problems placed on the exact
// characters (jsonc-parser), so a broken file is reported where it is broken and never used.
import { getLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type * as z from '../api/zod';
import { locateInTree } from '../documents/locate';
import { TOPIC_RULES, type TopicProblem } from './topicProblem';
import { definitionRuleProblems, topicDefinitionSchema, TOPIC_FIELD_TYPES, type TopicDefinition } from './topicSchema';
import { toPointer } from '../documents/problems';
import { firstTooDeepInText, TOPIC_TOO_DEEP_MESSAGE } from '../documents/nesting';

export interface ParsedTopicDefinition {
  /** The definition when the file has no problem at all. */
  definition?: TopicDefinition;
  problems: TopicProblem[];
}

export function parseTopicDefinition(text: string): ParsedTopicDefinition {
  // The spot documents' depth check, before anything that recurses (jsonc-parser's tree, its
  // value, the schema, the rules): a file thousands of levels deep would overflow the stack, and
  // take every other definition of its folder with it. The schema cannot say this, so it is a rule.
  const tooDeep = firstTooDeepInText(text);
  if (tooDeep !== undefined) {
    const pointer = toPointer(getLocation(text, tooDeep).path);
    return { problems: [{ pointer, message: TOPIC_TOO_DEEP_MESSAGE, offset: tooDeep, length: 1, severity: 'error', rule: TOPIC_RULES.definitionRule }] };
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || !root) {
    const problems: TopicProblem[] = errors.map((error) => {
      const offset = Math.min(error.offset, text.length);
      return {
        pointer: '',
        message: `Not valid JSON: ${printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}.`,
        offset,
        length: Math.min(Math.max(1, error.length), text.length - offset),
        severity: 'error',
        rule: TOPIC_RULES.definitionSyntax,
      };
    });
    if (problems.length === 0) problems.push(problemAt(root, [], 'The file is empty: a topic definition is a JSON object.', TOPIC_RULES.definitionSyntax));
    return { problems };
  }
  const value: unknown = getNodeValue(root);
  const result = topicDefinitionSchema.safeParse(value);
  const problems: TopicProblem[] = result.success ? [] : result.error.issues.flatMap((issue) => describeIssue(root, issue));
  for (const rule of definitionRuleProblems(value)) problems.push(problemAt(root, rule.path, rule.message, TOPIC_RULES.definitionRule, 'key'));
  if (problems.length > 0 || !result.success) return { problems };
  return { definition: result.data, problems: [] };
}

function problemAt(root: Node | undefined, path: ReadonlyArray<string | number>, message: string, rule: TopicProblem['rule'], mark: 'value' | 'key' = 'value'): TopicProblem {
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
};

/** zod's issues in words an author of the file understands, each on its member. */
function describeIssue(root: Node, issue: z.core.$ZodIssue): TopicProblem[] {
  const path = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
  const where = path.length > 0 ? path.join('.') : 'The definition';
  const schema = TOPIC_RULES.definitionSchema;
  if (issue.code === 'unrecognized_keys') {
    const owner = path.length === 0 ? 'a topic definition' : path.length === 2 && path[0] === 'fields' ? 'a field' : where;
    return issue.keys.map((key) => problemAt(root, [...path, key], `${key} is not a member of ${owner}.`, schema, 'key'));
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue) {
    const missing = getValueAt(root, path) === undefined;
    const choices = TOPIC_FIELD_TYPES.join(', ');
    return [problemAt(root, path, missing ? `${where} is required: one of ${choices}.` : `${where} must be one of ${choices}.`, schema)];
  }
  if (issue.code === 'invalid_type') {
    if (getValueAt(root, path) === undefined) return [problemAt(root, path, `${where} is required.`, schema)];
    return [problemAt(root, path, `${where} must be ${EXPECTED[issue.expected] ?? issue.expected}.`, schema)];
  }
  // Our own messages (refinements, patterns) are sentences already; zod's need the place.
  const own = !/^(Invalid|Too|Expected)/.test(issue.message);
  return [problemAt(root, path, own ? issue.message : `${where}: ${issue.message}`, schema)];
}

function getValueAt(root: Node, path: ReadonlyArray<string | number>): unknown {
  let value: unknown = getNodeValue(root);
  for (const part of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}
