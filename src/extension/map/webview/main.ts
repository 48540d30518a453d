// The map page (runs in the webview, a browser): Leaflet over the built-in world outline, the
// markers the extension sends, and the same spots as a list of buttons. Markers are grouped on a
// pixel grid at each zoom (a few hundred elements at most, however many spots), and each marker
// or group is a focusable button with a spoken name. Everything the page does goes back to the
// extension as a message: open a spot, pick a location, use OpenStreetMap tiles. Its texts come
// from the extension, in the display language (mapStrings in src/extension/map/mapPage.ts).
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './map.css';
import outline from 'spot-world-outline';
import { decodeOutline } from '../../../core/map/outline';
import { CELL_PX, clusterOnGrid, VIEW_PAD } from './grid';
import type { MapState, MapStrings, PageMarker, PageMessage } from '../pageProtocol';

declare function acquireVsCodeApi(): { postMessage(message: PageMessage): void };
const vscode = acquireVsCodeApi();

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const strings = JSON.parse(document.body.dataset.strings ?? '{}') as MapStrings;
/** A template's {0}, {1}… filled in (one pass: what is put in is not read again). */
const format = (template: string, ...args: Array<string | number>): string =>
  template.replace(/\{(\d+)\}/g, (match, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : match));

const map = L.map('map', { worldCopyJump: true, zoomSnap: 0.5, minZoom: 1, attributionControl: true }).setView([20, 0], 2);
map.attributionControl.setPrefix('Leaflet');
// The outline as one polygon of every ring: drawn even-odd, so lakes stay holes.
L.polygon(decodeOutline(outline), { interactive: false, className: 'outline', weight: 1 }).addTo(map);
const markerLayer = L.layerGroup().addTo(map);
let tileLayer: L.TileLayer | undefined;
let state: MapState | undefined;
let fitted = false;

function tooltipOf(marker: PageMarker): string {
  const fields = marker.fields.length ? `<br>${marker.fields.map(escapeHtml).join('<br>')}` : '';
  return `<strong>${escapeHtml(marker.sourceId)}</strong> (${escapeHtml(marker.stateLabel)})${marker.topic ? `<br>${escapeHtml(marker.topic)}` : ''}${fields}`;
}

function open(id: string): void {
  vscode.postMessage({ type: 'open', id });
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

function drawMarkers(): void {
  if (!state) return;
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.spot;
  markerLayer.clearLayers();
  const zoom = map.getZoom();
  const groups = clusterOnGrid(state.markers, (point) => map.project([point.latitude, point.longitude], zoom), CELL_PX, map.getPixelBounds().pad(VIEW_PAD));
  for (const group of groups) {
    if (group.members.length === 1) {
      const spot = group.members[0];
      const marker = L.marker([spot.latitude, spot.longitude], {
        icon: L.divIcon({
          className: `spot-marker state-${spot.state}`,
          html: `<span aria-hidden="true">${escapeHtml(spot.letter)}</span>`,
          iconSize: [22, 22],
        }),
        keyboard: true,
      });
      marker.bindTooltip(tooltipOf(spot), { direction: 'top', offset: [0, -10] });
      marker.on('click', () => (state?.mode === 'pick' ? pickAt(marker.getLatLng()) : open(spot.id)));
      marker.addTo(markerLayer);
      const element = marker.getElement();
      element?.setAttribute('aria-label', spot.name);
      element?.setAttribute('data-spot', spot.id);
      if (state.mode === 'show') onActivate(element, () => open(spot.id));
      // The tooltip for keyboard users too.
      element?.addEventListener('focus', () => marker.openTooltip());
      element?.addEventListener('blur', () => marker.closeTooltip());
      if (focused === spot.id) element?.focus();
    } else {
      // In the legend's order, so a group is always described the same way.
      const counts = new Map<string, number>(state.legend.map((entry) => [entry.label, 0]));
      for (const spot of group.members) counts.set(spot.stateLabel, (counts.get(spot.stateLabel) ?? 0) + 1);
      for (const [label, count] of counts) if (count === 0) counts.delete(label);
      const words = [...counts].map(([label, count]) => `${count} ${label}`).join(', ');
      const worst = group.members.some((spot) => spot.state === 'invalid') ? ' has-invalid' : '';
      const cluster = L.marker(group.center, {
        icon: L.divIcon({ className: `spot-cluster${worst}`, html: `<span>${group.members.length}</span>`, iconSize: [34, 34] }),
        keyboard: true,
      });
      const zoomIn = () =>
        map.fitBounds(L.latLngBounds(group.members.map((spot) => [spot.latitude, spot.longitude])), { maxZoom: map.getZoom() + 3, padding: [40, 40] });
      cluster.on('click', zoomIn);
      cluster.bindTooltip(escapeHtml(format(strings.groupTooltip, group.members.length, words)), { direction: 'top' });
      cluster.addTo(markerLayer);
      const element = cluster.getElement();
      element?.setAttribute('aria-label', format(strings.groupLabel, group.members.length, words));
      onActivate(element, zoomIn);
    }
  }
}

function drawList(): void {
  if (!state) return;
  const list = byId<HTMLUListElement>('list-items');
  const items = state.markers
    .slice()
    .sort((a, b) => a.sourceId.localeCompare(b.sourceId))
    .map((spot) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `list-spot state-${spot.state}`;
      button.dataset.id = spot.id;
      button.innerHTML = `<span class="badge" aria-hidden="true">${escapeHtml(spot.letter)}</span> ${escapeHtml(spot.name)}`;
      button.title = spot.fields.join(', ');
      button.addEventListener('click', () => open(spot.id));
      button.addEventListener('focus', () => map.panTo([spot.latitude, spot.longitude]));
      item.append(button);
      return item;
    });
  const skipped = state.skipped.map((skip) => {
    const item = document.createElement('li');
    item.className = 'skipped';
    item.textContent = format(strings.skipped, skip.id, skip.reason);
    return item;
  });
  list.replaceChildren(...items, ...skipped);
}

function drawToolbar(): void {
  if (!state) return;
  const { markers, mode } = state;
  const skipped = state.skipped.length;
  const one = markers.length === 1;
  const summary = skipped
    ? one
      ? format(strings.oneSpotSkipped, skipped)
      : format(strings.spotsSkipped, markers.length, skipped)
    : one
      ? strings.oneSpot
      : format(strings.spots, markers.length);
  const problem = state.tileProblem ? ` ${format(strings.tilesOff, state.tileProblem)}` : '';
  byId('summary').textContent = `${summary}${problem}`;
  byId('legend').innerHTML = state.legend
    .map(
      (entry) =>
        `<li><span class="spot-marker state-${escapeHtml(entry.state)} legend-icon" aria-hidden="true"><span>${escapeHtml(entry.letter)}</span></span>${escapeHtml(entry.label)}</li>`,
    )
    .join('');
  byId('use-osm').hidden = !state.offerTiles;
  byId('pick-hint').hidden = mode !== 'pick';
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
  vscode.postMessage({ type: 'pick', latitude: at.lat, longitude: at.lng });
}

map.on('zoomend moveend', drawMarkers);
map.on('click', (event: L.LeafletMouseEvent) => {
  if (state?.mode === 'pick') pickAt(event.latlng);
});
// Keyboard picking: the arrow keys move the map (Leaflet's keyboard handler), Enter takes its centre.
byId('map').addEventListener('keydown', (event) => {
  if (state?.mode === 'pick' && event.key === 'Enter' && event.target === byId('map')) {
    event.preventDefault();
    pickAt(map.getCenter());
  }
});
byId('use-osm').addEventListener('click', () => vscode.postMessage({ type: 'useOsmTiles' }));
byId('toggle-list').addEventListener('click', () => {
  const button = byId('toggle-list');
  const shown = byId('list').hidden;
  byId('list').hidden = !shown;
  button.setAttribute('aria-expanded', String(shown));
  button.textContent = shown ? strings.hideList : strings.showList;
  map.invalidateSize();
});

window.addEventListener('message', (event: MessageEvent<{ type: string; state: MapState }>) => {
  if (event.data?.type !== 'state') return;
  state = event.data.state;
  drawToolbar();
  drawTiles();
  drawList();
  if (!fitted && state.markers.length > 0) {
    fitted = true;
    const bounds = L.latLngBounds(state.markers.map((spot) => [spot.latitude, spot.longitude]));
    map.fitBounds(bounds, { maxZoom: state.markers.length === 1 ? 12 : 10, padding: [40, 40] });
  }
  drawMarkers();
  document.body.dataset.markers = String(state.markers.length);
});

vscode.postMessage({ type: 'ready' });
