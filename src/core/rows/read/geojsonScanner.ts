// A GeoJSON text read a piece at a time, never held whole: the root object's members and each item
// of its `features` array are cut out as text, with where each starts, for jsonc-parser to parse
// one at a time (jsonText.ts); the root's own punctuation between them is checked here. Only
// strings, escapes and brackets are followed inside a value: its syntax is the parser's to judge.
// A value longer than MAX_ROW_CHARS is followed to its end but not kept. Whitespace is JSON's four
// characters, as jsonc-parser reads them.
import type { TableBytes } from './tableBytes';
import { ParseErrorCode } from 'jsonc-parser';
import { decodedChunks } from './decodedChunks';
import type { TextStop } from './decodedText';
import { parseJson } from './jsonText';
import { MAX_ROW_CHARS } from './limits';
import { LineCounter, lineStarts, positionAt } from './positions';
import type { CellPosition, SourceEncoding } from './types';
import type { PositionOf } from './jsonRow';

/** A value cut out of the text. */
export interface ValueText {
  /** Where its first character is. */
  position: CellPosition;
  /** Its first character: '{', '[', '"', or a literal's first. */
  first: string;
  /** The value as written; left out when it is longer than MAX_ROW_CHARS (it was read past, not kept). */
  text?: string;
}

/** A value whose text was kept. */
export type HeldValue = ValueText & { text: string };

export function isHeld(value: ValueText): value is HeldValue {
  return value.text !== undefined;
}

export type GeoJsonPart =
  /** The root, when it is not an object. */
  | { kind: 'root'; value: ValueText }
  | { kind: 'rootObject'; position: CellPosition }
  /** A member of the root object. `features` as an array is `streamed`: its items come as parts of their own, and its `text` is left out. */
  | { kind: 'member'; name: string; value: ValueText; streamed?: true }
  | { kind: 'feature'; value: ValueText }
  | { kind: 'featuresEnd' }
  /** The text is not JSON here (nothing comes after it). */
  | { kind: 'error'; error: ParseErrorCode; position: CellPosition }
  /** A member name longer than MAX_ROW_CHARS (nothing comes after it). */
  | { kind: 'longName'; position: CellPosition };

/**
 * The parts of a GeoJSON file, streamed. When bytes that are not UTF-8 come, the parts end early
 * and `stop.notUtf8` says where they are. Aborting the signal throws CancelledError.
 */
export async function* geojsonParts(source: TableBytes, encoding: SourceEncoding, stop: TextStop, signal?: AbortSignal): AsyncGenerator<GeoJsonPart> {
  const scanner = new GeoJsonScanner();
  for await (const piece of decodedChunks(source, encoding, stop, signal)) yield* scanner.push(piece);
  // Text cut off at bytes that are not UTF-8 is not a JSON error: that is said instead.
  if (!stop.notUtf8) yield* scanner.end();
}

/** Positions in a value's text, as positions in the file. */
export function positionsIn(value: HeldValue): PositionOf {
  const starts = lineStarts(value.text);
  const { line, column } = value.position;
  return (offset) => {
    const at = positionAt(starts, offset);
    return at.line === 1 ? { line, column: column + at.column - 1 } : { line: line + at.line - 1, column: at.column };
  };
}

type Mode =
  | 'beforeRoot'
  | 'nameOrEnd' // after the root's '{'
  | 'name' // after a ','
  | 'colon'
  | 'memberValue'
  | 'commaOrEnd'
  | 'featureOrEnd' // after the features' '['
  | 'feature' // after a ','
  | 'featureCommaOrEnd'
  | 'afterRoot'
  | 'stopped';

type Role = 'root' | 'name' | 'member' | 'feature';

/** A value being cut out: what of it was collected, and where its brackets and strings stand. */
interface Cut {
  role: Role;
  position: CellPosition;
  first: string;
  /** Text of earlier pieces; undefined once it is longer than MAX_ROW_CHARS. */
  collected: string[] | undefined;
  length: number;
  /** Where the value's text starts in the current piece. */
  from: number;
  /** The closing brackets expected, innermost last. */
  closers: number[];
  inString: boolean;
  escaped: boolean;
  literal: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** What a number, true, false or null is made of (a wrong one is the parser's to say). */
function isLiteralCharacter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x2b || code === 0x2d || code === 0x2e;
}

class GeoJsonScanner {
  private mode: Mode = 'beforeRoot';
  private cut: Cut | undefined;
  /** The name of the root member whose value comes next. */
  private name = '';
  private readonly counter = new LineCounter();
  private piece = '';
  /** How far into the piece the counter has counted. */
  private counted = 0;
  private parts: GeoJsonPart[] = [];

  /** The parts that end in this piece of the text. */
  push(piece: string): GeoJsonPart[] {
    this.piece = piece;
    this.counted = 0;
    this.parts = [];
    if (this.cut) this.cut.from = 0;
    let i = 0;
    while (i < piece.length && this.mode !== 'stopped') {
      if (this.cut) i = this.continueCut(i);
      else if (isWhitespace(piece.charCodeAt(i))) i++;
      else i = this.token(i);
    }
    const cut = this.cut;
    if (cut?.collected) {
      const rest = piece.slice(cut.from);
      cut.length += rest.length;
      if (cut.length > MAX_ROW_CHARS) cut.collected = undefined;
      else cut.collected.push(rest);
    }
    this.counter.advance(this.counted === 0 ? piece : piece.slice(this.counted));
    this.piece = '';
    this.counted = 0;
    return this.parts;
  }

  /** The parts the end of the text completes, or the error of a text that ends too early. */
  end(): GeoJsonPart[] {
    this.parts = [];
    const cut = this.cut;
    if (cut?.literal) this.finishCut(0);
    else if (cut)
      this.fail(
        cut.inString
          ? ParseErrorCode.UnexpectedEndOfString
          : cut.closers.at(-1) === CLOSE_BRACKET
            ? ParseErrorCode.CloseBracketExpected
            : ParseErrorCode.CloseBraceExpected,
        0,
      );
    const missing: Partial<Record<Mode, ParseErrorCode>> = {
      nameOrEnd: ParseErrorCode.CloseBraceExpected,
      name: ParseErrorCode.PropertyNameExpected,
      colon: ParseErrorCode.ColonExpected,
      memberValue: ParseErrorCode.ValueExpected,
      commaOrEnd: ParseErrorCode.CloseBraceExpected,
      featureOrEnd: ParseErrorCode.CloseBracketExpected,
      feature: ParseErrorCode.ValueExpected,
      featureCommaOrEnd: ParseErrorCode.CloseBracketExpected,
    };
    const error = missing[this.mode];
    if (error !== undefined) this.fail(error, 0);
    this.mode = 'stopped';
    return this.parts;
  }

  /** The root's punctuation, member names, and where values start. Returns where to go on. */
  private token(i: number): number {
    const char = this.piece[i];
    switch (this.mode) {
      case 'beforeRoot':
        if (char !== '{') return this.startCut(i, 'root');
        this.parts.push({ kind: 'rootObject', position: this.positionAt(i) });
        return this.next(i, 'nameOrEnd');
      case 'nameOrEnd':
      case 'name':
        if (char === '"') return this.startCut(i, 'name');
        if (char === '}' && this.mode === 'nameOrEnd') return this.next(i, 'afterRoot');
        return this.fail(ParseErrorCode.PropertyNameExpected, i);
      case 'colon':
        return char === ':' ? this.next(i, 'memberValue') : this.fail(ParseErrorCode.ColonExpected, i);
      case 'memberValue':
        if (char === '[' && this.name === 'features') {
          this.parts.push({ kind: 'member', name: this.name, value: { position: this.positionAt(i), first: char }, streamed: true });
          return this.next(i, 'featureOrEnd');
        }
        return ',}]:'.includes(char) ? this.fail(ParseErrorCode.ValueExpected, i) : this.startCut(i, 'member');
      case 'commaOrEnd':
        if (char === ',') return this.next(i, 'name');
        return char === '}' ? this.next(i, 'afterRoot') : this.fail(ParseErrorCode.CommaExpected, i);
      case 'featureOrEnd':
      case 'feature':
        if (char === ']' && this.mode === 'featureOrEnd') return this.endFeatures(i);
        return ',}]:'.includes(char) ? this.fail(ParseErrorCode.ValueExpected, i) : this.startCut(i, 'feature');
      case 'featureCommaOrEnd':
        if (char === ',') return this.next(i, 'feature');
        return char === ']' ? this.endFeatures(i) : this.fail(ParseErrorCode.CommaExpected, i);
      case 'afterRoot':
        return this.fail(ParseErrorCode.EndOfFileExpected, i);
      case 'stopped':
        return this.piece.length;
    }
  }

  private next(i: number, mode: Mode): number {
    this.mode = mode;
    return i + 1;
  }

  private endFeatures(i: number): number {
    this.parts.push({ kind: 'featuresEnd' });
    return this.next(i, 'commaOrEnd');
  }

  private fail(error: ParseErrorCode, i: number): number {
    // i 0 at the end of the text: the counter has counted all of it.
    this.parts.push({ kind: 'error', error, position: this.piece ? this.positionAt(i) : this.counter.position });
    this.cut = undefined;
    this.mode = 'stopped';
    return this.piece.length;
  }

  private startCut(i: number, role: Role): number {
    const code = this.piece.charCodeAt(i);
    this.cut = {
      role,
      position: this.positionAt(i),
      first: this.piece[i],
      collected: [],
      length: 0,
      from: i,
      closers: code === OPEN_BRACE ? [CLOSE_BRACE] : code === OPEN_BRACKET ? [CLOSE_BRACKET] : [],
      inString: code === QUOTE,
      escaped: false,
      literal: code !== OPEN_BRACE && code !== OPEN_BRACKET && code !== QUOTE,
    };
    return this.continueCut(i + 1);
  }

  /** Follows the value being cut from `i` to its end (then finishes it) or to the piece's end. */
  private continueCut(i: number): number {
    const cut = this.cut!;
    const text = this.piece;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (cut.inString) {
        if (cut.escaped) cut.escaped = false;
        else if (code === BACKSLASH) cut.escaped = true;
        else if (code === QUOTE) {
          cut.inString = false;
          if (cut.closers.length === 0) return this.finishCut(i + 1);
        }
      } else if (cut.literal) {
        // Whatever ends the literal is read by what comes after it.
        if (!isLiteralCharacter(code)) return this.finishCut(i);
      } else if (code === QUOTE) cut.inString = true;
      else if (code === OPEN_BRACE) cut.closers.push(CLOSE_BRACE);
      else if (code === OPEN_BRACKET) cut.closers.push(CLOSE_BRACKET);
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        // A bracket that closes the wrong thing ends the value here: the parser says what is wrong.
        if (cut.closers.pop() !== code || cut.closers.length === 0) return this.finishCut(i + 1);
      }
    }
    return i;
  }

  /** The value being cut ends before `end` of the current piece. */
  private finishCut(end: number): number {
    const cut = this.cut!;
    this.cut = undefined;
    let text: string | undefined;
    if (cut.collected) {
      const tail = this.piece.slice(cut.from, end);
      if (cut.length + tail.length <= MAX_ROW_CHARS) text = cut.collected.length === 0 ? tail : cut.collected.join('') + tail;
    }
    const value: ValueText = text === undefined ? { position: cut.position, first: cut.first } : { position: cut.position, first: cut.first, text };
    switch (cut.role) {
      case 'root':
        this.parts.push({ kind: 'root', value });
        this.mode = 'afterRoot';
        break;
      case 'name':
        return this.named(value, end);
      case 'member':
        this.parts.push({ kind: 'member', name: this.name, value });
        this.mode = 'commaOrEnd';
        break;
      case 'feature':
        this.parts.push({ kind: 'feature', value });
        this.mode = 'featureCommaOrEnd';
        break;
    }
    return end;
  }

  /** A root member's name, read as JSON (its escapes), or the error in it. */
  private named(value: ValueText, end: number): number {
    if (!isHeld(value)) {
      this.parts.push({ kind: 'longName', position: value.position });
      this.mode = 'stopped';
      return this.piece.length;
    }
    const parsed = parseJson(value.text);
    if (!parsed || !('node' in parsed) || parsed.node.type !== 'string') {
      // Not a valid string (a control character, a bad escape): where and what the parser says.
      const error = parsed && 'error' in parsed ? parsed.error : { error: ParseErrorCode.PropertyNameExpected, offset: 0 };
      this.parts.push({ kind: 'error', error: error.error, position: positionsIn(value)(error.offset) });
      this.mode = 'stopped';
      return this.piece.length;
    }
    const name = parsed.node.value as string;
    this.name = name;
    this.mode = 'colon';
    return end;
  }

  /** The position of index `i` of the current piece (indices asked for only go forward). */
  private positionAt(i: number): CellPosition {
    this.counter.advance(this.piece.slice(this.counted, i));
    this.counted = i;
    return this.counter.position;
  }
}
