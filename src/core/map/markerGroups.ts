// Grouping markers at a zoom: supercluster's hierarchical clustering (built once per set of
// markers, then queried per view in well under a millisecond per thousand spots), followed by one
// pass that merges whatever supercluster left closer than an icon's width, since its greedy rule
// lets two groups' centres, or a group and a marker, end up nearly on top of each other. What the
// page draws is then never overlapping, at any zoom, and never more than the view can hold.
import Supercluster from 'supercluster';

export interface GroupPoint {
  latitude: number;
  longitude: number;
}

export interface MarkerGroup<T extends GroupPoint> {
  /** Where the group (or the one marker) is drawn: [latitude, longitude]. */
  center: [number, number];
  members: T[];
}

/** The widest icon drawn (a group's, 34 px) and a gap: closer than this, two icons would touch. */
export const ICON_SPACING_PX = 40;
/** Supercluster's radius (pixels at 256-pixel tiles): gathers a dense area into few groups before the spacing pass. */
const CLUSTER_RADIUS_PX = 60;
/**
 * Past this zoom supercluster hands back each spot, and the spacing pass alone groups those closer
 * than an icon (at 15 a street's width apart). Each zoom it keeps is a level built when a set of
 * markers arrives: 14 against 17 takes about a third off that build (docs/performance.md).
 */
const MAX_CLUSTER_ZOOM = 14;
const TILE_PX = 256;

/** Web Mercator pixels at a zoom, as Leaflet's EPSG:3857 projects (256-pixel tiles). */
function projectToPixels(latitude: number, longitude: number, zoom: number): { x: number; y: number } {
  const scale = TILE_PX * 2 ** zoom;
  const sin = Math.sin((Math.max(-85.0511287798, Math.min(85.0511287798, latitude)) * Math.PI) / 180);
  return { x: (scale * (longitude + 180)) / 360, y: scale * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) };
}

type Props = { index: number };

export class MarkerGroups<T extends GroupPoint> {
  private readonly index: Supercluster<Props, Record<string, never>>;

  constructor(private readonly points: readonly T[]) {
    this.index = new Supercluster<Props, Record<string, never>>({ radius: CLUSTER_RADIUS_PX, extent: TILE_PX, maxZoom: MAX_CLUSTER_ZOOM });
    this.index.load(
      points.map((point, index) => ({
        type: 'Feature' as const,
        properties: { index },
        geometry: { type: 'Point' as const, coordinates: [point.longitude, point.latitude] },
      })),
    );
  }

  /**
   * The groups to draw in a box (west, south, east, north in degrees; a box across the
   * antimeridian has west > east) at a zoom (fractional zooms group as the zoom below, so icons
   * are only further apart): every point in the box is in exactly one group.
   */
  groupsIn(box: [number, number, number, number], zoom: number): Array<MarkerGroup<T>> {
    const [west, south, east, north] = box;
    const found = this.index.getClusters([west, Math.max(south, -90), east, Math.min(north, 90)], Math.floor(zoom));
    const groups = found.map((feature): MarkerGroup<T> => {
      const [longitude, latitude] = feature.geometry.coordinates;
      const properties = feature.properties as Partial<Supercluster.ClusterProperties> & Partial<Props>;
      const members =
        properties.cluster && properties.cluster_id !== undefined
          ? this.index.getLeaves(properties.cluster_id, Infinity).map((leaf) => this.points[leaf.properties.index])
          : [this.points[properties.index as number]];
      return { center: [latitude, longitude], members };
    });
    return spaced(groups, zoom);
  }
}

/**
 * Merges groups drawn closer than ICON_SPACING_PX at the zoom into the larger of the two (which
 * stays where it is, so no merge brings it nearer to another): the largest groups are placed
 * first, each later one kept only when nothing placed is too near. A grid of spacing-sized cells
 * finds the near ones, so this is linear in the groups of the view.
 */
function spaced<T extends GroupPoint>(groups: Array<MarkerGroup<T>>, zoom: number): Array<MarkerGroup<T>> {
  const ordered = groups
    .map((group) => ({ group, at: projectToPixels(group.center[0], group.center[1], zoom) }))
    .sort((a, b) => b.group.members.length - a.group.members.length || a.at.x - b.at.x || a.at.y - b.at.y);
  const cells = new Map<string, Array<{ group: MarkerGroup<T>; at: { x: number; y: number } }>>();
  const cellOf = (value: number) => Math.floor(value / ICON_SPACING_PX);
  const placed: Array<MarkerGroup<T>> = [];
  for (const entry of ordered) {
    const cx = cellOf(entry.at.x);
    const cy = cellOf(entry.at.y);
    let near: { group: MarkerGroup<T>; at: { x: number; y: number } } | undefined;
    let nearest = ICON_SPACING_PX;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const other of cells.get(`${cx + dx},${cy + dy}`) ?? []) {
          const distance = Math.hypot(other.at.x - entry.at.x, other.at.y - entry.at.y);
          if (distance < nearest) {
            nearest = distance;
            near = other;
          }
        }
      }
    }
    if (near) {
      near.group.members.push(...entry.group.members);
      continue;
    }
    const kept = { group: { center: entry.group.center, members: [...entry.group.members] }, at: entry.at };
    placed.push(kept.group);
    const key = `${cx},${cy}`;
    const cell = cells.get(key);
    if (cell) cell.push(kept);
    else cells.set(key, [kept]);
  }
  return placed;
}
