// Leaflet as the map page (src/extension/map/webview) uses it, from Leaflet's own ES modules: the map with
// dragging, keyboard, wheel and double-click zoom, zoom and attribution controls, markers with
// div icons and tooltips, one tile layer, polygons and polylines drawn in SVG, layer groups, the
// scale control and controls of the page's own. Left out (the .vsix budget): popups, GeoJSON,
// image/video/SVG overlays, the canvas renderer, WMS, box and touch-pinch zoom, tap-hold, the
// layers control, the default image icon.
// esbuild.js resolves 'leaflet' to this file for the map page only; the page keeps Leaflet's types.
// It also puts stand-ins in place of three modules Leaflet's markers and SVG renderer import but the
// page never runs (dragging a marker, the default image icon, VML), and leaves out the rules of
// Leaflet's style sheet that only the parts left out here use (leanLeaflet in esbuild.js).
import { Map } from 'leaflet/src/map/Map';
import { svg } from 'leaflet/src/layer/vector/SVG';
import 'leaflet/src/map/handler/Map.Drag';
import 'leaflet/src/map/handler/Map.Keyboard';
import 'leaflet/src/map/handler/Map.ScrollWheelZoom';
import 'leaflet/src/map/handler/Map.DoubleClickZoom';
import 'leaflet/src/control/Control.Zoom';
import 'leaflet/src/control/Control.Attribution';
import 'leaflet/src/layer/Tooltip';

// Leaflet's Renderer.getRenderer chooses between canvas and SVG and so bundles both; the page
// draws one outline polygon, in SVG (its CSS classes style it by theme).
Map.include({
  getRenderer(layer) {
    const renderer = layer.options.renderer || this.options.renderer || (this._renderer ??= svg());
    if (!this.hasLayer(renderer)) this.addLayer(renderer);
    return renderer;
  },
});

export { Map, createMap as map } from 'leaflet/src/map/Map';
export { LayerGroup, layerGroup } from 'leaflet/src/layer/LayerGroup';
export { Marker, marker } from 'leaflet/src/layer/marker/Marker';
export { DivIcon, divIcon } from 'leaflet/src/layer/marker/DivIcon';
export { TileLayer, tileLayer } from 'leaflet/src/layer/tile/TileLayer';
export { Polygon, polygon } from 'leaflet/src/layer/vector/Polygon';
export { Polyline, polyline } from 'leaflet/src/layer/vector/Polyline';
export { Control } from 'leaflet/src/control/Control';
export * as DomUtil from 'leaflet/src/dom/DomUtil';
import { scale } from 'leaflet/src/control/Control.Scale';
export const control = { scale };
export { LatLng, toLatLng as latLng } from 'leaflet/src/geo/LatLng';
export { LatLngBounds, toLatLngBounds as latLngBounds } from 'leaflet/src/geo/LatLngBounds';
