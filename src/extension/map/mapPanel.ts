// The map: a webview panel (Leaflet in dist/mapView.js, see src/extension/map/webview) that shows the
// markers of a set of spot documents over the offline outline, and tiles when the user chose a
// tile server. It follows edits of those documents (a changed latitude moves its marker), opens a
// document at its latitude when its marker or list entry is chosen, and in pick mode writes the
// clicked location into its one document.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ExtensionServices } from '../platform/services';
import { MARKER_STATES } from '../../core/map';
import { applyLocation } from './applyLocation';
import type { MarkerSource } from './collectMarkers';
import type { MapMode, MapState, PageMarker, PageMessage } from './pageProtocol';
import { mapPage } from './mapPage';
import { affectsMap, mapPrecision, mapTiles, useOsmTiles } from './mapSettings';

const MAP_VIEW_TYPE = 'spotImport.map';

/** Edits come in keystrokes: a marker moves once typing pauses this long. */
const FOLLOW_DELAY_MS = 150;

export type { MapMode, MapState } from './pageProtocol';

/** A document, or a table's row ("trees.csv line 4"), as the list names it. */
function nameOf(id: string): string {
  const [uri, line] = id.split('#L');
  const name = vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false);
  return line ? vscode.l10n.t('{0} line {1}', name, line) : name;
}

export class MapPanel {
  readonly panel: vscode.WebviewPanel;
  lastState: MapState | undefined;
  private markers = new Map<string, PageMarker>();
  private skipped = new Map<string, string>();
  private readonly nonce = randomBytes(16).toString('base64');
  private tileOrigin: string | undefined | null = null;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly pendingFollow = new Map<string, ReturnType<typeof setTimeout>>();
  /** Resolves when the first page said it is ready (messages sent before would be lost). */
  readonly ready: Promise<void>;
  private disposed = false;

  constructor(
    private readonly services: ExtensionServices,
    readonly key: string,
    title: string,
    readonly mode: MapMode,
    private readonly source: MarkerSource,
    onDispose: () => void,
  ) {
    const dist = vscode.Uri.joinPath(services.context.extensionUri, 'dist');
    this.panel = vscode.window.createWebviewPanel(MAP_VIEW_TYPE, title, mode === 'pick' ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [dist],
    });
    let pageReady: () => void = () => undefined;
    this.ready = new Promise((resolve) => (pageReady = resolve));
    const watched = new Set(source.watched.map((uri) => uri.toString()));
    this.subscriptions.push(
      this.panel.webview.onDidReceiveMessage((message: PageMessage) => {
        // A page (re)loaded: it has nothing yet; it gets the state as it is now.
        if (message?.type === 'ready') {
          pageReady();
          if (this.lastState) void this.panel.webview.postMessage({ type: 'state', state: this.lastState });
        } else void this.onMessage(message).catch((error: unknown) => services.log.warn('map', 'a map action failed', error));
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (watched.has(event.document.uri.toString()) && event.contentChanges.length > 0) this.follow(event.document.uri);
      }),
      vscode.languages.onDidChangeDiagnostics((event) => {
        for (const uri of event.uris) if (watched.has(uri.toString())) this.follow(uri);
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsMap(event)) void this.send();
      }),
    );
    this.panel.onDidDispose(() => {
      this.disposed = true;
      for (const timer of this.pendingFollow.values()) clearTimeout(timer);
      for (const subscription of this.subscriptions) subscription.dispose();
      onDispose();
    });
  }

  /** Reads every document and draws the map. */
  async load(): Promise<void> {
    const collected = await this.source.collect();
    this.markers = new Map(collected.markers.map((marker) => [marker.id, marker]));
    this.skipped = new Map(collected.skipped.map((skip) => [skip.id, skip.reason]));
    await this.send();
  }

  /** The markers shown now (tests). */
  shown(): PageMarker[] {
    return [...this.markers.values()];
  }

  /** Waits until no edit is waiting to move a marker (tests). */
  async settled(): Promise<void> {
    while (this.pendingFollow.size > 0) await new Promise((resolve) => setTimeout(resolve, FOLLOW_DELAY_MS));
  }

  /** Pick mode: writes a location (clicked, or the centre on Enter) into the document, rounded to spotImport.map.precision. */
  async pick(latitude: number, longitude: number): Promise<{ latitude: number; longitude: number } | undefined> {
    if (this.mode !== 'pick' || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined;
    return applyLocation(this.source.watched[0], latitude, longitude, mapPrecision());
  }

  private follow(uri: vscode.Uri): void {
    const id = uri.toString();
    clearTimeout(this.pendingFollow.get(id));
    this.pendingFollow.set(
      id,
      setTimeout(() => {
        const one = this.source.one;
        // A table's rows are collected again whole (an edit can move every row after it).
        if (!one) {
          void this.load()
            .catch((error: unknown) => this.services.log.warn('map', `the markers of ${id} could not be updated`, error))
            .finally(() => this.pendingFollow.delete(id));
          return;
        }
        void one(uri)
          .then((result) => {
            if (this.disposed) return;
            if ('reason' in result) {
              this.markers.delete(id);
              this.skipped.set(id, result.reason);
            } else {
              this.markers.set(id, result);
              this.skipped.delete(id);
            }
            return this.send();
          })
          .catch((error: unknown) => this.services.log.warn('map', `the marker of ${id} could not be updated`, error))
          .finally(() => this.pendingFollow.delete(id));
      }, FOLLOW_DELAY_MS),
    );
  }

  private async send(): Promise<void> {
    if (this.disposed) return;
    const tiles = mapTiles();
    const source = tiles.ok ? tiles.source : undefined;
    // A new tile server needs a new page: the policy names exactly its origin.
    const newPage = source?.origin !== this.tileOrigin;
    if (newPage) {
      this.tileOrigin = source?.origin;
      const dist = vscode.Uri.joinPath(this.services.context.extensionUri, 'dist');
      this.panel.webview.html = mapPage(this.panel.webview, dist, { nonce: this.nonce, tileOrigin: source?.origin, title: this.panel.title });
    }
    const state: MapState = {
      mode: this.mode,
      markers: this.shown(),
      skipped: [...this.skipped].map(([id, reason]) => ({ id: nameOf(id), reason })),
      legend: Object.entries(MARKER_STATES).map(([state, { label, letter }]) => ({ state, label, letter })),
      tiles: source ? { template: source.template, attribution: source.attribution } : undefined,
      offerTiles: tiles.ok && !source,
      tileProblem: tiles.ok ? undefined : tiles.reason,
    };
    this.lastState = state;
    // A new page asks for the state when it is ready (above).
    if (newPage) return;
    await this.ready;
    if (!this.disposed) await this.panel.webview.postMessage({ type: 'state', state });
  }

  private async onMessage(message: PageMessage): Promise<void> {
    if (message.type === 'open') {
      const marker = this.markers.get(message.id);
      if (!marker) return;
      const position = new vscode.Position(marker.line, 0);
      await vscode.window.showTextDocument(vscode.Uri.parse(marker.open ?? marker.id), {
        selection: new vscode.Range(position, position),
        viewColumn: vscode.ViewColumn.One,
        preview: false,
      });
    } else if (message.type === 'pick') {
      await this.pick(message.latitude, message.longitude);
    } else if (message.type === 'useOsmTiles') {
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Show OpenStreetMap tiles under the map? The map will then load pictures from tile.openstreetmap.org (their tile usage policy applies). This writes the setting spotImport.map.tiles.',
        ),
        { modal: true },
        vscode.l10n.t('Use OpenStreetMap Tiles'),
      );
      if (choice) await useOsmTiles();
    }
  }
}
