// Text from files and servers inside Markdown (hovers, tooltips): shown as written, never as
// Markdown of its own. A field name, a cell or a server's file name could otherwise end its code
// span with a backtick and go on as a link or an image that loads from anywhere (hovers render
// https images, in Restricted Mode too).

/** `text` with what would change the rendering escaped: emphasis, code, links and images, HTML, tables, and a list or heading at a line's start. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_{}[\]<>|]/g, '\\$&')
    .replace(/^(\s*)([#+-])/gm, '$1\\$2')
    .replace(/^(\s*)(\d+)\./gm, '$1$2\\.');
}

/** `text` as one inline code span: a fence longer than any run of backticks in it (CommonMark), on one line. */
export function inlineCode(text: string): string {
  const flat = text.replace(/\r\n|[\r\n]/g, ' ');
  if (flat === '') return '` `';
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A space on each side when the text starts or ends with a backtick: CommonMark takes one off.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
