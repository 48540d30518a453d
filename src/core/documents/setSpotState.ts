// Computes the text edits that set data.attributes.state of a spot document, keeping everything
// else (formatting, member order, other values) as it is. The extension applies them as a
// WorkspaceEdit, so the change is visible in the editor and can be undone.
import { findNodeAtLocation, parseTree, type ParseError } from 'jsonc-parser';
import { BYTE_ORDER_MARK, withoutByteOrderMark } from './parseSpotText';
import { modifyKeepingStyle, singleEdit, type SpotTextEdit } from './textEdits';

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
  if (!root || errors.length > 0) return { ok: false, reason: 'The document is not valid JSON.' };
  if (findNodeAtLocation(root, ['data', 'type'])?.value !== 'spots') return { ok: false, reason: 'The document is not a spot document: data.type is not "spots".' };
  const attributes = findNodeAtLocation(root, ['data', 'attributes']);
  if (!attributes || attributes.type !== 'object') return { ok: false, reason: 'The spot document has no data.attributes object.' };
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
  return { ok: true, edits: [{ ...edit, offset: edit.offset + mark }], text: (mark ? BYTE_ORDER_MARK : '') + next };
}
