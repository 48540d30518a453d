// A graticule under the markers: lines of latitude and longitude at a spacing that suits the zoom
// (30° over the world, down to a hundredth of a degree in a town), so a person reads where the map
// is without tiles. Drawn for the view only, again after each move.
import * as L from 'leaflet';

/** Degrees between lines at a zoom: about four to eight lines across a view. */
const SPACINGS = [30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01];

function spacingFor(span: number): number {
  return SPACINGS.find((step) => span / step >= 4) ?? SPACINGS[SPACINGS.length - 1];
}

export function graticule(map: L.Map): void {
  const layer = L.layerGroup().addTo(map);
  const draw = () => {
    layer.clearLayers();
    const view = map.getBounds();
    const south = Math.max(-85, view.getSouth());
    const north = Math.min(85, view.getNorth());
    const step = spacingFor(Math.min(north - south, view.getEast() - view.getWest()));
    const lines: L.LatLngExpression[][] = [];
    for (let lat = Math.ceil(south / step) * step; lat <= north; lat += step)
      lines.push([
        [lat, view.getWest()],
        [lat, view.getEast()],
      ]);
    for (let lon = Math.ceil(view.getWest() / step) * step; lon <= view.getEast(); lon += step)
      lines.push([
        [south, lon],
        [north, lon],
      ]);
    L.polyline(lines, { interactive: false, className: 'graticule', weight: 1 }).addTo(layer);
  };
  map.on('moveend zoomend', draw);
  map.whenReady(draw);
}
