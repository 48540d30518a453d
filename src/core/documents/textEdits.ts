// Edits for quick fixes, as offsets into the text (the editor turns them into a WorkspaceEdit).
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';

/** A replacement of `length` characters at `offset` (the editor turns it into a TextEdit). */
export interface SpotTextEdit {
  offset: number;
  length: number;
  content: string;
}

/** jsonc-parser's modify with the document's own indentation and line ends. */
export function modifyKeepingStyle(text: string, path: JSONPath, value: unknown): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  const formattingOptions = { insertSpaces: !indent?.startsWith('\t'), tabSize: indent && !indent.startsWith('\t') ? indent.length : 2, eol };
  return applyEdits(text, modify(text, path, value, { formattingOptions }));
}

/** The one edit that turns `before` into `after`: the span between their common prefix and suffix. */
export function singleEdit(before: string, after: string): SpotTextEdit {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { offset: start, length: before.length - start - end, content: after.slice(start, after.length - end) };
}
