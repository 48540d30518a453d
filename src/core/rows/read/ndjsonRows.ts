// NDJSON (JSON Lines): one JSON object per line, streamed a line at a time; a line that is a
// GeoJSON Feature (GeoJSONSeq, .geojsonl) is read as a feature. Blank lines are not rows; a line
// that is not JSON, or not an object, is a problem of its row and the next lines are read on. A
// leading record separator (RFC 8142's GeoJSON text sequences) is not part of the JSON.
//
// Lines that are features make a GeoJSON source of the file (its rows carry their geometry). RFC
// 8142 has no crs, but GeoJSON 2008 let any object carry one, and some writers put it on each
// feature: the first feature's `crs` is the file's (as a FeatureCollection's is), and a later
// line in another one is a problem of its row rather than a place read in the wrong system.
import type { TableBytes } from './tableBytes';
import type { Node, ParseError } from 'jsonc-parser';
import { throwIfAborted } from '../../api/errors';
import { l10n } from '../../text/l10n';
import { decodedText, notUtf8Problem, type TextStop } from './decodedText';
import { lineRow, memberNames, memberNodes } from './jsonRow';
import { MAX_JSON_DEPTH } from '../../documents/nesting';
import { describeParseError, parseJson } from './jsonText';
import { legacyCrs } from './legacyCrs';
import { MAX_ROW_CHARS } from './limits';
import { breakLength } from './positions';
import { TableReadError } from './tableReadError';
import type { RowReadProblem, SourceEncoding, SourceRow, SourceTable, TableFormat } from './types';
import { withMembers } from '../../objects/withMembers';

const RECORD_SEPARATOR = '\u001e';

/** GeoJSON's coordinate system when a file names none. */
const WGS84 = 'EPSG:4326';

/** An NDJSON file as a table, its columns, geometry and crs judged on `sample` (the whole lines of its first 64 KiB). */
export function openNdjson(path: string, format: TableFormat, detected: string[], sample: string, source: TableBytes = path): SourceTable {
  const { columns, hasGeometry, crs } = sampleOutline(path, sample);
  return {
    path,
    format,
    detected,
    columns,
    ...(hasGeometry ? { hasGeometry } : {}),
    ...(crs ? { crs } : {}),
    rows: (signal) => ndjsonRows(source, format.encoding, signal, crs),
  };
}

/** `crs`: the file's (its first feature's); a feature line in another is a problem of its row. */
async function* ndjsonRows(source: TableBytes, encoding: SourceEncoding, signal?: AbortSignal, crs?: string): AsyncGenerator<SourceRow | RowReadProblem> {
  const stop: TextStop = {};
  let row = 0;
  for await (const line of textLines(decodedText(source, encoding, stop, { signal }))) {
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
    if ('error' in parsed) {
      yield { problem: l10n.t('line {0} is not JSON: {1}', line.number, describeParseError(parsed.error)), ...at(parsed.error.offset), row };
      continue;
    }
    if ('tooDeep' in parsed) {
      yield { problem: l10n.t('line {0} is nested deeper than {1} levels: it is not read', line.number, MAX_JSON_DEPTH), ...at(parsed.tooDeep), row };
      continue;
    }
    const other = otherCrs(parsed.node, crs ?? WGS84, line.number);
    if (other) yield { problem: other.problem, ...at(other.node.offset), row };
    else yield lineRow(parsed.node, row, at, l10n.t('line {0}', line.number));
  }
  if (stop.notUtf8) yield notUtf8Problem(stop.notUtf8);
}

/** A feature line's `crs` member, when it has one. */
function featureCrs(object: Node): Node | undefined {
  if (object.type !== 'object') return undefined;
  const members = memberNodes(object);
  const crs = members.get('crs');
  return members.get('type')?.value === 'Feature' && crs && crs.type !== 'null' ? crs : undefined;
}

/** The problem of a feature line whose crs is not the file's, or cannot be read. */
function otherCrs(object: Node, crs: string, line: number): { problem: string; node: Node } | undefined {
  const node = featureCrs(object);
  if (!node) return undefined;
  const read = legacyCrs(node);
  if ('problem' in read) return { problem: l10n.t('line {0}: {1}', line, read.problem), node };
  if (read.crs === crs) return undefined;
  return {
    problem: l10n.t("line {0} is in {1}, the lines before it in {2}: a file has one coordinate system (the first feature's crs)", line, read.crs, crs),
    node,
  };
}

/**
 * What the whole lines of a sample text say of the file: the column names (members of plain
 * objects, properties of features), whether its lines are features, and the first feature's crs
 * (one that cannot be read is refused, as a FeatureCollection's is).
 */
function sampleOutline(path: string, text: string): { columns: string[]; hasGeometry: boolean; crs?: string } {
  const names = new Set<string>();
  let hasGeometry = false;
  let crs: string | undefined;
  for (const [index, line] of text.split(/\r\n|\n|\r/).entries()) {
    const parsed = parseLine(line);
    if (!parsed || !('node' in parsed) || parsed.node.type !== 'object') continue;
    const members = memberNodes(parsed.node);
    const isFeature = members.get('type')?.value === 'Feature';
    if (isFeature && !hasGeometry) {
      const node = featureCrs(parsed.node);
      const read = node ? legacyCrs(node) : undefined;
      if (node && read && 'problem' in read) throw new TableReadError(path, read.problem, { line: index + 1, column: parsed.shift + node.offset + 1 });
      crs = read && 'crs' in read ? read.crs : undefined;
    }
    hasGeometry ||= isFeature;
    const object = isFeature ? members.get('properties') : parsed.node;
    if (object?.type === 'object') for (const name of memberNames(object)) names.add(name);
  }
  return { columns: [...names], hasGeometry, ...(crs ? { crs } : {}) };
}

/** A line's JSON (undefined for a blank line); `shift`: characters before the JSON's text (a record separator). */
function parseLine(text: string): (({ node: Node } | { error: ParseError } | { tooDeep: number }) & { shift: number }) | undefined {
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
