// How deeply a spot document may nest objects and arrays: one limit for the whole project. The
// sandbox refuses a deeper import body at its door, and the core refuses a deeper document before
// anything walks it (and a table's JSON feature or line before it is parsed: it would become one). JSON.parse copes with any depth, but what follows it (the positioned parse,
// the schema, the topic checks, the state file, replies) walks the value recursively: a
// 10,000-deep member would blow the stack where nobody can report it any more.
import { l10n } from '../text/l10n';

/** Deepest nesting of objects and arrays accepted in a document; the document itself is level 1. */
export const MAX_JSON_DEPTH = 64;

/**
 * The path of the first object or array found deeper than maxDepth, or undefined. Recursive, but
 * it never descends more than maxDepth + 1 levels, so it cannot overflow on the values it exists
 * to refuse; and it allocates nothing unless it finds one (it runs on every import).
 */
export function firstTooDeep(value: unknown, maxDepth: number = MAX_JSON_DEPTH, depth = 1): string[] | undefined {
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

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/**
 * The offset of the first `[` or `{` in the text nested deeper than maxDepth, or undefined. A
 * loop over the characters, strings stepped over whole, so it is safe on text of any depth and
 * on text that is not JSON (an unclosed bracket still counts): it runs before any parser that
 * recurses (jsonc-parser's tree and visitor, and every walk over the parsed value).
 */
export function firstTooDeepInText(text: string, maxDepth: number = MAX_JSON_DEPTH): number | undefined {
  // The usual document answers at once: with no more opening brackets than the limit (counted in
  // strings too) it cannot nest deeper. indexOf skips the rest natively, some 60 times faster than
  // the loop below, which runs on every import and every topic check of a document.
  if (openingBracketsAtMost(text, maxDepth)) return undefined;
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      // Past the closing quote: one not preceded by an odd number of backslashes.
      for (at++; at < text.length && text.charCodeAt(at) !== QUOTE; at++) if (text.charCodeAt(at) === BACKSLASH) at++;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > maxDepth) return at;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

function openingBracketsAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['[', '{']) {
    for (let at = text.indexOf(bracket); at >= 0; at = text.indexOf(bracket, at + 1)) if (++count > limit) return false;
  }
  return true;
}

// The problem of a file nested deeper than MAX_JSON_DEPTH: the same words for each kind of file,
// worded when the problem is found (in the user's language, see text/l10n.ts).

/** A spot document's, everywhere (editor, folder import, command line). */
export function tooDeepMessage(): string {
  return l10n.t('The document nests objects and arrays more than {0} levels deep; a spot document needs only a few.', MAX_JSON_DEPTH);
}

/** A topic definition file's. */
export function topicTooDeepMessage(): string {
  return l10n.t('The definition nests objects and arrays more than {0} levels deep; a topic definition needs only a few.', MAX_JSON_DEPTH);
}

/** A mapping file's (rows of a table as spots). */
export function mappingTooDeepMessage(): string {
  return l10n.t('The mapping nests objects and arrays more than {0} levels deep; a mapping needs only a few.', MAX_JSON_DEPTH);
}
