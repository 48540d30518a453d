// What the map panel (mapPanel.ts, in the extension host) and its page (webview/main.ts, in the
// webview) send each other: one set of types for both sides, and the one packing of the markers
// both use. The page is sent what it draws and names, a few short fields per spot, packed as one
// array per field (a survey has tens of thousands); a hover asks for the rest (`details`).
import type { MarkerState, SpotMarker } from '../../core/map';
import { spokenName } from '../../core/map/spokenName';

export type MapMode = 'show' | 'pick';

/** A marker as the extension keeps it: with its spoken name, its state's letter and words, and the file a click opens. */
export interface ShownMarker extends SpotMarker {
  name: string;
  letter: string;
  stateLabel: string;
  /** The file a click opens, when it is not the id (a table's row: the table). */
  open?: string;
}

/** A document or row not on the map, and why; `swap`: swapping its latitude and longitude would make it a place. */
export interface SkippedSpot {
  id: string;
  reason: string;
  swap?: boolean;
}

/** A marker as the page takes it. `key`: how the page names it in messages back. */
export interface PageMarker {
  key: number;
  latitude: number;
  longitude: number;
  state: MarkerState;
  /** The spoken name: source_id, state, topic, place, and what is wrong with the place (markerName). */
  name: string;
  misplaced?: SpotMarker['misplaced'];
}

/** What the page is sent (tests read MapPanel.lastState). */
export interface MapState {
  mode: MapMode;
  markers: PageMarker[];
  /** `name`: the document or row as the list names it; `key` when the page may offer the swap. */
  skipped: Array<{ name: string; reason: string; key?: number }>;
  legend: Array<{ state: string; label: string; letter: string }>;
  tiles?: { template: string; attribution: string };
  /** The one-time offer of OpenStreetMap tiles: only while no tiles are set. */
  offerTiles: boolean;
  /** Why the tile setting is not used, when it is set but wrong. */
  tileProblem?: string;
  /** Whether the page may offer Swap (spot documents: yes; a table's rows are put right in the table or its mapping). */
  canSwap: boolean;
  /** While documents are still being read: how many of how many. */
  reading?: { done: number; total: number };
}

/** A marker's hover, sent when the page asks for it. */
export interface MarkerDetails {
  key: number;
  sourceId: string;
  stateLabel: string;
  topic: string;
  /** "Species (fld_7_1): Oak", each field the spot has with its value. */
  fields: string[];
  /** What is wrong with its place, when something is. */
  misplaced?: string;
  /** Whether the page may offer to swap latitude and longitude. */
  swap: boolean;
}

/**
 * The markers as they travel to the page: one array per field, where a record per marker with
 * its name was five times the bytes (10,000 spots: 1.5 MB, about 260 ms from the extension host
 * to the page in code-server). The page builds each name with the extension's rule (spokenName).
 */
export interface PackedMarkers {
  keys: number[];
  latitudes: number[];
  longitudes: number[];
  /** Each marker's state, as its index in the state's legend. */
  states: number[];
  sourceIds: string[];
  /** Each marker's topic as an index into topicNames; -1: none. */
  topics: number[];
  topicNames: string[];
  /** 0: in its topic's area (or no area); 1: outside; 2: outside, latitude and longitude probably swapped. */
  misplaced: number[];
  /** What a name says for misplaced 1 and 2. */
  misplacedTexts: [outside: string, swapped: string];
}

const MISPLACED: ReadonlyArray<SpotMarker['misplaced']> = [undefined, 'outside', 'swapped'];

/** The markers of a state packed for the page; `keyOf` names a marker in messages back. */
export function packMarkers(
  markers: readonly ShownMarker[],
  keyOf: (id: string) => number,
  legend: MapState['legend'],
  misplacedTexts: PackedMarkers['misplacedTexts'],
): PackedMarkers {
  const stateIndex = new Map(legend.map((entry, index) => [entry.state, index]));
  const topicIndex = new Map<string, number>();
  const packed: PackedMarkers = {
    keys: [],
    latitudes: [],
    longitudes: [],
    states: [],
    sourceIds: [],
    topics: [],
    topicNames: [],
    misplaced: [],
    misplacedTexts,
  };
  for (const marker of markers) {
    packed.keys.push(keyOf(marker.id));
    packed.latitudes.push(marker.latitude);
    packed.longitudes.push(marker.longitude);
    packed.states.push(stateIndex.get(marker.state) ?? -1);
    packed.sourceIds.push(marker.sourceId);
    let topic = marker.topic ? topicIndex.get(marker.topic) : -1;
    if (topic === undefined) topicIndex.set(marker.topic, (topic = packed.topicNames.push(marker.topic) - 1));
    packed.topics.push(topic);
    packed.misplaced.push(MISPLACED.indexOf(marker.misplaced));
  }
  return packed;
}

/** The page's markers from what it was sent, each named as the extension names it. */
export function unpackMarkers(packed: PackedMarkers, legend: MapState['legend']): PageMarker[] {
  return packed.keys.map((key, index) => {
    const misplaced = MISPLACED[packed.misplaced[index]];
    const entry = legend[packed.states[index]];
    const latitude = packed.latitudes[index];
    const longitude = packed.longitudes[index];
    const name = spokenName({
      sourceId: packed.sourceIds[index],
      stateLabel: entry?.label ?? '',
      topic: packed.topicNames[packed.topics[index]] ?? '',
      latitude,
      longitude,
      misplacedText: misplaced ? packed.misplacedTexts[packed.misplaced[index] - 1] : undefined,
    });
    return { key, latitude, longitude, state: (entry?.state ?? 'invalid') as MarkerState, name, ...(misplaced ? { misplaced } : {}) };
  });
}

/** The state as it travels: its markers packed. */
export type SentState = Omit<MapState, 'markers'> & { markers: PackedMarkers };

/** What the extension sends the page. */
export type PanelMessage = { type: 'state'; state: SentState } | { type: 'details'; details: MarkerDetails };

/**
 * The texts the page fills in itself, in the display language (mapPage.ts writes them into the
 * page): {0}, {1} stand for what the page puts in, as in the extension's own messages.
 */
export interface MapStrings {
  /** The summary: "1 spot." */
  oneSpot: string;
  /** "{0} spots." */
  spots: string;
  /** "1 spot; {0} not on the map (see the list)." */
  oneSpotSkipped: string;
  /** "{0} spots; {1} not on the map (see the list)." */
  spotsSkipped: string;
  /** After the summary while reading: "Reading… {0} of {1}". */
  reading: string;
  /** After the summary: "{0} outside their topic's area." */
  misplaced: string;
  /** After the summary when the tile setting is wrong: "Tiles off: {0}". */
  tilesOff: string;
  /** The list's button. */
  hideList: string;
  showList: string;
  /** The list's heading: "Spots in view ({0})"; "The first {0} of {1} spots in view" when longer. */
  listInView: string;
  listInViewCut: string;
  /** The heading of the misplaced spots in the list. */
  listMisplaced: string;
  /** The heading of the documents not on the map. */
  listSkipped: string;
  /** A group's tooltip: "{0} spots: {1}", {1} its states counted ("1 Active, 2 Invalid"). */
  groupTooltip: string;
  /** A group's spoken name: "Group of {0} spots ({1}); press Enter to zoom in". */
  groupLabel: string;
  /** A list entry of a document not on the map: "{0}: not on the map ({1})", its name and why. */
  skipped: string;
  /** The button that swaps a spot's latitude and longitude. */
  swap: string;
  /** Pick mode without tiles: why a tile layer helps. */
  pickWithoutTiles: string;
}

/** What the page sends back. */
export type PageMessage =
  | { type: 'ready' }
  | { type: 'open'; key: number }
  | { type: 'details'; key: number }
  | { type: 'swap'; key: number }
  | { type: 'pick'; latitude: number; longitude: number }
  | { type: 'useOsmTiles' }
  /** The page drew a state: how long it took there (the map bench reads it from the log). */
  | {
      type: 'drawn';
      markers: number;
      ms: number;
      sinceLoad: number;
      /** Milliseconds after the page began to load: its document was asked for, its script began to run, it said it is ready, its first state came. */
      steps: { document: number; script: number; ready: number; firstState: number };
    };
