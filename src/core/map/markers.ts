// What the map shows of a spot: where it is, what it is called, and in which of four states it is
// (each drawn with its own shape and letter as well as colour, so nothing is said by colour
// alone). Read from a document's text with positions, so a click can open the document at its
// latitude, and so a document with errors still shows when its coordinates can be read.
import { findNodeAtLocation, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { SPOT_STATE, TOPIC_FIELD_NAME } from '../api/spotSchema';
import { withoutByteOrderMark } from '../documents/parseSpotText';
import { l10n } from '../text/l10n';
import { fieldTitle, topicTitle, type TopicCatalog, type TopicField } from '../topics/topicSchema';
import { categoryKeyOf, isCategoryField } from '../topics/categories';
import { judgeArea, swapWouldFix } from '../geo/position';
import { spokenName } from './spokenName';

/**
 * invalid: the document has errors (the editor's checks), yet has readable coordinates;
 * inProgress: state 2, media still to upload; active: state 1 and imported;
 * notImported: no import of it is known yet.
 */
export type MarkerState = 'active' | 'inProgress' | 'invalid' | 'notImported';

/**
 * In the order the legend and the text list name them. Each label and letter is read when it is
 * used (a getter), in the language the extension set by then, never when this module loads.
 */
export const MARKER_STATES: Readonly<Record<MarkerState, { readonly label: string; readonly letter: string }>> = {
  active: {
    get label() {
      return l10n.t({ message: 'Active', args: [], comment: ["a spot marker's state on the map: imported, state 1"] });
    },
    get letter() {
      return l10n.t({ message: 'A', args: [], comment: ['the letter drawn on a map marker of an active spot: the first letter of "Active"'] });
    },
  },
  inProgress: {
    get label() {
      return l10n.t({ message: 'In progress', args: [], comment: ["a spot marker's state on the map: state 2, media still to upload"] });
    },
    get letter() {
      return l10n.t({ message: 'P', args: [], comment: ['the letter drawn on a map marker of a spot in progress (in English P, for "In progress")'] });
    },
  },
  invalid: {
    get label() {
      return l10n.t({ message: 'Invalid', args: [], comment: ["a spot marker's state on the map: the document has errors"] });
    },
    letter: '!',
  },
  notImported: {
    get label() {
      return l10n.t({ message: 'Not yet imported', args: [], comment: ["a spot marker's state on the map"] });
    },
    get letter() {
      return l10n.t({
        message: 'N',
        args: [],
        comment: ['the letter drawn on a map marker of a spot not yet imported: the first letter of "Not yet imported"'],
      });
    },
  },
};

export interface SpotMarker {
  /** Unique in one map: the document's URI (or table URI and row). */
  id: string;
  latitude: number;
  longitude: number;
  state: MarkerState;
  sourceId: string;
  topicId?: number;
  /** "topic 7 (Trail observations)", or "topic 7" without a definition; empty without topic_id. */
  topic: string;
  /** The topic's fields this spot has with their values: "Species (fld_7_1): Oak" when the topic definition labels them. */
  fields: string[];
  /**
   * Outside its topic's area (its definition's area.bbox): "swapped" when swapping latitude and
   * longitude would bring it inside, so the map can offer that; undefined when in place or no area is known.
   */
  misplaced?: 'outside' | 'swapped';
  /** Where a click takes the editor: the line (0-based) of `latitude`. */
  line: number;
}

export interface MarkerFacts {
  id: string;
  /** The editor's checks found errors in it. */
  hasErrors: boolean;
  /** Whether an import of this document (or of its source_id) is known. */
  imported: (sourceId: string) => boolean;
  /** The topic definitions in effect for the document, for the field labels. */
  topics?: TopicCatalog;
}

/** `swap`: the coordinates are no position as written, and would be one swapped (latitude 123.4 beside longitude 16.1 is not). */
export type MarkerResult = { ok: true; marker: SpotMarker } | { ok: false; reason: string; swap?: boolean };

/** The longest value a hover shows of a text field. */
const VALUE_CHARS = 60;

/** A field's value as a hover says it: a category's label, a text shortened, a gallery by its id. */
function valueText(value: unknown, spec: TopicField | undefined): string {
  if (value === null || value === undefined) return '—';
  if (isCategoryField(spec)) {
    const label = (one: unknown) => {
      const key = categoryKeyOf(spec, one);
      return key !== undefined ? spec.values[key] : JSON.stringify(one);
    };
    return Array.isArray(value) ? value.map(label).join(', ') : label(value);
  }
  if (typeof value === 'string') return value.length > VALUE_CHARS ? `${value.slice(0, VALUE_CHARS - 1)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? l10n.t('{0} values', value.length) : '…';
}

const lineOf = (text: string, offset: number): number => {
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
};

const numberAt = (root: Node, member: string): Node | undefined => {
  const node = findNodeAtLocation(root, ['data', 'attributes', member]);
  return node?.type === 'number' ? node : undefined;
};

/** The marker of a spot document's text; a reason instead when it has no coordinates to place. */
export function spotMarkerFromText(input: string, facts: MarkerFacts): MarkerResult {
  const text = withoutByteOrderMark(input);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true });
  if (!root) return { ok: false, reason: l10n.t('not JSON') };
  const latitude = numberAt(root, 'latitude');
  const longitude = numberAt(root, 'longitude');
  if (!latitude || !longitude) return { ok: false, reason: l10n.t('no numeric latitude and longitude') };
  const lat = latitude.value as number;
  const lon = longitude.value as number;
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180))
    return swapWouldFix(lat, lon)
      ? { ok: false, reason: l10n.t('coordinates out of range ({0}, {1}): latitude and longitude are probably swapped', lat, lon), swap: true }
      : { ok: false, reason: l10n.t('coordinates out of range ({0}, {1})', lat, lon) };
  const sourceNode = findNodeAtLocation(root, ['data', 'attributes', 'source_id']);
  const topicNode = numberAt(root, 'topic_id');
  const stateNode = numberAt(root, 'state');
  const topicId = topicNode ? (topicNode.value as number) : undefined;
  const definition = topicId === undefined ? undefined : facts.topics?.get(topicId);
  const attributes = findNodeAtLocation(root, ['data', 'attributes']);
  const fields = (attributes?.children ?? []).flatMap((property) => {
    const name = property.children?.[0]?.value as unknown;
    if (typeof name !== 'string' || !TOPIC_FIELD_NAME.test(name)) return [];
    const spec = definition && Object.hasOwn(definition.fields, name) ? definition.fields[name] : undefined;
    const value = property.children?.[1];
    return [
      `${fieldTitle(name, spec)}: ${valueText(value?.type === 'object' ? {} : value?.type === 'array' ? (value.children ?? []).map((item) => item.value as unknown) : value?.value, spec)}`,
    ];
  });
  const bbox = definition?.area?.bbox;
  // The quick fix's rule (swapWouldFix), so the map offers Swap exactly where the editor does.
  const verdict = !bbox || judgeArea(bbox, lat, lon) === 'inside' ? 'inside' : swapWouldFix(lat, lon, bbox) ? 'swappedInside' : 'outside';
  const sourceId = typeof sourceNode?.value === 'string' ? sourceNode.value : undefined;
  const invalid = facts.hasErrors || errors.length > 0 || sourceId === undefined;
  const state: MarkerState = invalid
    ? 'invalid'
    : stateNode?.value === SPOT_STATE.inProgress
      ? 'inProgress'
      : facts.imported(sourceId)
        ? 'active'
        : 'notImported';
  return {
    ok: true,
    marker: {
      id: facts.id,
      latitude: lat,
      longitude: lon,
      state,
      sourceId: sourceId ?? l10n.t('(no source_id)'),
      topicId,
      topic: definition ? topicTitle(definition) : topicId === undefined ? '' : l10n.t('topic {0}', topicId),
      fields,
      ...(verdict === 'inside' ? {} : { misplaced: verdict === 'swappedInside' ? ('swapped' as const) : ('outside' as const) }),
      line: lineOf(text, latitude.offset),
    },
  };
}

/** The words a screen reader and the text list say for a marker. */
export function markerName(marker: Pick<SpotMarker, 'sourceId' | 'state' | 'latitude' | 'longitude' | 'topic' | 'misplaced'>): string {
  return spokenName({
    sourceId: marker.sourceId,
    stateLabel: MARKER_STATES[marker.state].label,
    topic: marker.topic,
    latitude: marker.latitude,
    longitude: marker.longitude,
    misplacedText: marker.misplaced ? misplacedText(marker.misplaced) : undefined,
  });
}

/** What is wrong with a misplaced spot's place, as its name, hover and list say it. */
export function misplacedText(misplaced: NonNullable<SpotMarker['misplaced']>): string {
  return misplaced === 'swapped' ? l10n.t("outside its topic's area: latitude and longitude are probably swapped") : l10n.t("outside its topic's area");
}
