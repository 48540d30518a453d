// Parses the text of a spot document with positions (jsonc-parser), so every problem, syntax or
// schema, lands on the exact characters an editor or a command-line report should point at. It is
// also where what gets sent is decided: the text that was validated, byte for byte, less a leading
// byte-order mark, never a re-serialisation (see sendSpot), so every path sends the same bytes.
import { findNodeAtLocation, getLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError, type ParseErrorCode } from 'jsonc-parser';
import { locateInTree } from './locate';
import { duplicateMembers, provablyNoDuplicates } from './duplicateMembers';
import { firstTooDeepInText, tooDeepMessage } from './nesting';
import { fromPointer, SPOT_RULES, toPointer, type Problem } from './problems';
import { validateSpotDocument, type SpotRuleOptions } from './validateSpot';
import type { SpotDocument } from '../api/spotDocumentSchema';
import { l10n } from '../text/l10n';
import { withMembers } from '../objects/withMembers';

export interface LocatedProblem extends Problem {
  /** In the text without its byte-order mark (as editors show a file that has one). */
  offset: number;
  length: number;
  severity: 'error' | 'warning';
  /**
   * Set on syntax problems: 'json' when no JSON dialect accepts the text there (the editor's JSON
   * language service reports it as an error too), 'strict' when only strict JSON refuses it: a
   * comment or a trailing comma, which JSON with Comments allows.
   */
  syntax?: 'json' | 'strict';
  /**
   * The pointer of a member the problem is about that the document does not have (a required
   * field left out): the document has no place for it, a table's row may (its empty cell).
   */
  absent?: string;
}

interface SpotText {
  /** The text that was validated: the input less a leading byte-order mark. Exactly what is sent. */
  text: string;
  /**
   * The parsed JSON value; undefined when the text is not JSON, or nests deeper than
   * MAX_JSON_DEPTH (so nothing after the parse walks it).
   */
  value: unknown;
}

/** A document with no problems: the validated document (defaults applied) and the text to send. */
export interface ReadySpot extends SpotText {
  document: SpotDocument;
  problems: LocatedProblem[];
  /**
   * The gallery fields sent as null (waiting for media), judged with the topic definitions the
   * text was parsed with; the import reply is read for these fields' gallery ids.
   */
  pendingGalleries: string[];
}

export interface RefusedSpot extends SpotText {
  document?: undefined;
  problems: LocatedProblem[];
}

export type ParsedSpotText = ReadySpot | RefusedSpot;

/** Spot documents are small; a larger file is almost certainly not one (and would stall an editor). */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

/** U+FEFF at the start of a UTF-8 file: allowed on the way in (editors write it), never sent. */
export const BYTE_ORDER_MARK = '\uFEFF';

export function withoutByteOrderMark(text: string): string {
  return text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
}

/** More than MAX_DOCUMENT_BYTES in UTF-8; counted only when it could be (a character is at most 3 bytes per UTF-16 unit). */
function overDocumentLimit(text: string): boolean {
  return text.length * 3 > MAX_DOCUMENT_BYTES && Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES;
}

const STRICT = { disallowComments: true, allowTrailingComma: false };
const LENIENT = { disallowComments: false, allowTrailingComma: true };

/** `options.topics`: the topic definitions in effect, for the rules that depend on them (see SpotRuleOptions). */
export function parseSpotText(input: string, options: SpotRuleOptions = {}): ParsedSpotText {
  const text = withoutByteOrderMark(input);
  if (overDocumentLimit(text)) {
    const limit = MAX_DOCUMENT_BYTES / 1048576;
    return {
      text,
      value: undefined,
      problems: [
        { pointer: '', message: l10n.t('The file is larger than {0} MiB; a spot document is much smaller.', limit), offset: 0, length: 0, severity: 'error' },
      ],
    };
  }
  // Before any parser or walk that recurses (jsonc-parser's, the duplicate count, the schema, the
  // topic checks): a document thousands of levels deep would overflow the stack in one of them.
  // The path is read up to the offending bracket only, 65 levels at most.
  const tooDeep = firstTooDeepInText(text);
  if (tooDeep !== undefined) {
    const problem: LocatedProblem = {
      pointer: toPointer(getLocation(text, tooDeep).path),
      message: tooDeepMessage(),
      offset: tooDeep,
      length: 1,
      severity: 'error',
    };
    return { text, value: undefined, problems: [problem] };
  }
  // Fast path for the common case, a valid document: the native parser, a cheap proof that no
  // name is repeated (JSON.parse would hide it), and one schema check. Positions are worked out
  // only when there is a problem to place.
  const quick = parseQuickly(text);
  if (quick.ok && provablyNoDuplicates(text, quick.value)) {
    const validation = validateSpotDocument(quick.value, options);
    if (validation.ok) return { text, value: quick.value, document: validation.document, problems: [], pendingGalleries: validation.pendingGalleries };
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, STRICT);
  if (errors.length > 0 || !root) return { text, value: undefined, problems: syntaxProblems(text, errors) };
  const value: unknown = getNodeValue(root);
  const problems: LocatedProblem[] = duplicateMembers(root).map((duplicate) => ({
    pointer: toPointer(duplicate.path),
    message: duplicateMessage(duplicate.path),
    offset: duplicate.offset,
    length: duplicate.length,
    severity: 'error',
    rule: SPOT_RULES.duplicateMember,
  }));
  const validation = validateSpotDocument(value, options);
  if (!validation.ok) problems.push(...validation.problems.map((problem) => locate(root, problem)));
  if (validation.ok && problems.length === 0) return { text, value, document: validation.document, problems, pendingGalleries: validation.pendingGalleries };
  return { text, value, problems };
}

/** A member named twice, in the object that has it (its name, or the document itself). */
function duplicateMessage(path: string[]): string {
  const name = path[path.length - 1];
  return path.length > 1
    ? l10n.t('{0} appears more than once in {1}; keep one: the service might use either value.', name, path[path.length - 2])
    : l10n.t('{0} appears more than once in the document; keep one: the service might use either value.', name);
}

function syntaxProblems(text: string, errors: ParseError[]): LocatedProblem[] {
  // What JSON with Comments also refuses is a plain syntax error; the rest only strict JSON refuses.
  const lenient: ParseError[] = [];
  parseTree(text, lenient, LENIENT);
  const alsoLenient = new Set(lenient.map((error) => `${error.offset}:${error.error}`));
  const problems: LocatedProblem[] = errors.map((error) => ({
    pointer: '',
    message: notValidJsonMessage(error.error),
    offset: Math.min(error.offset, text.length),
    // An error at the very end (a missing brace) has no character to mark.
    length: Math.min(Math.max(1, error.length), text.length - Math.min(error.offset, text.length)),
    severity: 'error',
    syntax: alsoLenient.has(`${error.offset}:${error.error}`) ? 'json' : 'strict',
  }));
  if (problems.length === 0)
    problems.push({
      pointer: '',
      message: l10n.t('The file is empty: a spot document is a JSON object.'),
      offset: 0,
      length: 0,
      severity: 'error',
      syntax: 'json',
    });
  return problems;
}

function parseQuickly(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** *.spot.json files, and any JSON whose data.type is "spots". */
export function looksLikeSpotDocument(fileName: string, text: string): boolean {
  if (/\.spot\.json$/i.test(fileName)) return true;
  if (!/\.json$/i.test(fileName) || !/"type"\s*:\s*"spots"/.test(text)) return false;
  if (overDocumentLimit(text)) return false;
  // jsonc-parser's tree recurses; JSON.parse does not, and a document this deep is strict JSON or nothing.
  if (firstTooDeepInText(text) !== undefined) return dataTypeIsSpots(text);
  const root = parseTree(withoutByteOrderMark(text));
  return root ? findNodeAtLocation(root, ['data', 'type'])?.value === 'spots' : false;
}

function dataTypeIsSpots(text: string): boolean {
  try {
    return (JSON.parse(withoutByteOrderMark(text)) as { data?: { type?: unknown } } | null)?.data?.type === 'spots';
  } catch {
    return false;
  }
}

/** Places a pointer problem: on the value when it exists, else on the nearest member that does. */
function locate(root: Node, problem: Problem): LocatedProblem {
  const { offset, length } = locateInTree(root, fromPointer(problem.pointer));
  return withMembers(problem, { offset, length, severity: 'error' as const });
}

/** "Not valid JSON: close brace expected.": a syntax error jsonc-parser found, the same words for every JSON file the core reads. */
export function notValidJsonMessage(code: ParseErrorCode): string {
  const name = printParseErrorCode(code);
  switch (name) {
    case 'InvalidSymbol':
      return l10n.t('Not valid JSON: invalid symbol.');
    case 'InvalidNumberFormat':
      return l10n.t('Not valid JSON: invalid number format.');
    case 'PropertyNameExpected':
      return l10n.t('Not valid JSON: property name expected.');
    case 'ValueExpected':
      return l10n.t('Not valid JSON: value expected.');
    case 'ColonExpected':
      return l10n.t('Not valid JSON: colon expected.');
    case 'CommaExpected':
      return l10n.t('Not valid JSON: comma expected.');
    case 'CloseBraceExpected':
      return l10n.t('Not valid JSON: close brace expected.');
    case 'CloseBracketExpected':
      return l10n.t('Not valid JSON: close bracket expected.');
    case 'EndOfFileExpected':
      return l10n.t('Not valid JSON: end of file expected.');
    case 'InvalidCommentToken':
      return l10n.t('Not valid JSON: invalid comment token.');
    case 'UnexpectedEndOfComment':
      return l10n.t('Not valid JSON: unexpected end of comment.');
    case 'UnexpectedEndOfString':
      return l10n.t('Not valid JSON: unexpected end of string.');
    case 'UnexpectedEndOfNumber':
      return l10n.t('Not valid JSON: unexpected end of number.');
    case 'InvalidUnicode':
      return l10n.t('Not valid JSON: invalid unicode.');
    case 'InvalidEscapeCharacter':
      return l10n.t('Not valid JSON: invalid escape character.');
    case 'InvalidCharacter':
      return l10n.t('Not valid JSON: invalid character.');
    default:
      return l10n.t('Not valid JSON: {0}.', name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
  }
}
