// A line's or shape's centroid is arithmetic on the vertices, and carries binary noise into the
// document (15.049999999999999 for a square's middle 15.05) that no cell wrote. The expected values
// are the middles of axis-aligned rectangles, worked out by hand: (15.0 + 15.1) / 2 = 15.05,
// (16.0 + 16.2) / 2 = 16.1, (48.0 + 48.1) / 2 = 48.05.
import * as assert from 'node:assert/strict';
import { geometryPoint } from '../../src/core/rows/values/geometryPoint';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';

describe('rows: a centroid is rounded as a computed coordinate is', () => {
  it('a geoshape cell of a position column gives its middle without binary noise', async () => {
    const text = 'id,Species,area\ns1,Oak,47.0 15.0 0 0;47.0 15.1 0 0;47.1 15.1 0 0;47.1 15.0 0 0;47.0 15.0 0 0\n';
    const { rows } = await checkedTable('shape.csv', text, { topic_id: 1, source_id: 's-{id}', position: 'area', geometry: 'centroid' });
    assert.deepEqual(rows[0].findings, []);
    const { latitude, longitude } = attributesOfRow(rows[0]);
    assert.deepEqual([latitude, longitude], [47.05, 15.05]);
  });

  it("a GeoJSON way's polygon gives its middle without binary noise", async () => {
    const layer = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 'way/456',
          properties: { '@id': 'way/456', leisure: 'park', name: 'Stadtpark' },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [16.0, 48.0],
                [16.2, 48.0],
                [16.2, 48.1],
                [16.0, 48.1],
                [16.0, 48.0],
              ],
            ],
          },
        },
      ],
    };
    const { rows } = await checkedTable('export.geojson', JSON.stringify(layer), { topic_id: 1, source_id: 'osm-{$id}', geometry: 'centroid' });
    const { latitude, longitude } = attributesOfRow(rows[0]);
    assert.deepEqual([latitude, longitude], [48.05, 16.1]);
  });

  it('keeps a point as written: only what is computed is rounded', () => {
    const point = geometryPoint({ type: 'Point', coordinates: [16.123456789012345, 48.1], position: { line: 1, column: 1 } }, 'centroid');
    assert.deepEqual(point, { x: 16.123456789012345, y: 48.1 });
  });
});
