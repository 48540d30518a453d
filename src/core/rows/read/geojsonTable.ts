// A GeoJSON FeatureCollection as a table: one row per feature, its properties the values. Streamed
// whatever the layout (one line of many megabytes, or pretty-printed): a first pass outlines the
// file (geojsonOutline.ts: its type, crs and columns, which may come after the features) and
// refuses what is not a FeatureCollection; the rows are a second pass that cuts out one feature at
// a time and parses it into jsonc-parser's tree, which gives every value's offset. Neither holds
// the file. One feature per line (.geojsonl) is read like NDJSON (ndjsonRows.ts).
import type { TableBytes } from './tableBytes';
import { ParseErrorCode } from 'jsonc-parser';
import { throwIfAborted } from '../../api/errors';
import { l10n } from '../../text/l10n';
import { notUtf8Problem, type TextStop } from './decodedText';
import { outlineGeoJson } from './geojsonOutline';
import { geojsonParts, isHeld, positionsIn, type ValueText } from './geojsonScanner';
import { featureRow } from './jsonRow';
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
  const crs = crsOf(path, outline.members.get('crs')?.value);
  return {
    path,
    format,
    detected,
    columns: outline.propertyNames,
    ...(crs ? { crs } : {}),
    hasGeometry: true,
    rows: (signal?: AbortSignal) => featureRows(source, format.encoding, signal),
  };
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
    if (!isHeld(value)) {
      yield { problem: l10n.t('feature {0} is longer than {1} MiB: it is not read', row, MAX_ROW_CHARS / 1048576), ...value.position, row };
      continue;
    }
    const at = positionsIn(value);
    const feature = parseJson(value.text);
    if (feature && 'tooDeep' in feature) {
      yield { problem: l10n.t('feature {0} is nested deeper than {1} levels: it is not read', row, MAX_JSON_DEPTH), ...at(feature.tooDeep), row };
      continue;
    }
    if (!feature || 'error' in feature) {
      const error = feature?.error ?? { error: ParseErrorCode.ValueExpected, offset: 0 };
      yield { problem: l10n.t('it is not valid JSON: {0}', describeParseError(error)), ...at(error.offset), row };
      continue;
    }
    yield featureRow(feature.node, row, at, l10n.t('feature {0}', row));
  }
  if (stop.notUtf8) yield notUtf8Problem(stop.notUtf8);
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
