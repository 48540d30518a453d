// Computes the text edits that set data.attributes.state of a spot document, keeping everything
// else (formatting, member order, other values) as it is. The extension applies them as a
// WorkspaceEdit, so the change is visible in the editor and can be undone.
import { findNodeAtLocation, parseTree, type ParseError } from 'jsonc-parser';
import { BYTE_ORDER_MARK, withoutByteOrderMark } from './parseSpotText';
import { modifyKeepingStyle, singleEdit, type SpotTextEdit } from './textEdits';
import { l10n } from '../text/l10n';
import { withMembers } from '../objects/withMembers';

export type { SpotTextEdit } from './textEdits';

export type SetSpotStateResult = { ok: true; edits: SpotTextEdit[]; text: string } | { ok: false; reason: string };

/**
 * Edits that make data.attributes.state equal `state`, and give each gallery field of `galleries`
 * that is still null (pending) its gallery id: a spot in state 1 may not have pending galleries.
 * No edits when nothing changes. Refuses text that is not a spot document.
 */
export function setSpotState(input: string, state: number, galleries: Record<string, number> = {}): SetSpotStateResult {
  // A byte-order mark stays where it is; the edits are computed after it and placed after it.
  const text = withoutByteOrderMark(input);
  const mark = input.length - text.length;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (!root || errors.length > 0) return { ok: false, reason: l10n.t('The document is not valid JSON.') };
  if (findNodeAtLocation(root, ['data', 'type'])?.value !== 'spots')
    return { ok: false, reason: l10n.t('The document is not a spot document: data.type is not "spots".') };
  const attributes = findNodeAtLocation(root, ['data', 'attributes']);
  if (!attributes || attributes.type !== 'object') return { ok: false, reason: l10n.t('The spot document has no data.attributes object.') };
  const changes: Array<[string, number]> = [];
  for (const [field, galleryId] of Object.entries(galleries)) {
    const node = findNodeAtLocation(root, ['data', 'attributes', field]);
    if (node?.type === 'null') changes.push([field, galleryId]);
  }
  if (findNodeAtLocation(root, ['data', 'attributes', 'state'])?.value !== state) changes.push(['state', state]);
  // One change at a time on the text so far; the edits are then the difference as a single edit.
  let next = text;
  for (const [member, value] of changes) next = modifyKeepingStyle(next, ['data', 'attributes', member], value);
  if (next === text) return { ok: true, edits: [], text: input };
  const edit = singleEdit(text, next);
  return { ok: true, edits: [withMembers(edit, { offset: edit.offset + mark })], text: (mark ? BYTE_ORDER_MARK : '') + next };
}

/** Where a member of data.attributes has its value in the text (without a byte-order mark). */
interface ValueSpan {
  offset: number;
  length: number;
  /** The value's JSON text. */
  raw: string;
}

/**
 * setSpotState for a document that gets more than one state (the media workflow: state 2 with
 * the gallery ids known so far, then the final state with every id): the values of data.attributes
 * are found once, with one pass over the text, and each call splices the new state and ids in at
 * their places. The same result as setSpotState, edits included; whatever the pass cannot place
 * (a state member to add, a text that is not strict JSON or not a spot document, a member named
 * twice) is left to setSpotState itself.
 */
export function spotStateEditor(input: string): (state: number, galleries?: Record<string, number>) => SetSpotStateResult {
  const text = withoutByteOrderMark(input);
  const mark = input.length - text.length;
  const spans = attributeValueSpans(text);
  return (state, galleries = {}) => {
    if (!spans) return setSpotState(input, state, galleries);
    const state_ = spans.get('state');
    if (!state_) return setSpotState(input, state, galleries);
    const changes: Array<[ValueSpan, string]> = [];
    for (const [field, galleryId] of Object.entries(galleries)) {
      const span = spans.get(field);
      if (span?.raw === 'null') changes.push([span, JSON.stringify(galleryId)]);
    }
    if (valueOf(state_.raw) !== state) changes.push([state_, JSON.stringify(state)]);
    if (changes.length === 0) return { ok: true, edits: [], text: input };
    changes.sort((a, b) => a[0].offset - b[0].offset);
    let next = '';
    let from = 0;
    for (const [span, content] of changes) {
      next += text.slice(from, span.offset) + content;
      from = span.offset + span.length;
    }
    next += text.slice(from);
    const edit = singleEdit(text, next);
    return { ok: true, edits: [withMembers(edit, { offset: edit.offset + mark })], text: (mark ? BYTE_ORDER_MARK : '') + next };
  };
}

function valueOf(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * The value of every member of data.attributes, by name, in a spot document that is strict JSON
 * (data.type "spots", no name twice on the way); undefined for anything else.
 */
export function attributeValueSpans(text: string): Map<string, ValueSpan> | undefined {
  const scan = new JsonScan(text);
  let spans: Map<string, ValueSpan> | undefined;
  let spots = false;
  const ok = scan.object((name) => {
    if (name !== 'data') return false;
    // Anything but an object where one is expected refuses the text (setSpotState says why).
    const data = scan.object((member) => {
      if (member === 'type') {
        const start = scan.at;
        if (!scan.value()) return undefined;
        spots = valueOf(text.slice(start, scan.at)) === 'spots';
        return true;
      }
      if (member !== 'attributes') return false;
      const found = new Map<string, ValueSpan>();
      const done = scan.object((field) => {
        if (found.has(field)) return undefined;
        const start = scan.at;
        if (!scan.value()) return undefined;
        found.set(field, { offset: start, length: scan.at - start, raw: text.slice(start, scan.at) });
        return true;
      });
      if (done) spans = found;
      return done || undefined;
    });
    return data || undefined;
  });
  scan.whitespace();
  return ok && spots && scan.at === text.length ? spans : undefined;
}

/**
 * A strict JSON scanner over a text, enough to find members' values: objects are walked member
 * by member, any other value skipped whole. Every method returns false (or undefined) on text
 * that is not strict JSON.
 */
class JsonScan {
  at = 0;

  constructor(private readonly text: string) {}

  whitespace(): void {
    const text = this.text;
    for (;;) {
      const code = text.charCodeAt(this.at);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return;
      this.at++;
    }
  }

  /**
   * An object at the scan's place (after whitespace). `member` is called with each member's name,
   * the scan before its value (after the colon and whitespace): it scans the value itself and
   * returns true, returns false to have it skipped, or undefined when the text is refused. A name
   * twice in the object is refused when `member` scans it.
   */
  object(member: (name: string) => boolean | undefined): boolean {
    this.whitespace();
    if (this.text.charCodeAt(this.at) !== 0x7b) return false;
    this.at++;
    this.whitespace();
    if (this.text.charCodeAt(this.at) === 0x7d) {
      this.at++;
      return true;
    }
    const seen = new Set<string>();
    for (;;) {
      this.whitespace();
      const start = this.at;
      if (!this.string()) return false;
      const name = this.stringValue(start);
      if (name === undefined) return false;
      this.whitespace();
      if (this.text.charCodeAt(this.at) !== 0x3a) return false;
      this.at++;
      this.whitespace();
      const scanned = member(name);
      if (scanned === undefined) return false;
      if (scanned && seen.has(name)) return false;
      seen.add(name);
      if (!scanned && !this.value()) return false;
      this.whitespace();
      const next = this.text.charCodeAt(this.at++);
      if (next === 0x7d) return true;
      if (next !== 0x2c) return false;
    }
  }

  /** Skips one value of any kind (after whitespace). */
  value(): boolean {
    this.whitespace();
    const code = this.text.charCodeAt(this.at);
    if (code === 0x22) return this.string();
    if (code === 0x7b) return this.object(() => false);
    if (code === 0x5b) return this.array();
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return this.number();
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.at)) {
        this.at += literal.length;
        return true;
      }
    }
    return false;
  }

  private array(): boolean {
    this.at++;
    this.whitespace();
    if (this.text.charCodeAt(this.at) === 0x5d) {
      this.at++;
      return true;
    }
    for (;;) {
      if (!this.value()) return false;
      this.whitespace();
      const next = this.text.charCodeAt(this.at++);
      if (next === 0x5d) return true;
      if (next !== 0x2c) return false;
    }
  }

  private string(): boolean {
    const text = this.text;
    if (text.charCodeAt(this.at) !== 0x22) return false;
    for (let at = this.at + 1; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code === 0x22) {
        this.at = at + 1;
        return true;
      }
      if (code === 0x5c) at++;
      else if (code < 0x20) return false;
    }
    return false;
  }

  /** The string scanned from `start`, decoded; undefined when it does not decode. */
  private stringValue(start: number): string | undefined {
    const raw = this.text.slice(start, this.at);
    if (!raw.includes('\\')) return raw.slice(1, -1);
    const value = valueOf(raw);
    return typeof value === 'string' ? value : undefined;
  }

  private number(): boolean {
    const match = NUMBER.exec(this.text.slice(this.at, this.at + 64));
    if (!match) return false;
    this.at += match[0].length;
    // A number longer than the window read is not one this scan vouches for.
    return match[0].length < 64;
  }
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;
