// The map page (runs in the webview, a browser): Leaflet over the built-in world outline, the
// markers the extension sends, and the spots in view as a list of buttons. Markers are grouped at
// each zoom (src/core/map/markerGroups.ts: a few hundred elements at most, however many spots, and
// never overlapping), and each marker or group is a focusable button with a spoken name. A
// marker's hover asks the extension for its fields. Everything the page does goes back to the
// extension as a message: open a spot, swap its coordinates, pick a location, use OpenStreetMap
// tiles. Its texts come from the extension, in the display language (mapStrings in
// src/extension/map/mapPage.ts).
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './map.css';
import outline from 'spot-world-outline';
import borders from 'spot-world-borders';
import water from 'spot-world-water';
import { decodeBorders, decodeOutline } from '../../../core/map/outline';
import { MarkerGroups, type MarkerGroup } from '../../../core/map/markerGroups';
import { unpackMarkers, type MapState, type MapStrings, type MarkerDetails, type PageMarker, type PageMessage, type PanelMessage } from '../pageProtocol';
import { graticule } from './graticule';

declare function acquireVsCodeApi(): { postMessage(message: PageMessage): void };
/** When the page's steps happened (the map's log line names them). */
const steps = { script: performance.now(), ready: 0, firstState: 0, document: documentRequested() };

/**
 * When the page's own document was asked for: in a browser workbench, a map opened after another
 * webview waits about a second here for the workbench's service worker (its script address names
 * each webview, so each new one is installed anew), before any of this page's work.
 */
function documentRequested(): number {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation ? navigation.fetchStart : 0;
}
const vscode = acquireVsCodeApi();

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const strings = JSON.parse(document.body.dataset.strings ?? '{}') as MapStrings;
/** A template's {0}, {1}… filled in (one pass: what is put in is not read again). */
const format = (template: string, ...args: Array<string | number>): string =>
  template.replace(/\{(\d+)\}/g, (match, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : match));
const count = (value: number): string => value.toLocaleString(document.documentElement.lang || undefined);

/** The list's order: one collator, many times faster than localeCompare for the thousands of spots a view can hold. */
const byName = new Intl.Collator(document.documentElement.lang || undefined);
/** The list names the spots in view, this many at most (the map has them all; the list is for reading them). */
const LIST_MAX = 200;
/** Markers just outside the view are drawn too, so a small pan shows no gap. */
const VIEW_PAD = 0.25;

const map = L.map('map', { worldCopyJump: true, zoomSnap: 0.5, minZoom: 1, attributionControl: true }).setView([20, 0], 2);
map.attributionControl.setPrefix('Leaflet');
// The outline as one polygon of every ring: drawn even-odd, so lakes stay holes.
L.polygon(decodeOutline(outline), { interactive: false, className: 'outline', weight: 1 }).addTo(map);
// Large lakes and rivers, and country borders over them, so a survey's spots sit in a country and
// by water one recognises without tiles.
// Rivers first: Natural Earth's run through their lakes (lake centrelines), and the lakes cover that.
L.polyline(decodeBorders(water.rivers), { interactive: false, className: 'rivers', weight: 1 }).addTo(map);
L.polygon(decodeBorders(water.lakes), { interactive: false, className: 'lakes', weight: 1 }).addTo(map);
L.polyline(decodeBorders(borders), { interactive: false, className: 'borders', weight: 1 }).addTo(map);
graticule(map);
L.control.scale({ position: 'bottomleft' }).addTo(map);
const markerLayer = L.layerGroup().addTo(map);
let tileLayer: L.TileLayer | undefined;
let state: MapState | undefined;
let groups: MarkerGroups<PageMarker> | undefined;
/** Hovers asked for and not answered yet, by marker. */
const waitingDetails = new Map<number, L.Marker>();
let fitted = false;
/** Whether the person moved or zoomed the map: then a later batch of markers does not move it again. */
let touched = false;

function post(message: PageMessage): void {
  vscode.postMessage(message);
}

function tooltipOf(details: MarkerDetails): string {
  const lines = [
    `<strong>${escapeHtml(details.sourceId)}</strong> (${escapeHtml(details.stateLabel)})`,
    ...(details.topic ? [escapeHtml(details.topic)] : []),
    ...(details.misplaced ? [`<em>${escapeHtml(details.misplaced)}</em>`] : []),
    ...details.fields.map(escapeHtml),
  ];
  return lines.join('<br>');
}

/** Enter and Space on a focused marker do what a click does. */
function onActivate(element: HTMLElement | undefined, action: () => void): void {
  element?.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      action();
    }
  });
}

/** A longitude Leaflet gives on a copy of the world, brought into -180..180. */
const wrap = (longitude: number): number => ((((longitude + 180) % 360) + 360) % 360) - 180;

function groupsInView(): Array<MarkerGroup<PageMarker>> {
  if (!groups) return [];
  const view = map.getBounds().pad(VIEW_PAD);
  // A view wider than the world takes it all.
  const box: [number, number, number, number] =
    view.getEast() - view.getWest() >= 360
      ? [-180, view.getSouth(), 180, view.getNorth()]
      : [wrap(view.getWest()), view.getSouth(), wrap(view.getEast()), view.getNorth()];
  return groups.groupsIn(box, map.getZoom());
}

function drawSpot(spot: PageMarker, focused: string | undefined): void {
  const misplaced = spot.misplaced ? ' misplaced' : '';
  const marker = L.marker([spot.latitude, spot.longitude], {
    icon: L.divIcon({
      className: `spot-marker state-${spot.state}${misplaced}`,
      html: `<span aria-hidden="true">${escapeHtml(state?.legend.find((entry) => entry.state === spot.state)?.letter ?? '')}</span>${spot.misplaced ? '<b class="misplaced-badge" aria-hidden="true">?</b>' : ''}`,
      iconSize: [22, 22],
    }),
    keyboard: true,
  });
  marker.bindTooltip(escapeHtml(spot.name), { direction: 'top', offset: [0, -10] });
  // The hover's fields come from the extension when it first opens.
  marker.on('tooltipopen', () => {
    if (marker.getTooltip()?.options.className === 'has-details') return;
    waitingDetails.set(spot.key, marker);
    post({ type: 'details', key: spot.key });
  });
  marker.on('click', () => (state?.mode === 'pick' ? pickAt(marker.getLatLng()) : post({ type: 'open', key: spot.key })));
  marker.addTo(markerLayer);
  const element = marker.getElement();
  element?.setAttribute('aria-label', spot.name);
  element?.setAttribute('data-spot', String(spot.key));
  if (state?.mode === 'show') onActivate(element, () => post({ type: 'open', key: spot.key }));
  // The tooltip for keyboard users too.
  element?.addEventListener('focus', () => marker.openTooltip());
  element?.addEventListener('blur', () => marker.closeTooltip());
  if (focused === String(spot.key)) element?.focus();
}

function drawGroup(group: MarkerGroup<PageMarker>): void {
  if (!state) return;
  // In the legend's order, so a group is always described the same way.
  const counts = new Map<string, number>(state.legend.map((entry) => [entry.state, 0]));
  for (const spot of group.members) counts.set(spot.state, (counts.get(spot.state) ?? 0) + 1);
  const words = state.legend
    .filter((entry) => (counts.get(entry.state) ?? 0) > 0)
    .map((entry) => `${count(counts.get(entry.state) ?? 0)} ${entry.label}`)
    .join(', ');
  const worst = group.members.some((spot) => spot.state === 'invalid' || spot.misplaced) ? ' has-invalid' : '';
  const cluster = L.marker(group.center, {
    icon: L.divIcon({ className: `spot-cluster${worst}`, html: `<span>${count(group.members.length)}</span>`, iconSize: [34, 34] }),
    keyboard: true,
  });
  const zoomIn = () => {
    const bounds = L.latLngBounds(group.members.map((spot) => [spot.latitude, spot.longitude]));
    // Spots at one place: zooming cannot part them, so the list names them.
    if (bounds.getNorthEast().equals(bounds.getSouthWest())) map.setView(bounds.getCenter(), Math.max(map.getZoom(), 16));
    else map.fitBounds(bounds, { maxZoom: map.getZoom() + 3, padding: [40, 40] });
  };
  cluster.on('click', zoomIn);
  cluster.bindTooltip(escapeHtml(format(strings.groupTooltip, count(group.members.length), words)), { direction: 'top' });
  cluster.addTo(markerLayer);
  const element = cluster.getElement();
  element?.setAttribute('aria-label', format(strings.groupLabel, count(group.members.length), words));
  onActivate(element, zoomIn);
}

function drawMarkers(): void {
  if (!state) return;
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.spot;
  markerLayer.clearLayers();
  waitingDetails.clear();
  const shown = groupsInView();
  for (const group of shown) {
    if (group.members.length === 1) drawSpot(group.members[0], focused);
    else drawGroup(group);
  }
  drawList(shown);
  document.body.dataset.drawn = String(shown.length);
}

function listButton(spot: PageMarker): HTMLLIElement {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `list-spot state-${spot.state}`;
  button.dataset.key = String(spot.key);
  const letter = state?.legend.find((entry) => entry.state === spot.state)?.letter ?? '';
  button.innerHTML = `<span class="badge" aria-hidden="true">${escapeHtml(letter)}</span> ${escapeHtml(spot.name)}`;
  button.addEventListener('click', () => post({ type: 'open', key: spot.key }));
  button.addEventListener('focus', () => map.panTo([spot.latitude, spot.longitude]));
  item.append(button);
  return item;
}

function swapButton(key: number): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'swap';
  button.dataset.key = String(key);
  button.textContent = strings.swap;
  button.addEventListener('click', () => post({ type: 'swap', key }));
  return button;
}

function heading(text: string): HTMLLIElement {
  const item = document.createElement('li');
  const title = document.createElement('h2');
  title.className = 'list-heading';
  title.textContent = text;
  item.append(title);
  return item;
}

/** The list: misplaced spots and documents not on the map first (each under its problem), then the spots in view. */
function drawList(shown: Array<MarkerGroup<PageMarker>>): void {
  if (!state) return;
  const list = byId<HTMLUListElement>('list-items');
  // The list is drawn anew after each move (focusing an entry pans the map to it): the entry that
  // had the keyboard gets it back.
  const active = document.activeElement as HTMLElement | null;
  const focused =
    active && list.contains(active) && active.dataset.key !== undefined
      ? `button.${active.className.split(' ')[0]}[data-key="${active.dataset.key}"]`
      : undefined;
  const items: HTMLLIElement[] = [];
  const misplaced = state.markers.filter((spot) => spot.misplaced);
  if (misplaced.length > 0) {
    items.push(heading(format(strings.listMisplaced, count(misplaced.length))));
    for (const spot of misplaced.slice(0, LIST_MAX)) {
      const item = listButton(spot);
      if (spot.misplaced === 'swapped' && state.mode === 'show' && state.canSwap) item.append(swapButton(spot.key));
      items.push(item);
    }
  }
  if (state.skipped.length > 0) {
    items.push(heading(format(strings.listSkipped, count(state.skipped.length))));
    for (const skip of state.skipped.slice(0, LIST_MAX)) {
      const item = document.createElement('li');
      item.className = 'skipped';
      item.textContent = format(strings.skipped, skip.name, skip.reason);
      if (skip.key !== undefined && state.mode === 'show') item.append(' ', swapButton(skip.key));
      items.push(item);
    }
  }
  const bounds = map.getBounds();
  const inView = shown
    .flatMap((group) => group.members)
    .filter((spot) => bounds.contains([spot.latitude, spot.longitude]) || bounds.contains([spot.latitude, spot.longitude + 360]))
    .sort((a, b) => byName.compare(a.name, b.name));
  items.push(
    heading(inView.length > LIST_MAX ? format(strings.listInViewCut, count(LIST_MAX), count(inView.length)) : format(strings.listInView, count(inView.length))),
  );
  items.push(...inView.slice(0, LIST_MAX).map(listButton));
  list.replaceChildren(...items);
  if (focused) list.querySelector<HTMLElement>(focused)?.focus({ preventScroll: true });
}

function drawToolbar(): void {
  if (!state) return;
  const { markers, mode } = state;
  const skipped = state.skipped.length;
  const one = markers.length === 1;
  const summary = skipped
    ? one
      ? format(strings.oneSpotSkipped, count(skipped))
      : format(strings.spotsSkipped, count(markers.length), count(skipped))
    : one
      ? strings.oneSpot
      : format(strings.spots, count(markers.length));
  const misplaced = markers.filter((spot) => spot.misplaced).length;
  const extra = [
    misplaced ? format(strings.misplaced, count(misplaced)) : '',
    state.reading ? format(strings.reading, count(state.reading.done), count(state.reading.total)) : '',
    state.tileProblem ? format(strings.tilesOff, state.tileProblem) : '',
  ].filter(Boolean);
  byId('summary').textContent = [summary, ...extra].join(' ');
  byId('legend').innerHTML = state.legend
    .map(
      (entry) =>
        `<li><span class="spot-marker state-${escapeHtml(entry.state)} legend-icon" aria-hidden="true"><span>${escapeHtml(entry.letter)}</span></span>${escapeHtml(entry.label)}</li>`,
    )
    .join('');
  byId('use-osm').hidden = !state.offerTiles;
  byId('pick-hint').hidden = mode !== 'pick';
  byId('pick-without-tiles').hidden = !(mode === 'pick' && !state.tiles);
  document.body.classList.toggle('picking', mode === 'pick');
}

function drawTiles(): void {
  const wanted = state?.tiles;
  if (tileLayer && (!wanted || (tileLayer as unknown as { _url: string })._url !== wanted.template)) {
    tileLayer.remove();
    tileLayer = undefined;
  }
  if (wanted && !tileLayer) {
    tileLayer = L.tileLayer(wanted.template, { attribution: escapeHtml(wanted.attribution), maxZoom: 19, className: 'tiles' }).addTo(map);
    tileLayer.bringToBack();
  }
  document.body.classList.toggle('with-tiles', !!wanted);
}

function pickAt(at: L.LatLng): void {
  post({ type: 'pick', latitude: at.lat, longitude: at.lng });
}

/** The place under the pointer, in a corner: where a click would pick, and what a person reads off to compare. */
const pointer = new (L.Control.extend({
  onAdd() {
    const element = L.DomUtil.create('div', 'pointer-position');
    element.setAttribute('aria-hidden', 'true');
    return element;
  },
}))({ position: 'bottomright' }).addTo(map);
map.on('mousemove', (event: L.LeafletMouseEvent) => {
  const { lat, lng } = event.latlng.wrap();
  pointer.getContainer()!.textContent = `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
});
map.on('mouseout', () => (pointer.getContainer()!.textContent = ''));

/** While a new state is taken in: the view it fits fires zoomend and moveend, and the state draws once after. */
let takingState = false;
map.on('zoomend moveend', () => {
  document.body.dataset.zoom = String(map.getZoom());
  if (!takingState) drawMarkers();
});
// The person moved the map: by pointer, wheel or touch, or by the keys that pan and zoom it (not Tab).
for (const event of ['mousedown', 'wheel', 'touchstart']) byId('map').addEventListener(event, () => (touched = true), { passive: true });
byId('map').addEventListener('keydown', (event) => {
  if (/^(Arrow|\+|-|=)/.test(event.key)) touched = true;
});
map.on('click', (event: L.LeafletMouseEvent) => {
  if (state?.mode === 'pick') pickAt(event.latlng);
});
// Keyboard picking: the arrow keys move the map (Leaflet's keyboard handler), Enter takes the place under the mark (the map's centre).
byId('map').addEventListener('keydown', (event) => {
  if (state?.mode === 'pick' && event.key === 'Enter' && event.target === byId('map')) {
    event.preventDefault();
    pickAt(map.getCenter());
  }
});
// The map's element changes size with the window and when the toolbar or the pick hint grows or
// shrinks: Leaflet is told, so its centre stays the middle of what is shown, where the pick mark is.
new ResizeObserver(() => map.invalidateSize({ pan: false })).observe(byId('map'));
byId('use-osm').addEventListener('click', () => post({ type: 'useOsmTiles' }));
byId('pick-use-osm').addEventListener('click', () => post({ type: 'useOsmTiles' }));
byId('toggle-list').addEventListener('click', () => {
  const button = byId('toggle-list');
  const shown = byId('list').hidden;
  byId('list').hidden = !shown;
  button.setAttribute('aria-expanded', String(shown));
  button.textContent = shown ? strings.hideList : strings.showList;
});

function fit(markers: readonly PageMarker[]): void {
  const bounds = L.latLngBounds(markers.map((spot) => [spot.latitude, spot.longitude]));
  map.fitBounds(bounds, { maxZoom: markers.length === 1 ? 12 : 10, padding: [40, 40], animate: false });
}

window.addEventListener('message', (event: MessageEvent<PanelMessage>) => {
  const message = event.data;
  if (message?.type === 'details') {
    const marker = waitingDetails.get(message.details.key);
    waitingDetails.delete(message.details.key);
    marker?.setTooltipContent(tooltipOf(message.details));
    if (marker?.getTooltip()) marker.getTooltip()!.options.className = 'has-details';
    if (message.details.swap && state?.mode === 'show' && marker) {
      const item = document.querySelector(`#list-items button[data-key="${message.details.key}"]`)?.parentElement;
      if (item && !item.querySelector('.swap')) item.append(swapButton(message.details.key));
    }
    return;
  }
  if (message?.type !== 'state') return;
  const started = performance.now();
  steps.firstState ||= started;
  const previous = state;
  state = { ...message.state, markers: unpackMarkers(message.state.markers, message.state.legend) };
  groups = new MarkerGroups(state.markers);
  drawToolbar();
  drawTiles();
  // The first markers place the view; once all are read they place it again, unless the person moved it meanwhile.
  if (state.markers.length > 0 && (!fitted || (!touched && !state.reading && previous?.reading))) {
    fitted = true;
    takingState = true;
    try {
      fit(state.markers);
    } finally {
      takingState = false;
    }
  }
  drawMarkers();
  document.body.dataset.markers = String(state.markers.length);
  document.body.dataset.reading = state.reading ? 'true' : 'false';
  if (!state.reading) post({ type: 'drawn', markers: state.markers.length, ms: performance.now() - started, sinceLoad: performance.now(), steps });
});

steps.ready = performance.now();
post({ type: 'ready' });
