// NDJSON (JSON Lines): one JSON object per line, streamed a line at a time; a line that is a
// GeoJSON Feature (GeoJSONSeq, .geojsonl) is read as a feature. Blank lines are not rows; a line
// that is not JSON, or not an object, is a problem of its row and the next lines are read on. A
// leading record separator (RFC 8142's GeoJSON text sequences) is not part of the JSON.
import type { Node, ParseError } from 'jsonc-parser';
import { throwIfAborted } from '../../api/errors';
import { l10n } from '../../text/l10n';
import { decodedText, notUtf8Problem, type TextStop } from './decodedText';
import { lineRow, memberNames, memberNodes } from './jsonRow';
import { describeParseError, parseJson } from './jsonText';
import { MAX_ROW_CHARS } from './limits';
import { breakLength } from './positions';
import type { RowReadProblem, SourceEncoding, SourceRow } from './types';
import { withMembers } from '../../objects/withMembers';

const RECORD_SEPARATOR = '\u001e';

export async function* ndjsonRows(path: string, encoding: SourceEncoding, signal?: AbortSignal): AsyncGenerator<SourceRow | RowReadProblem> {
  const stop: TextStop = {};
  let row = 0;
  for await (const line of textLines(decodedText(path, encoding, stop, { signal }))) {
    throwIfAborted(signal);
    if ('tooLong' in line) {
      row++;
      yield { problem: l10n.t('line {0} is longer than {1} MiB: it is not read', line.number, MAX_ROW_CHARS / 1048576), line: line.number, column: 1, row };
      continue;
    }
    const parsed = parseLine(line.text);
    if (!parsed) continue;
    row++;
    const at = (offset: number) => ({ line: line.number, column: parsed.shift + offset + 1 });
    if ('error' in parsed) yield { problem: l10n.t('line {0} is not JSON: {1}', line.number, describeParseError(parsed.error)), ...at(parsed.error.offset), row };
    else yield lineRow(parsed.node, row, at, l10n.t('line {0}', line.number));
  }
  if (stop.notUtf8) yield notUtf8Problem(stop.notUtf8);
}

/** The column names of the objects on the whole lines of a sample text: member names, or a feature's property names. */
export function ndjsonColumns(text: string): string[] {
  const names = new Set<string>();
  for (const line of text.split(/\r\n|\n|\r/)) {
    const parsed = parseLine(line);
    if (!parsed || 'error' in parsed || parsed.node.type !== 'object') continue;
    const members = memberNodes(parsed.node);
    const properties = members.get('properties');
    const object = members.get('type')?.value === 'Feature' ? properties : parsed.node;
    if (object?.type === 'object') for (const name of memberNames(object)) names.add(name);
  }
  return [...names];
}

/** A line's JSON (undefined for a blank line); `shift`: characters before the JSON's text (a record separator). */
function parseLine(text: string): ({ node: Node } | { error: ParseError }) & { shift: number } | undefined {
  const shift = text.startsWith(RECORD_SEPARATOR) ? 1 : 0;
  const json = shift ? text.slice(shift) : text;
  if (json.trim() === '') return undefined;
  const parsed = parseJson(json);
  return parsed && withMembers(parsed, { shift });
}

type TextLine = { number: number; text: string } | { number: number; tooLong: true };

/**
 * Lines of text that comes in pieces. A line longer than MAX_ROW_CHARS is reported and skipped
 * rather than held: a file without line breaks is never held whole.
 */
async function* textLines(pieces: AsyncIterable<string>): AsyncGenerator<TextLine> {
  let number = 1;
  let partial = '';
  let tooLong = false;
  for await (const piece of pieces) {
    let start = 0;
    for (let i = 0; i < piece.length; i++) {
      const length = breakLength(piece, i);
      if (length === 0) continue;
      const text = tooLong ? '' : partial + piece.slice(start, i);
      if (tooLong || text.length > MAX_ROW_CHARS) yield { number, tooLong: true };
      else yield { number, text };
      partial = '';
      tooLong = false;
      number++;
      i += length - 1;
      start = i + 1;
    }
    if (!tooLong) partial += piece.slice(start);
    if (partial.length > MAX_ROW_CHARS) {
      tooLong = true;
      partial = '';
    }
  }
  if (tooLong) yield { number, tooLong: true };
  else if (partial) yield { number, text: partial };
}
