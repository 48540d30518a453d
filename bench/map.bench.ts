// (h) The map with 10,000 spots: what the extension and the page compute before Leaflet draws.
// Marker preparation: each spot document's text read into a marker (spotMarkerFromText: a
// jsonc-parser tree with positions, state, field labels), against the baseline JSON.parse of the
// same texts, which any reading of the documents costs. Grouping: the page's pixel-grid grouping
// (src/extension/map/webview/grid.ts) of all 10,000 points with Web Mercator projection as Leaflet's, at a
// world view and at a regional view, which runs on every pan and zoom; its baseline is one plain
// pass projecting the same points. Not measured: reading the files from disk, the message to the
// webview, and Leaflet's drawing: the grid keeps that to one element per 80-pixel cell (about
// 400 at most in a view), whatever the number of spots. Medians of rounds, alternating sides.
import { performance } from 'node:perf_hooks';
import { spotMarkerFromText, type MarkerFacts } from '../src/core/map/markers';
import { CELL_PX, clusterOnGrid, VIEW_PAD } from '../src/extension/map/webview/grid';
import { median } from './sandboxProcess';

export interface MapFigures {
  spots: number;
  parseMs: number;
  markersMs: number;
  groupWorldMs: number;
  groupRegionMs: number;
  projectMs: number;
  groupsWorld: number;
  groupsRegion: number;
}

function spotTexts(count: number): string[] {
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    // Spread over Europe, like a national survey's spots.
    const latitude = 36 + ((i * 7919) % 2500) / 100;
    const longitude = -9 + ((i * 104729) % 3900) / 100;
    texts.push(
      JSON.stringify(
        {
          data: {
            type: 'spots',
            attributes: { topic_id: 7, source_id: `bench-${i}`, latitude, longitude, state: i % 3 === 0 ? 2 : 1, fld_7_1: 'Oak', fld_7_2: 12.5, fld_7_3: null },
          },
        },
        null,
        2,
      ),
    );
  }
  return texts;
}

/** Web Mercator pixel coordinates at a zoom, as Leaflet's EPSG:3857 projects (256-pixel tiles). */
function projector(zoom: number): (point: { latitude: number; longitude: number }) => { x: number; y: number } {
  const scale = 256 * 2 ** zoom;
  return ({ latitude, longitude }) => {
    const sin = Math.sin((Math.max(-85.05, Math.min(85.05, latitude)) * Math.PI) / 180);
    return { x: (scale * (longitude + 180)) / 360, y: scale * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) };
  };
}

const time = (run: () => void): number => {
  const start = performance.now();
  run();
  return performance.now() - start;
};

export function benchMap(spots = 10_000, rounds = 7): MapFigures {
  const texts = spotTexts(spots);
  const labels = new Map([
    [7, { topic_id: 7, name: 'Trees', fields: { fld_7_1: { label: 'Species' }, fld_7_2: { label: 'Height' } } }],
  ]) as unknown as MarkerFacts['topics'];
  const facts = (i: number): MarkerFacts => ({ id: `file:///bench/${i}.spot.json`, hasErrors: false, imported: () => i % 2 === 0, topics: labels });
  const parse: number[] = [];
  const markers: number[] = [];
  const world: number[] = [];
  const region: number[] = [];
  const project: number[] = [];
  let points: Array<{ latitude: number; longitude: number }> = [];
  let groupsWorld = 0;
  let groupsRegion = 0;
  // Round 0 warms up the JIT and is not counted.
  for (let round = 0; round <= rounds; round++) {
    const sides = [
      () => parse.push(time(() => texts.forEach((text) => JSON.parse(text)))),
      () =>
        markers.push(
          time(() => {
            points = texts.map((text, i) => {
              const result = spotMarkerFromText(text, facts(i));
              if (!result.ok) throw new Error(result.reason);
              return result.marker;
            });
          }),
        ),
    ];
    for (const side of round % 2 ? sides.reverse() : sides) side();
    const worldView = projector(3);
    const regionView = projector(7);
    project.push(time(() => points.forEach((point) => worldView(point))));
    world.push(time(() => (groupsWorld = clusterOnGrid(points, worldView, CELL_PX).length)));
    // A regional view (1,400 × 900 pixels around Vienna, padded as the page pads it): only the points near it are grouped.
    const centre = regionView({ latitude: 48.2, longitude: 16.4 });
    const [halfWidth, halfHeight] = [700 * (1 + 2 * VIEW_PAD), 450 * (1 + 2 * VIEW_PAD)];
    const box = { min: { x: centre.x - halfWidth, y: centre.y - halfHeight }, max: { x: centre.x + halfWidth, y: centre.y + halfHeight } };
    region.push(time(() => (groupsRegion = clusterOnGrid(points, regionView, CELL_PX, box).length)));
    if (round === 0) [parse, markers, world, region, project].forEach((list) => list.splice(0));
  }
  return {
    spots,
    parseMs: median(parse),
    markersMs: median(markers),
    groupWorldMs: median(world),
    groupRegionMs: median(region),
    projectMs: median(project),
    groupsWorld,
    groupsRegion,
  };
}

export function printMap(figures: MapFigures): void {
  const { spots } = figures;
  console.log(`(h) the map with ${spots.toLocaleString('en')} spots (in this process; Leaflet's drawing not included)`);
  console.log(`    JSON.parse of the documents    ${figures.parseMs.toFixed(1)} ms (baseline)`);
  console.log(`    markers from the documents     ${figures.markersMs.toFixed(1)} ms  (${(figures.markersMs / figures.parseMs).toFixed(2)} × JSON.parse)`);
  console.log(`    project all (baseline)         ${figures.projectMs.toFixed(2)} ms`);
  console.log(
    `    group, world view              ${figures.groupWorldMs.toFixed(2)} ms  (${(figures.groupWorldMs / figures.projectMs).toFixed(2)} × projecting) → ${figures.groupsWorld} elements`,
  );
  console.log(
    `    group, regional view           ${figures.groupRegionMs.toFixed(2)} ms  (${(figures.groupRegionMs / figures.projectMs).toFixed(2)} × projecting) → ${figures.groupsRegion} elements`,
  );
  const open = figures.markersMs + figures.groupWorldMs;
  console.log(
    `    to open (markers + grouping)   ${open.toFixed(0)} ms  (goal < 2000 with drawing) ${open < 2000 ? 'met so far' : 'NOT MET'}; per pan/zoom ${Math.max(figures.groupWorldMs, figures.groupRegionMs).toFixed(1)} ms (a 60 Hz frame is 16.7)`,
  );
}
