// A GeoJSON FeatureCollection as a table: one row per feature, its properties the values. Not
// streamed: the file's text is read whole (up to MAX_GEOJSON_BYTES) and outlined in one pass
// (geojsonOutline.ts); each feature is parsed into jsonc-parser's tree, which gives every value's
// offset, only when its row is asked for. One feature per line (.geojsonl) is streamed like NDJSON.
import { readFile, stat } from 'node:fs/promises';
import type { Node } from 'jsonc-parser';
import { throwIfAborted } from '../../api/errors';
import { l10n } from '../../text/l10n';
import { outlineGeoJson, type ValueSpan } from './geojsonOutline';
import { featureRow, type PositionOf } from './jsonRow';
import { describeParseError, parseJson } from './jsonText';
import { legacyCrs } from './legacyCrs';
import { MAX_GEOJSON_BYTES } from './limits';
import { LineCounter, lineStarts, positionAt } from './positions';
import { TableReadError } from './tableReadError';
import { NotUtf8Error, byteOrderMarkLength, textDecoding } from './textDecoding';
import type { RowReadProblem, SourceRow, SourceTable, TableFormat } from './types';

export async function openGeoJson(path: string, format: TableFormat, detected: string[]): Promise<SourceTable> {
  const text = await readText(path, format);
  const starts = lineStarts(text);
  const at: PositionOf = (offset) => positionAt(starts, offset);
  const outline = outlineGeoJson(text);
  if (outline.error) throw new TableReadError(path, l10n.t('it is not valid JSON: {0}', describeParseError(outline.error)), at(outline.error.offset));
  const root = outline.root;
  if (!root) throw new TableReadError(path, l10n.t('the file is empty'));
  if (root.kind !== 'object') throw new TableReadError(path, l10n.t('it is not a GeoJSON FeatureCollection: it is {0}', describeSpan(text, root)), at(root.start));
  if (outline.repeatedMember) throw new TableReadError(path, l10n.t('it names the member "{0}" twice', outline.repeatedMember.name), at(outline.repeatedMember.offset));
  const type = outline.members.get('type');
  const typeValue = type && valueOf(text, type).value;
  if (typeValue !== 'FeatureCollection') {
    const reason = type ? l10n.t('it is not a GeoJSON FeatureCollection: its type is {0}', describeSpan(text, type)) : l10n.t('it is not a GeoJSON FeatureCollection: it has no type');
    throw new TableReadError(path, reason, at(type?.start ?? root.start));
  }
  const features = outline.members.get('features');
  if (features?.kind !== 'array') {
    const reason = features ? l10n.t('its features are not an array: they are {0}', describeSpan(text, features)) : l10n.t('its features are not an array: it has no features member');
    throw new TableReadError(path, reason, at(features?.start ?? root.start));
  }
  const crs = crsOf(path, text, outline.members.get('crs'), at);
  return {
    path,
    format,
    detected,
    columns: outline.propertyNames,
    ...(crs ? { crs } : {}),
    rows: (signal?: AbortSignal) => featureRows(text, outline.features, at, signal),
  };
}

async function readText(path: string, format: TableFormat): Promise<string> {
  const { size } = await stat(path);
  if (size > MAX_GEOJSON_BYTES) {
    throw new TableReadError(
      path,
      l10n.t('it is {0} MiB: a GeoJSON is read whole, up to {1} MiB; save it with one feature per line (GeoJSONSeq, .geojsonl), which is read a line at a time', Math.round(size / 1048576), MAX_GEOJSON_BYTES / 1048576),
    );
  }
  const bytes = await readFile(path);
  try {
    return textDecoding(format.encoding).decode(bytes.subarray(byteOrderMarkLength(bytes, format.encoding)), true);
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    const before = new LineCounter();
    before.advance(error.text);
    throw new TableReadError(path, l10n.t('it is not valid UTF-8 from here on: save it as UTF-8 (GeoJSON is UTF-8) or give its encoding'), before.position);
  }
}

/** The legacy crs member as 'EPSG:<code>'; one that cannot be read is refused (legacyCrs.ts). */
function crsOf(path: string, text: string, span: ValueSpan | undefined, at: PositionOf): string | undefined {
  if (!span) return undefined;
  const { node } = valueOf(text, span);
  if (node.type === 'null') return undefined;
  const read = legacyCrs(node);
  if ('problem' in read) throw new TableReadError(path, read.problem, at(span.start));
  return read.crs;
}

async function* featureRows(text: string, features: readonly ValueSpan[], at: PositionOf, signal?: AbortSignal): AsyncGenerator<SourceRow | RowReadProblem> {
  let row = 0;
  for (const span of features) {
    throwIfAborted(signal);
    row++;
    const { node } = valueOf(text, span);
    yield featureRow(node, row, (offset) => at(span.start + offset), l10n.t('feature {0}', row));
  }
}

/** The tree of a value the outline found (the whole text parsed without errors, so it does too); offsets are from the span's start. */
function valueOf(text: string, span: ValueSpan): { node: Node; value: unknown } {
  const parsed = parseJson(text.slice(span.start, span.end));
  if (!parsed || 'error' in parsed) throw new Error(`a value the outline found does not parse at offset ${span.start}`);
  return { node: parsed.node, value: parsed.node.value };
}

function describeSpan(text: string, span: ValueSpan): string {
  if (span.kind === 'object') return l10n.t('an object');
  if (span.kind === 'array') return l10n.t('an array');
  return text.slice(span.start, span.end);
}
