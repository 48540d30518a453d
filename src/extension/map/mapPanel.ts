// The map: a webview panel (Leaflet in dist/mapView.js, see src/extension/map/webview) that shows the
// markers of a set of spot documents over the offline outline, and tiles when the user chose a
// tile server. The page is written at once and loads while the documents are read; markers reach
// it in batches as they are read. It follows edits of those documents (a changed latitude moves
// its marker), opens a document beside the map at its latitude when its marker or list entry is
// chosen, swaps a misplaced spot's latitude and longitude, and in pick mode writes the clicked
// location into its one document.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ExtensionServices } from '../platform/services';
import type { SpotChecker } from '../documents/spotChecker';
import { MARKER_STATES, misplacedText } from '../../core/map';
import { applyLocation, swapLocation } from './applyLocation';
import { BUILT_IN_COMMAND } from '../platform/commandIds';
import type { MarkerSource } from './collectMarkers';
import { packMarkers, unpackMarkers, type MapMode, type MapState, type PageMessage, type PanelMessage, type SentState, type ShownMarker } from './pageProtocol';
import { mapPage } from './mapPage';
import { affectsMap, mapPrecision, mapTiles, useOsmTiles } from './mapSettings';

const MAP_VIEW_TYPE = 'spotImport.map';

/** Edits come in keystrokes: a marker moves once typing pauses this long. */
const FOLLOW_DELAY_MS = 150;

/** Followed like an edited document, but redraws every marker. */
const TOPICS_CHANGED = vscode.Uri.from({ scheme: 'spot-import-topics', path: '/changed' });

export type { MapMode, MapState } from './pageProtocol';

/** A document, or a table's row ("trees.csv line 4"), as the list names it. */
function nameOf(id: string): string {
  const [uri, line] = id.split('#L');
  const name = vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false);
  return line ? vscode.l10n.t('{0} line {1}', name, line) : name;
}

export class MapPanel {
  readonly panel: vscode.WebviewPanel;
  /** The last state as it was sent: a page that loads again gets it as it is. */
  private lastSent: SentState | undefined;
  private unpacked: { from: SentState; state: MapState } | undefined;
  private markers = new Map<string, ShownMarker>();
  private skipped = new Map<string, { reason: string; swap?: boolean }>();
  /** The page names a spot by a number (short, for tens of thousands of markers): the same number for the same id while the panel lives. */
  private readonly keys = new Map<string, number>();
  private readonly ids: string[] = [];
  private reading: MapState['reading'];
  /** One state is sent at a time, in order; a newer one waiting replaces an older one. */
  private sending: Promise<void> = Promise.resolve();
  private sendQueued = false;
  /** Stops the reading when the panel is closed before it is done. */
  private readonly closed = new AbortController();
  /** Documents an edit moved while the reading was under way: their marker is newer than the reader's. */
  private readonly edited = new Set<string>();
  private loading = false;
  /** When the first page said it is ready (the log line of load). */
  private readyAt: number | undefined;
  private pageReady: () => void = () => undefined;
  private readonly nonce = randomBytes(16).toString('base64');
  private tileOrigin: string | undefined | null = null;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly pendingFollow = new Map<string, ReturnType<typeof setTimeout>>();
  /** Resolves when the first page said it is ready (messages sent before would be lost). */
  readonly ready: Promise<void>;
  private disposed = false;

  constructor(
    private readonly services: ExtensionServices & { readonly checker: SpotChecker },
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
    this.ready = new Promise((resolve) => (this.pageReady = resolve));
    const isWatched = (uri: vscode.Uri) => this.watches(uri.toString());
    this.subscriptions.push(
      this.panel.webview.onDidReceiveMessage((message: PageMessage) => {
        // A page (re)loaded: it has nothing yet; it gets the state as it is now.
        if (message?.type === 'ready') {
          this.readyAt ??= Date.now();
          this.pageReady();
          if (this.lastSent) void this.post({ type: 'state', state: this.lastSent });
        } else
          void this.onMessage(message).catch((error: unknown) => {
            services.log.warn('map', 'a map action failed', error);
            void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
          });
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0 && isWatched(event.document.uri)) this.follow(event.document.uri);
      }),
      vscode.languages.onDidChangeDiagnostics((event) => {
        for (const uri of event.uris) if (isWatched(uri)) this.follow(uri);
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsMap(event)) void this.send();
      }),
      // Whether a spot lies in its topic's area, and its fields' labels, come from the definitions.
      services.checker.onDidChangeTopics(() => this.follow(TOPICS_CHANGED)),
    );
    this.panel.onDidDispose(() => {
      this.disposed = true;
      // Nothing waits for a page that will not come, and no more files are read for it.
      this.pageReady();
      this.closed.abort();
      for (const timer of this.pendingFollow.values()) clearTimeout(timer);
      for (const subscription of this.subscriptions) subscription.dispose();
      onDispose();
    });
  }

  /**
   * Reads every document and draws the map: the page is written first, so it loads while the
   * documents are read, and what was read goes to it in batches. A load asked for while one is
   * under way (a topic definition changed) begins after it, so the newer one is drawn last.
   */
  load(): Promise<void> {
    // Asked for again before the waiting one began: that one will read what is there then.
    if (this.loadWaiting) return this.loadWaiting;
    const next = this.loads
      .catch(() => undefined)
      .then(() => {
        this.loadWaiting = undefined;
        return this.loadNow();
      });
    this.loads = this.loadWaiting = next;
    return next;
  }

  private loads: Promise<void> = Promise.resolve();
  private loadWaiting: Promise<void> | undefined;
  /** The topic definitions the last reading began with (topicsNow). */
  private topicsLoaded: Promise<string | undefined> = Promise.resolve(undefined);

  private async loadNow(): Promise<void> {
    if (this.disposed) return;
    const started = Date.now();
    this.writePage();
    this.topicsLoaded = this.topicsNow().catch(() => undefined);
    let batches = 0;
    this.loading = true;
    this.edited.clear();
    let collected;
    /** What was drawn as complete while the source went on (a folder searched again). */
    let drawnComplete: unknown;
    try {
      collected = await this.source.collect((sofar, total, complete) => {
        batches++;
        drawnComplete = complete ? sofar : undefined;
        this.take(sofar, complete ? undefined : { done: sofar.markers.length + sofar.skipped.length, total });
        return this.send();
      }, this.closed.signal);
    } finally {
      this.loading = false;
    }
    if (this.disposed) return;
    const readMs = Date.now() - started;
    // The same whole again (nothing gone, nothing new) is not sent again, unless an edit came meanwhile.
    const unchanged = collected === drawnComplete && this.edited.size === 0;
    this.take(collected, undefined);
    this.edited.clear();
    if (unchanged) await this.sending;
    else await this.send();
    this.services.log.info(
      'map',
      `${this.panel.title}: ${collected.markers.length} markers and ${collected.skipped.length} not on the map, read in ${readMs} ms (${batches} batches before the last${spentText(collected.spent)}), sent in ${Date.now() - started} ms${this.readyAt !== undefined && this.readyAt >= started ? `; the page was ready after ${this.readyAt - started} ms` : ''}`,
    );
  }

  private watchedIds = new Set<string>();
  private watchedFrom: readonly vscode.Uri[] | undefined;

  /** Whether the map shows this file (known once reading began; a folder's set changes when its search ends). */
  private watches(id: string): boolean {
    if (this.watchedFrom !== this.source.watched) {
      this.watchedFrom = this.source.watched;
      this.watchedIds = new Set(this.watchedFrom.map((each) => each.toString()));
    }
    return this.watchedIds.has(id);
  }

  private take(
    collected: { markers: readonly ShownMarker[]; skipped: ReadonlyArray<{ id: string; reason: string; swap?: boolean }> },
    reading: MapState['reading'],
  ): void {
    const before = { markers: this.markers, skipped: this.skipped };
    this.markers = new Map(collected.markers.map((marker) => [marker.id, marker]));
    this.skipped = new Map(collected.skipped.map(({ id, reason, swap }) => [id, { reason, swap }]));
    // An edit after the reader read the document wins over what it read, unless the folder's
    // search since found that the document is not one of the map's.
    for (const id of this.edited) {
      if (!this.watches(id)) continue;
      this.markers.delete(id);
      this.skipped.delete(id);
      const marker = before.markers.get(id);
      const skip = before.skipped.get(id);
      if (marker) this.markers.set(id, marker);
      if (skip) this.skipped.set(id, skip);
    }
    this.reading = reading;
  }

  /** The markers shown now (tests). */
  shown(): ShownMarker[] {
    return [...this.markers.values()];
  }

  private keyOf(id: string): number {
    let key = this.keys.get(id);
    if (key === undefined) {
      key = this.ids.push(id) - 1;
      this.keys.set(id, key);
    }
    return key;
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

  /**
   * A marker's document (a table at the row, a photo) opened beside the map, so the map stays in
   * view, as it was, to compare with: a click on a marker or its list entry.
   */
  async openMarker(id: string): Promise<void> {
    const marker = this.markers.get(id) ?? (this.skipped.has(id) ? { id, line: 0, open: undefined } : undefined);
    if (!marker) return;
    const position = new vscode.Position(marker.line, 0);
    const beside = this.panel.viewColumn === vscode.ViewColumn.One || this.panel.viewColumn === undefined ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    // vscode.open: a photo opens in VS Code's image preview, text in a text editor.
    const options: vscode.TextDocumentShowOptions = { selection: new vscode.Range(position, position), viewColumn: beside, preview: false };
    await vscode.commands.executeCommand(BUILT_IN_COMMAND.open, vscode.Uri.parse(marker.open ?? marker.id), options);
  }

  private follow(uri: vscode.Uri): void {
    const id = uri.toString();
    clearTimeout(this.pendingFollow.get(id));
    const timer: ReturnType<typeof setTimeout> = setTimeout(() => {
      // Only this timer's own entry goes: a newer one for the same document may have been set meanwhile.
      const done = () => {
        if (this.pendingFollow.get(id) === timer) this.pendingFollow.delete(id);
      };
      if (this.disposed) return done();
      const one = this.source.one;
      if (uri === TOPICS_CHANGED) {
        void this.reloadIfTopicsChanged()
          .catch((error: unknown) => this.services.log.warn('map', 'the markers could not be updated after a topic definition changed', error))
          .finally(done);
        return;
      }
      // A table's rows are collected again whole (an edit can move every row after it).
      if (!one) {
        void this.load()
          .catch((error: unknown) => this.services.log.warn('map', `the markers of ${id} could not be updated`, error))
          .finally(done);
        return;
      }
      void one(uri)
        .then((result) => {
          // Gone from the map meanwhile: the folder's search did not find it.
          if (this.disposed || !this.watches(id)) return;
          if (this.loading) this.edited.add(id);
          if ('reason' in result) {
            this.markers.delete(id);
            this.skipped.set(id, { reason: result.reason, swap: result.swap });
          } else {
            this.markers.set(id, result);
            this.skipped.delete(id);
          }
          return this.send();
        })
        .catch((error: unknown) => this.services.log.warn('map', `the marker of ${id} could not be updated`, error))
        .finally(done);
    }, FOLLOW_DELAY_MS);
    this.pendingFollow.set(id, timer);
  }

  /**
   * The topic store says so after every read of the definitions, also the first (the map's own
   * reading asks for it) and one that found them as they were: the documents are read again only
   * when the definitions now differ from those the last reading began with.
   */
  private async reloadIfTopicsChanged(): Promise<void> {
    const [now, loaded] = await Promise.all([this.topicsNow(), this.topicsLoaded]);
    if (now !== loaded) await this.load();
  }

  /** The definitions in effect in each workspace folder, as text to compare. */
  private async topicsNow(): Promise<string> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const catalogs = await Promise.all(folders.map((folder) => this.services.checker.topicsFor(folder.uri)));
    return JSON.stringify(catalogs.map((catalog) => (catalog ? [...catalog] : null)));
  }

  /** The page for the tile setting as it is now; a new tile server needs a new page (the policy names exactly its origin). */
  private writePage(): boolean {
    const tiles = mapTiles();
    const origin = tiles.ok ? tiles.source?.origin : undefined;
    if (origin === this.tileOrigin) return false;
    this.tileOrigin = origin;
    const dist = vscode.Uri.joinPath(this.services.context.extensionUri, 'dist');
    this.panel.webview.html = mapPage(this.panel.webview, dist, { nonce: this.nonce, tileOrigin: origin, title: this.panel.title });
    return true;
  }

  /**
   * Sends the state as it is when it can go; while one is on its way, or the page is not ready yet,
   * the next waits, and only the newest is sent (a page that loads while thousands of documents are
   * read gets them all in its first state, not the first batch and then the rest).
   */
  private send(): Promise<void> {
    if (this.sendQueued) return this.sending;
    this.sendQueued = true;
    const step = async () => {
      if (this.disposed) return;
      // A page written anew (the tile setting changed) asks for the state when it is ready (above).
      // The first page is waited for, and the tile setting looked at again after that wait.
      let newPage = this.writePage();
      if (!newPage) {
        await this.ready;
        newPage = !this.disposed && this.writePage();
      }
      this.sendQueued = false;
      if (this.disposed) return;
      this.lastSent = this.state();
      if (!newPage) await this.post({ type: 'state', state: this.lastSent });
    };
    this.sending = this.sending.then(() =>
      step().catch((error: unknown) => {
        this.sendQueued = false; // a later state is sent, not swallowed by this one
        throw error;
      }),
    );
    // A state that could not be posted (the panel went away) does not stop the ones after it.
    this.sending = this.sending.catch((error: unknown) => this.services.log.warn('map', 'a state could not be sent to the map', error));
    return this.sending;
  }

  /** The last state sent, as the page takes it (tests). */
  get lastState(): MapState | undefined {
    const sent = this.lastSent;
    if (!sent) return undefined;
    if (this.unpacked?.from !== sent) this.unpacked = { from: sent, state: { ...sent, markers: unpackMarkers(sent.markers, sent.legend) } };
    return this.unpacked.state;
  }

  /** The state as it is sent to the page. */
  private state(): SentState {
    const tiles = mapTiles();
    const source = tiles.ok ? tiles.source : undefined;
    const legend = Object.entries(MARKER_STATES).map(([state, { label, letter }]) => ({ state, label, letter }));
    return {
      mode: this.mode,
      markers: packMarkers(this.shown(), (id) => this.keyOf(id), legend, [misplacedText('outside'), misplacedText('swapped')]),
      skipped: [...this.skipped].map(([id, { reason, swap }]) => ({ name: nameOf(id), reason, ...(swap && this.canSwap ? { key: this.keyOf(id) } : {}) })),
      canSwap: this.canSwap,
      legend,
      tiles: source ? { template: source.template, attribution: source.attribution } : undefined,
      offerTiles: tiles.ok && !source,
      tileProblem: tiles.ok ? undefined : tiles.reason,
      ...(this.reading ? { reading: this.reading } : {}),
    };
  }

  private post(message: PanelMessage): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  /** A marker's hover: its fields with their values, and what is wrong with its place. */
  private details(key: number): void {
    const marker = this.markers.get(this.ids[key]);
    if (!marker) return;
    void this.post({
      type: 'details',
      details: {
        key,
        sourceId: marker.sourceId,
        stateLabel: marker.stateLabel,
        topic: marker.topic,
        fields: marker.fields,
        ...(marker.misplaced ? { misplaced: misplacedText(marker.misplaced) } : {}),
        swap: marker.misplaced === 'swapped' && this.canSwap,
      },
    });
  }

  /** Swap is offered for spot documents; a table's row is put right in its table or its mapping. */
  private get canSwap(): boolean {
    return this.source.one !== undefined;
  }

  async swap(id: string): Promise<void> {
    if (!this.canSwap || (!this.markers.has(id) && !this.skipped.has(id))) return;
    const uri = vscode.Uri.parse(id);
    await swapLocation(uri, await this.services.checker.topicsFor(uri));
  }

  private async onMessage(message: PageMessage): Promise<void> {
    if (message.type === 'open') {
      await this.openMarker(this.ids[message.key] ?? '');
    } else if (message.type === 'details') {
      this.details(message.key);
    } else if (message.type === 'swap') {
      await this.swap(this.ids[message.key] ?? '');
    } else if (message.type === 'drawn') {
      this.services.log.info(
        'map',
        `${this.panel.title}: the page drew ${message.markers} markers in ${Math.round(message.ms)} ms, ${Math.round(message.sinceLoad)} ms after it began to load (document asked for at ${Math.round(message.steps.document)} ms, script ran at ${Math.round(message.steps.script)} ms, ready at ${Math.round(message.steps.ready)} ms, first state at ${Math.round(message.steps.firstState)} ms)`,
      );
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

/** ", files 210 ms, markers 80 ms": the part of reading spent in the files and in making markers (the rest waited for the search or the extension host). */
function spentText(spent: { filesMs: number; markersMs: number } | undefined): string {
  return spent ? `; files ${Math.round(spent.filesMs)} ms, markers ${Math.round(spent.markersMs)} ms` : '';
}
