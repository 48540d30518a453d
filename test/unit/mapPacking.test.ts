import * as assert from 'node:assert/strict';
import { markerName, MARKER_STATES, misplacedText, type SpotMarker } from '../../src/core/map/markers';
import { packMarkers, unpackMarkers, type ShownMarker } from '../../src/extension/map/pageProtocol';

const legend = Object.entries(MARKER_STATES).map(([state, { label, letter }]) => ({ state, label, letter }));

function shown(marker: Omit<SpotMarker, 'fields' | 'line'>): ShownMarker {
  const full: SpotMarker = { ...marker, fields: ['Species (fld_7_1): Oak'], line: 6 };
  return { ...full, name: markerName(full), letter: MARKER_STATES[full.state].letter, stateLabel: MARKER_STATES[full.state].label };
}

describe("the map's markers packed for the page: what the page unpacks is what the extension has, each named alike", () => {
  const markers = [
    shown({ id: 'file:///a.spot.json', latitude: 47.512345678901, longitude: 13.1, state: 'active', sourceId: 'oak-1', topicId: 7, topic: 'topic 7 (Trails)' }),
    shown({ id: 'file:///b.spot.json', latitude: 0, longitude: 179.999999, state: 'invalid', sourceId: 'b "quoted", ünïcode', topic: '' }),
    shown({
      id: 'file:///c.spot.json',
      latitude: 13.2,
      longitude: 47.4,
      state: 'notImported',
      sourceId: 'c',
      topicId: 7,
      topic: 'topic 7 (Trails)',
      misplaced: 'swapped',
    }),
    shown({ id: 'file:///d.spot.json', latitude: 60, longitude: 10, state: 'inProgress', sourceId: 'd', topicId: 8, topic: 'topic 8', misplaced: 'outside' }),
  ];
  const keys = new Map(markers.map((marker, index) => [marker.id, 100 + index]));
  const packed = packMarkers(markers, (id) => keys.get(id)!, legend, [misplacedText('outside'), misplacedText('swapped')]);

  it('gives back every marker with its key, place, state, misplacement and the name the extension gave it', () => {
    // Through JSON, as postMessage carries it.
    const unpacked = unpackMarkers(JSON.parse(JSON.stringify(packed)), legend);
    assert.deepEqual(
      unpacked,
      markers.map((marker) => ({
        key: keys.get(marker.id),
        latitude: marker.latitude,
        longitude: marker.longitude,
        state: marker.state,
        name: marker.name,
        ...(marker.misplaced ? { misplaced: marker.misplaced } : {}),
      })),
    );
    assert.equal(unpacked[2].name, "c: Not yet imported, topic 7 (Trails), 13.2, 47.4, outside its topic's area: latitude and longitude are probably swapped");
    assert.equal(unpacked[1].name, 'b "quoted", ünïcode: Invalid, 0, 179.999999');
  });

  it('sends each topic once, and no name', () => {
    assert.deepEqual(packed.topicNames, ['topic 7 (Trails)', 'topic 8']);
    assert.deepEqual(packed.topics, [0, -1, 0, 1]);
    assert.ok(!JSON.stringify(packed).includes('Not yet imported'), 'state words travel once, in the legend');
  });
});
