// Grouping markers on a pixel grid at the current zoom: every marker whose projected point falls
// in the same cell is one group, placed at its members' mean. Linear in the number of markers,
// so 10,000 spots group in a few milliseconds on every move; only markers near the view count.

/**
 * Markers closer than this many pixels are one group: with the view padded by a quarter on each
 * side (VIEW_PAD), a 1,400 × 900 view holds at most about 400 cells, so a dense map never has more
 * elements than that, however many spots (bench/map.bench.ts).
 */
export const CELL_PX = 80;
export const VIEW_PAD = 0.25;

export interface GridPoint {
  latitude: number;
  longitude: number;
}

export interface Group<T extends GridPoint> {
  center: [number, number];
  members: T[];
}

interface Point {
  x: number;
  y: number;
}

interface Box {
  min?: Point;
  max?: Point;
}

export function clusterOnGrid<T extends GridPoint>(points: readonly T[], project: (point: T) => Point, cellPx: number, within?: Box): Array<Group<T>> {
  const cells = new Map<string, T[]>();
  for (const point of points) {
    const { x, y } = project(point);
    if (within?.min && within.max && (x < within.min.x || y < within.min.y || x > within.max.x || y > within.max.y)) continue;
    const key = `${Math.floor(x / cellPx)},${Math.floor(y / cellPx)}`;
    const members = cells.get(key);
    if (members) members.push(point);
    else cells.set(key, [point]);
  }
  return [...cells.values()].map((members) => ({
    center: [members.reduce((sum, p) => sum + p.latitude, 0) / members.length, members.reduce((sum, p) => sum + p.longitude, 0) / members.length],
    members,
  }));
}
