// What the map panel (mapPanel.ts, in the extension host) and its page (webview/main.ts, in the
// webview) send each other: one set of types for both sides. Types only, so the page's bundle
// takes nothing from here at run time.
import type { SpotMarker } from '../core/map';

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

/** What the page sends back. */
export type PageMessage = { type: 'ready' } | { type: 'open'; id: string } | { type: 'pick'; latitude: number; longitude: number } | { type: 'useOsmTiles' };
