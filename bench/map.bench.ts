// (h) The map's parts in this process, with 10,000 spots (what a user waits for, from the click to
// the markers drawn in a real VS Code, is `npm run bench:map`: bench/mapOpen.ts). Marker
// preparation: each spot document's text read into a marker (spotMarkerFromText: a jsonc-parser
// tree with positions, state, field values), against the baseline JSON.parse of the same texts,
// which any reading of the documents costs. Grouping: the page's supercluster index built over
// all points (once per set of markers), and its query for a world view and a regional view (on
// every pan and zoom, src/core/map/markerGroups.ts); the baseline is one plain pass projecting the
// same points. Medians of rounds, alternating sides.
import { performance } from 'node:perf_hooks';
import { spotMarkerFromText, type MarkerFacts } from '../src/core/map/markers';
import { MarkerGroups } from '../src/core/map/markerGroups';
import { median } from './sandboxProcess';

export interface MapFigures {
  spots: number;
  parseMs: number;
  markersMs: number;
  indexMs: number;
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
  const index: number[] = [];
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
    project.push(time(() => points.forEach((point) => worldView(point))));
    let groups: MarkerGroups<{ latitude: number; longitude: number }> | undefined;
    index.push(time(() => (groups = new MarkerGroups(points))));
    world.push(time(() => (groupsWorld = groups!.groupsIn([-180, -85, 180, 85], 3).length)));
    // A regional view around Vienna (about 1,400 × 900 pixels at zoom 7, padded as the page pads it).
    region.push(time(() => (groupsRegion = groups!.groupsIn([10.9, 45.6, 21.9, 50.6], 7).length)));
    if (round === 0) [parse, markers, index, world, region, project].forEach((list) => list.splice(0));
  }
  return {
    spots,
    parseMs: median(parse),
    markersMs: median(markers),
    indexMs: median(index),
    groupWorldMs: median(world),
    groupRegionMs: median(region),
    projectMs: median(project),
    groupsWorld,
    groupsRegion,
  };
}

export function printMap(figures: MapFigures): void {
  const { spots } = figures;
  console.log(`(h) the map's parts with ${spots.toLocaleString('en')} spots, in this process (the whole path: npm run bench:map)`);
  console.log(`    JSON.parse of the documents    ${figures.parseMs.toFixed(1)} ms (baseline)`);
  console.log(`    markers from the documents     ${figures.markersMs.toFixed(1)} ms  (${(figures.markersMs / figures.parseMs).toFixed(2)} × JSON.parse)`);
  console.log(`    project all (baseline)         ${figures.projectMs.toFixed(2)} ms`);
  console.log(`    grouping index, once per set   ${figures.indexMs.toFixed(1)} ms  (${(figures.indexMs / figures.projectMs).toFixed(1)} × projecting)`);
  console.log(
    `    group, world view              ${figures.groupWorldMs.toFixed(2)} ms  (${(figures.groupWorldMs / figures.projectMs).toFixed(2)} × projecting) → ${figures.groupsWorld} elements`,
  );
  console.log(
    `    group, regional view           ${figures.groupRegionMs.toFixed(2)} ms  (${(figures.groupRegionMs / figures.projectMs).toFixed(2)} × projecting) → ${figures.groupsRegion} elements`,
  );
  console.log(`    per pan/zoom ${Math.max(figures.groupWorldMs, figures.groupRegionMs).toFixed(1)} ms (a 60 Hz frame is 16.7)`);
}
