// What the map panel (mapPanel.ts, in the extension host) and its page (webview/main.ts, in the
// webview) send each other: one set of types for both sides. Types only, so the page's bundle
// takes nothing from here at run time.
import type { SpotMarker } from '../../core/map';

export type MapMode = 'show' | 'pick';

/** A marker as the page takes it: with its spoken name and its state's letter and words. */
export interface PageMarker extends SpotMarker {
  name: string;
  letter: string;
  stateLabel: string;
  /** The file a click opens, when it is not the id (a table's row: the table). */
  open?: string;
}

/** What the page is sent (tests read MapPanel.lastState). */
export interface MapState {
  mode: MapMode;
  markers: PageMarker[];
  skipped: Array<{ id: string; reason: string }>;
  legend: Array<{ state: string; label: string; letter: string }>;
  tiles?: { template: string; attribution: string };
  /** The one-time offer of OpenStreetMap tiles: only while no tiles are set. */
  offerTiles: boolean;
  /** Why the tile setting is not used, when it is set but wrong. */
  tileProblem?: string;
}

/**
 * The texts the page fills in itself, in the display language (mapPage.ts writes them into the
 * page): {0}, {1} stand for what the page puts in, as in the extension's own messages.
 */
export interface MapStrings {
  /** The summary: "1 spot." */
  oneSpot: string;
  /** "{0} spots." */
  spots: string;
  /** "1 spot, {0} without coordinates." */
  oneSpotSkipped: string;
  /** "{0} spots, {1} without coordinates." */
  spotsSkipped: string;
  /** After the summary when the tile setting is wrong: "Tiles off: {0}". */
  tilesOff: string;
  /** The list's button. */
  hideList: string;
  showList: string;
  /** A group's tooltip: "{0} spots: {1}", {1} its states counted ("1 Active, 2 Invalid"). */
  groupTooltip: string;
  /** A group's spoken name: "Group of {0} spots ({1}); press Enter to zoom in". */
  groupLabel: string;
  /** A list entry of a document not on the map: "{0}: not on the map ({1})", its name and why. */
  skipped: string;
}

/** What the page sends back. */
export type PageMessage = { type: 'ready' } | { type: 'open'; id: string } | { type: 'pick'; latitude: number; longitude: number } | { type: 'useOsmTiles' };
