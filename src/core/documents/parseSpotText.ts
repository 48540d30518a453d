// Parses the text of a spot document with positions (jsonc-parser), so every problem, syntax or
// schema, lands on the exact characters an editor or a command-line report should point at.
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { fromPointer, type Problem } from './problems';
import { validateSpotDocument } from './validateSpot';
import type { SpotDocument } from '../api/spotSchema';

export interface LocatedProblem extends Problem {
  offset: number;
  length: number;
  severity: 'error' | 'warning';
}

export interface ParsedSpotText {
  /** The parsed JSON value; undefined when the text is not JSON. */
  value: unknown;
  /** The validated document (defaults applied) when there are no problems. */
  document?: SpotDocument;
  problems: LocatedProblem[];
}

/** Spot documents are small; a larger file is almost certainly not one (and would stall an editor). */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

export function parseSpotText(text: string): ParsedSpotText {
  if (Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES) {
    const limit = MAX_DOCUMENT_BYTES / 1048576;
    return { value: undefined, problems: [{ pointer: '', message: `The file is larger than ${limit} MiB; a spot document is much smaller.`, offset: 0, length: 0, severity: 'error' }] };
  }
  // Fast path for the common case, a valid document: the native parser and one schema check.
  // Positions are worked out only when there is a problem to place.
  const quick = parseQuickly(text);
  if (quick.ok) {
    const validation = validateSpotDocument(quick.value);
    if (validation.ok) return { value: quick.value, document: validation.document, problems: [] };
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || !root) {
    const problems = errors.map((error) => ({
      pointer: '',
      message: `Not valid JSON: ${describeSyntax(printParseErrorCode(error.error))}.`,
      offset: Math.min(error.offset, text.length),
      // An error at the very end (a missing brace) has no character to mark.
      length: Math.min(Math.max(1, error.length), text.length - Math.min(error.offset, text.length)),
      severity: 'error' as const,
    }));
    if (problems.length === 0) problems.push({ pointer: '', message: 'The file is empty: a spot document is a JSON object.', offset: 0, length: 0, severity: 'error' });
    return { value: undefined, problems };
  }
  const value: unknown = getNodeValue(root);
  const validation = validateSpotDocument(value);
  if (validation.ok) return { value, document: validation.document, problems: [] };
  return { value, problems: validation.problems.map((problem) => locate(root, problem)) };
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
  if (Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES) return false;
  const root = parseTree(text);
  return root ? findNodeAtLocation(root, ['data', 'type'])?.value === 'spots' : false;
}

/** Places a pointer problem: on the value when it exists, else on the nearest member that does. */
function locate(root: Node, problem: Problem): LocatedProblem {
  const path = fromPointer(problem.pointer);
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(root, path.slice(0, depth));
    if (!node) continue;
    // A missing member is reported on its parent's key (e.g. "attributes"), which reads naturally.
    const target = depth < path.length && node.parent?.type === 'property' ? node.parent.children?.[0] ?? node : node;
    // An object as the target would underline the whole block: mark only its opening brace.
    const length = target.type === 'object' ? 1 : target.length;
    return { ...problem, offset: target.offset, length, severity: 'error' };
  }
  return { ...problem, offset: 0, length: 0, severity: 'error' };
}

function describeSyntax(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
