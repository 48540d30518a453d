// The map's grouping (src/core/map/markerGroups.ts, issue 36): at every zoom from the world to a
// street, no two icons drawn are closer than an icon's width (the pixel grid before it let a
// marker sit half under a group), and every spot in the view is in exactly one group. The pixel
// distances are computed here with the spherical Mercator formula written independently of the
// module's (y from atanh(sin φ)).
import * as assert from 'node:assert/strict';
import { ICON_SPACING_PX, MarkerGroups } from '../../src/core/map/markerGroups';

interface Spot {
  id: number;
  latitude: number;
  longitude: number;
}

/** A survey over Austria, dense around three towns, with some spots sharing a place exactly (a tree photographed twice). */
function survey(count: number): Spot[] {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const towns = [
    [48.2082, 16.3738],
    [47.0707, 15.4395],
    [47.2692, 11.4041],
  ];
  const spots: Spot[] = [];
  for (let id = 0; id < count; id++) {
    if (id % 50 === 1) {
      spots.push({ ...spots[id - 1], id });
      continue;
    }
    const town = towns[id % 3];
    const spread = id % 4 === 0 ? 2 : 0.05;
    spots.push({ id, latitude: town[0] + (random() - 0.5) * spread, longitude: town[1] + (random() - 0.5) * spread * 1.5 });
  }
  return spots;
}

const pixels = (latitude: number, longitude: number, zoom: number) => {
  const world = 256 * Math.pow(2, zoom);
  const phi = (latitude * Math.PI) / 180;
  return { x: ((longitude + 180) / 360) * world, y: (world / 2) * (1 - Math.atanh(Math.sin(phi)) / Math.PI) };
};

describe('map grouping (supercluster and a spacing pass)', () => {
  const spots = survey(5_000);
  const groups = new MarkerGroups(spots);

  for (const zoom of [2, 4, 6, 7.5, 8, 9, 10, 11.5, 12, 13, 14, 15, 16, 17, 18, 19]) {
    it(`at zoom ${zoom}: no two icons closer than ${ICON_SPACING_PX} px, every spot in the view once`, () => {
      // A view around Graz at street zooms (the whole country would be thousands of icons), the world below.
      const box: [number, number, number, number] = zoom >= 12 ? [15.3, 47.0, 15.6, 47.15] : [-180, -85, 180, 85];
      const drawn = groups.groupsIn(box, zoom);
      const inView = spots.filter((s) => s.longitude >= box[0] && s.longitude <= box[2] && s.latitude >= box[1] && s.latitude <= box[3]);
      const seen = drawn.flatMap((group) => group.members.map((member) => member.id)).sort((a, b) => a - b);
      assert.deepEqual(new Set(seen).size, seen.length, 'no spot in two groups');
      for (const spot of inView) assert.ok(seen.includes(spot.id), `spot ${spot.id} (${spot.latitude}, ${spot.longitude}) is drawn`);
      const at = drawn.map((group) => pixels(group.center[0], group.center[1], zoom));
      for (let i = 0; i < at.length; i++) {
        for (let j = i + 1; j < at.length; j++) {
          const distance = Math.hypot(at[i].x - at[j].x, at[i].y - at[j].y);
          assert.ok(
            distance >= ICON_SPACING_PX - 1e-6,
            `icons ${i} (${drawn[i].members.length}) and ${j} (${drawn[j].members.length}) are ${distance.toFixed(1)} px apart`,
          );
        }
      }
      if (zoom >= 16)
        assert.ok(
          drawn.some((group) => group.members.length === 1),
          'close in, spots stand alone',
        );
    });
  }

  it('two spots at the same place stay one group however far one zooms in', () => {
    const twins = new MarkerGroups([
      { id: 1, latitude: 47.07, longitude: 15.44 },
      { id: 2, latitude: 47.07, longitude: 15.44 },
    ]);
    const drawn = twins.groupsIn([15, 47, 16, 48], 22);
    assert.deepEqual(
      drawn.map((group) => group.members.length),
      [2],
    );
  });
});
