// Text a server sent (its error words, a media file's name) is shown in a terminal or a message;
// a control character in it could clear the screen, retitle the window or forge a line. Each one
// (C0 with tabs and line breaks, DEL, C1) is shown as U+FFFD instead, so the text stays readable
// and its length and the place of each character stay as they were.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `text` with every control character replaced by U+FFFD. */
export function printable(text: string): string {
  return text.replace(CONTROL, '\ufffd');
}
