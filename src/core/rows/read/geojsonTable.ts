// A GeoJSON FeatureCollection as a table: one row per feature, its properties the values. Streamed
// whatever the layout (one line of many megabytes, or pretty-printed): a first pass outlines the
// file (geojsonOutline.ts: its type, crs and columns, which may come after the features) and
// refuses what is neither a FeatureCollection nor a Feature; the rows are a second pass that cuts
// out one feature at a time and parses it into jsonc-parser's tree, which gives every value's
// offset. Neither holds the file. A lone Feature (a tool's export of one selected feature) is a
// layer of one row, read as a FeatureCollection's feature is: a row no longer than a row may be.
// One feature per line (.geojsonl) is read like NDJSON (ndjsonRows.ts).
import type { TableBytes } from './tableBytes';
import { ParseErrorCode } from 'jsonc-parser';
import { throwIfAborted } from '../../api/errors';
import { l10n } from '../../text/l10n';
import { decodedChunks } from './decodedChunks';
import { notUtf8Problem, type TextStop } from './decodedText';
import { outlineGeoJson } from './geojsonOutline';
import { geojsonParts, isHeld, positionsIn, type HeldValue, type ValueText } from './geojsonScanner';
import { featureRow, memberNames, memberNodes } from './jsonRow';
import { MAX_JSON_DEPTH } from '../../documents/nesting';
import { describeParseError, parseJson } from './jsonText';
import { legacyCrs } from './legacyCrs';
import { MAX_ROW_CHARS } from './limits';
import { TableReadError } from './tableReadError';
import type { RowReadProblem, SourceEncoding, SourceRow, SourceTable, TableFormat } from './types';

export async function openGeoJson(path: string, format: TableFormat, detected: string[], source: TableBytes = path): Promise<SourceTable> {
  const outline = await outlineGeoJson(source, format.encoding);
  if (outline.notUtf8)
    throw new TableReadError(path, l10n.t('it is not valid UTF-8 from here on: save it as UTF-8 (GeoJSON is UTF-8) or give its encoding'), outline.notUtf8);
  if (outline.error) throw new TableReadError(path, l10n.t('it is not valid JSON: {0}', describeParseError(outline.error)), outline.error.position);
  if (outline.tooLong)
    throw new TableReadError(path, l10n.t('it has a member longer than {0} MiB outside its features', MAX_ROW_CHARS / 1048576), outline.tooLong);
  const root = outline.root;
  if (!root) throw new TableReadError(path, l10n.t('the file is empty'));
  if (root.value) throw new TableReadError(path, l10n.t('it is not a GeoJSON FeatureCollection: it is {0}', describeValue(root.value)), root.position);
  if (outline.repeatedMember)
    throw new TableReadError(path, l10n.t('it names the member "{0}" twice', outline.repeatedMember.name), outline.repeatedMember.position);
  const type = outline.members.get('type')?.value;
  const crs = () => crsOf(path, outline.members.get('crs')?.value);
  if (type && valueOf(type) === 'Feature') return openFeature(path, format, detected, source, crs());
  if (!type || valueOf(type) !== 'FeatureCollection') {
    const reason = type
      ? l10n.t('it is not a GeoJSON FeatureCollection: its type is {0}', describeValue(type))
      : l10n.t('it is not a GeoJSON FeatureCollection: it has no type');
    throw new TableReadError(path, reason, type?.position ?? root.position);
  }
  const features = outline.members.get('features');
  if (!features?.streamed) {
    const reason = features
      ? l10n.t('its features are not an array: they are {0}', describeValue(features.value))
      : l10n.t('its features are not an array: it has no features member');
    throw new TableReadError(path, reason, features?.value.position ?? root.position);
  }
  const legacy = crs();
  return {
    path,
    format,
    detected,
    columns: outline.propertyNames,
    ...(legacy ? { crs: legacy } : {}),
    hasGeometry: true,
    rows: (signal?: AbortSignal) => featureRows(source, format.encoding, signal),
  };
}

/** A lone Feature as a layer of one row: its properties the columns, the file read whole for each (it is one row). */
async function openFeature(path: string, format: TableFormat, detected: string[], source: TableBytes, crs: string | undefined): Promise<SourceTable> {
  const text = await wholeFeature(source, format.encoding, {});
  const parsed = text === undefined ? undefined : parseJson(text);
  const properties = parsed && 'node' in parsed ? memberNodes(parsed.node).get('properties') : undefined;
  return {
    path,
    format,
    detected,
    columns: properties?.type === 'object' ? [...new Set(memberNames(properties))] : [],
    ...(crs ? { crs } : {}),
    hasGeometry: true,
    rows: (signal?: AbortSignal) => loneFeatureRows(source, format.encoding, signal),
  };
}

/** The file's text, or undefined when it is longer than a row may be. */
async function wholeFeature(source: TableBytes, encoding: SourceEncoding, stop: TextStop, signal?: AbortSignal): Promise<string | undefined> {
  const pieces: string[] = [];
  let length = 0;
  for await (const piece of decodedChunks(source, encoding, stop, signal)) {
    length += piece.length;
    if (length > MAX_ROW_CHARS) return undefined;
    pieces.push(piece);
  }
  return pieces.join('');
}

async function* loneFeatureRows(source: TableBytes, encoding: SourceEncoding, signal?: AbortSignal): AsyncGenerator<SourceRow | RowReadProblem> {
  const stop: TextStop = {};
  const text = await wholeFeature(source, encoding, stop, signal);
  throwIfAborted(signal);
  if (stop.notUtf8) yield notUtf8Problem(stop.notUtf8);
  else if (text === undefined)
    yield { problem: l10n.t('feature {0} is longer than {1} MiB: it is not read', 1, MAX_ROW_CHARS / 1048576), line: 1, column: 1, row: 1 };
  else yield featureOf({ position: { line: 1, column: 1 }, first: text.trimStart()[0] ?? '', text }, 1);
}

/** The legacy crs member as 'EPSG:<code>'; one that cannot be read is refused (legacyCrs.ts). */
function crsOf(path: string, value: ValueText | undefined): string | undefined {
  const node = value && parsed(value);
  if (!value || !node || node.type === 'null') return undefined;
  const read = legacyCrs(node);
  if ('problem' in read) throw new TableReadError(path, read.problem, value.position);
  return read.crs;
}

/** The features, a second pass over the file: one parsed at a time, positions offset by where it starts. */
async function* featureRows(source: TableBytes, encoding: SourceEncoding, signal?: AbortSignal): AsyncGenerator<SourceRow | RowReadProblem> {
  const stop: TextStop = {};
  let row = 0;
  for await (const part of geojsonParts(source, encoding, stop, signal)) {
    throwIfAborted(signal);
    // What follows the features (a crs, GeoServer's totals) was read by the outline.
    if (part.kind === 'featuresEnd') return;
    // The outline found none of these: the file changed since it was opened.
    if (part.kind === 'error') {
      yield { problem: l10n.t('it is not valid JSON: {0}', describeParseError(part)), ...part.position };
      return;
    }
    if (part.kind !== 'feature') continue;
    row++;
    const { value } = part;
    yield isHeld(value)
      ? featureOf(value, row)
      : { problem: l10n.t('feature {0} is longer than {1} MiB: it is not read', row, MAX_ROW_CHARS / 1048576), ...value.position, row };
  }
  if (stop.notUtf8) yield notUtf8Problem(stop.notUtf8);
}

/** Feature number `row` as a row, or the problem that keeps it from being one. */
function featureOf(value: HeldValue, row: number): SourceRow | RowReadProblem {
  const at = positionsIn(value);
  const feature = parseJson(value.text);
  if (feature && 'tooDeep' in feature)
    return { problem: l10n.t('feature {0} is nested deeper than {1} levels: it is not read', row, MAX_JSON_DEPTH), ...at(feature.tooDeep), row };
  if (!feature || 'error' in feature) {
    const error = feature?.error ?? { error: ParseErrorCode.ValueExpected, offset: 0 };
    return { problem: l10n.t('it is not valid JSON: {0}', describeParseError(error)), ...at(error.offset), row };
  }
  return featureRow(feature.node, row, at, l10n.t('feature {0}', row));
}

/** The tree of a value the outline parsed without errors (one too long to hold has none). */
function parsed(value: ValueText) {
  const result = isHeld(value) ? parseJson(value.text) : undefined;
  return result && 'node' in result ? result.node : undefined;
}

function valueOf(value: ValueText): unknown {
  return parsed(value)?.value;
}

/** "an object", "an array", or a literal as written: what the file has instead of what it should. */
function describeValue(value: ValueText): string {
  if (value.first === '{') return l10n.t('an object');
  if (value.first === '[') return l10n.t('an array');
  return value.text ?? `${value.first}…`;
}
