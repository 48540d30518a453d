// The outline of a GeoJSON file, in one streamed pass that holds no more than a feature at a time
// (geojsonScanner.ts): the root's members that say what the file is (`type`, `crs`, `features`),
// wherever in the file they are, and every property name of every feature. Each value is parsed
// on its own, so the pass also finds the first place the file is not JSON; the rows are read in a
// second pass (geojsonTable.ts).
import type { TableBytes } from './tableBytes';
import { visit, type ParseErrorCode } from 'jsonc-parser';
import type { TextStop } from './decodedText';
import { geojsonParts, isHeld, positionsIn, type HeldValue, type ValueText } from './geojsonScanner';
import { firstTooDeepInText } from '../../documents/nesting';
import { parseJson } from './jsonText';
import type { CellPosition, SourceEncoding } from './types';

/** The root members the table needs, kept with their text. */
const KEPT_MEMBERS = ['type', 'crs', 'features'];

export interface GeoJsonOutline {
  /** Where the root starts, and what it is when it is not an object. */
  root?: { position: CellPosition; value?: ValueText };
  /** The root's `type`, `crs` and `features` members (`streamed`: features as an array, read row by row). */
  members: Map<string, { value: ValueText; streamed?: true }>;
  /** A root member named more than once: which one counts cannot be known. */
  repeatedMember?: { name: string; position: CellPosition };
  /** Member names of the features' `properties` objects, in order of first appearance. */
  propertyNames: string[];
  /** The first place the text is not JSON. */
  error?: { error: ParseErrorCode; position: CellPosition };
  /** A member name outside the features, or the value of `type` or `crs`, longer than a row may be. */
  tooLong?: CellPosition;
  /** Where bytes that are not UTF-8 start (the pass stopped there). */
  notUtf8?: CellPosition;
}

export async function outlineGeoJson(source: TableBytes, encoding: SourceEncoding): Promise<GeoJsonOutline> {
  const outline: GeoJsonOutline = { members: new Map(), propertyNames: [] };
  const names = new Set<string>();
  const seen = new Set<string>();
  const stop: TextStop = {};
  for await (const part of geojsonParts(source, encoding, stop)) {
    switch (part.kind) {
      case 'rootObject':
        outline.root = { position: part.position };
        break;
      case 'root':
        outline.root = { position: part.value.position, value: part.value };
        outline.error = syntaxError(part.value);
        break;
      case 'member':
        if (seen.has(part.name)) outline.repeatedMember ??= { name: part.name, position: part.value.position };
        seen.add(part.name);
        if (!part.streamed) outline.error = syntaxError(part.value);
        if (KEPT_MEMBERS.includes(part.name)) {
          if (!part.streamed && part.value.text === undefined && part.name !== 'features') outline.tooLong = part.value.position;
          outline.members.set(part.name, { value: part.value, ...(part.streamed ? { streamed: part.streamed } : {}) });
        }
        break;
      case 'feature':
        if (isHeld(part.value)) outline.error = featurePropertyNames(part.value, names);
        break;
      case 'featuresEnd':
        break;
      case 'error':
        outline.error = { error: part.error, position: part.position };
        break;
      case 'longName':
        outline.tooLong = part.position;
        break;
    }
    // The first problem ends the pass: nothing after it changes what is said.
    if (outline.error || outline.tooLong) break;
  }
  if (stop.notUtf8) outline.notUtf8 = stop.notUtf8;
  outline.propertyNames = [...names];
  return outline;
}

/** The first syntax error in a value (one longer than a row may be is not parsed). */
function syntaxError(value: ValueText): GeoJsonOutline['error'] {
  if (!isHeld(value)) return undefined;
  const parsed = parseJson(value.text);
  return parsed && 'error' in parsed ? { error: parsed.error.error, position: positionsIn(value)(parsed.error.offset) } : undefined;
}

/**
 * Adds the member names of a feature's `properties` object to `names`, with jsonc-parser's visitor
 * (no tree is built); returns the feature's first syntax error.
 */
function featurePropertyNames(feature: HeldValue, names: Set<string>): GeoJsonOutline['error'] {
  // Too deep to walk: the rows pass says so at the feature (its property names are not columns).
  if (firstTooDeepInText(feature.text) !== undefined) return undefined;
  let error: { error: ParseErrorCode; offset: number } | undefined;
  // The containers open around the visitor, each with the member name it is the value of.
  const stack: Array<{ key?: string; lastKey?: string }> = [];
  const open = () => {
    stack.push({ key: stack.at(-1)?.lastKey });
  };
  visit(
    feature.text,
    {
      onObjectBegin: open,
      onArrayBegin: open,
      onObjectEnd: () => stack.pop(),
      onArrayEnd: () => stack.pop(),
      onObjectProperty: (property) => {
        const frame = stack.at(-1)!;
        frame.lastKey = property;
        // [the feature, its properties]
        if (stack.length === 2 && frame.key === 'properties') names.add(property);
      },
      onError: (code, offset) => {
        error ??= { error: code, offset };
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return error && { error: error.error, position: positionsIn(feature)(error.offset) };
}
