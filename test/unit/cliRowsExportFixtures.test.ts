// The exports of test/fixtures/exports (modelled on KoBoToolbox, ODK Central, Survey123,
// iNaturalist, Epicollect5 and GBIF downloads) through the bundled command line as a new user
// would take them (issue 32): `spot-import mapping` proposes a mapping, the only edit is the topic
// id, `validate` finds every row valid, `import` sends each row once and a second run sends
// nothing. The first row's coordinates are the fixture's own text, read here by hand. Photos the
// exports give by web address (iNaturalist, Epicollect5) are served by a server on this machine:
// the copy's addresses are moved to it, so no test ever reaches the tools' own hosts.
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { ROOT, ensureCliBuilt, runCli, sandboxEnv, scratch } from './helpers/cliProcess';

const EXPORTS = join(ROOT, 'test', 'fixtures', 'exports');

interface ExportCase {
  file: string;
  rows: number;
  /** The first row's source_id and position in degrees, as the fixture writes them (a projected layer's are checked in rowsGeoJsonGeometry.test.ts). */
  first?: { sourceId: string; latitude: number; longitude: number };
}

const CASES: ExportCase[] = [
  {
    file: 'Tree_survey_-_all_versions_-_False_-_2026-11-30-08-15-42.csv',
    rows: 4,
    first: { sourceId: 'kobo-0b7d2f1e-3c4a-4e5b-9f6a-7b8c9d0e1f2a', latitude: 47.0707, longitude: 15.4395 },
  },
  { file: 'tree_survey.csv', rows: 3, first: { sourceId: 'odk-uuid:5f0c2d1e-7a3b-4c9d-8e1f-2a3b4c5d6e7f', latitude: 48.208176, longitude: 16.373819 } },
  { file: 'water_points.csv', rows: 3, first: { sourceId: 'odk-uuid:0b7e6f9a-1c2d-4e3f-8a9b-0c1d2e3f4a5b', latitude: -1.292066, longitude: 36.821946 } },
  { file: 'Tree_Inventory_0.csv', rows: 3, first: { sourceId: 'survey123-8f0c6a1e-9b2d-4c3e-a5f6-0718293a4b5c', latitude: 45.523062, longitude: -122.676482 } },
  { file: 'observations-512345.csv', rows: 3, first: { sourceId: 'inat-198765432', latitude: -34.5755, longitude: -58.414 } },
  { file: 'form-1__street-trees.csv', rows: 3, first: { sourceId: 'ec5-6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', latitude: 51.507351, longitude: -0.127758 } },
  { file: 'occurrence.txt', rows: 3, first: { sourceId: 'gbif-urn:catalog:WU:Herb:0042', latitude: 48.2082, longitude: 16.3738 } },
  // GIS layers: a WFS answer on one line, a QGIS layer of one-point MultiPoints in Lambert-93, an Overpass export of points and polygons, GeoJSON text sequences.
  { file: 'geo/arbres-wfs.geojson', rows: 640, first: { sourceId: 'arbres-wfs-arbres.1', latitude: 45.7515267, longitude: 4.839595 } },
  { file: 'geo/arbres-l93.geojson', rows: 5 },
  { file: 'geo/overpass-batiments.geojson', rows: 6 },
  { file: 'geo/releves.geojsonl', rows: 4, first: { sourceId: 'releves-R-0001', latitude: 45.1885271, longitude: 5.7245108 } },
  { file: 'geo/releves.geojsons', rows: 4, first: { sourceId: 'releves-R-0001', latitude: 45.1885271, longitude: 5.7245108 } },
];

describe('spot-import on real exports: mapping, then validate and import with only the topic id set', function () {
  this.timeout(60_000);
  let sandbox: RunningSandbox;
  let photos: Server;
  let photoBase: string;
  before(async () => {
    ensureCliBuilt();
    // Any address is a JPEG of its own (its first bytes make it one).
    photos = createServer((request, response) => {
      response
        .writeHead(200, { 'content-type': 'image/jpeg' })
        .end(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`photo ${request.url}`)]));
    });
    photos.listen(0, '127.0.0.1');
    await once(photos, 'listening');
    photoBase = `http://127.0.0.1:${(photos.address() as AddressInfo).port}`;
  });
  after(() => {
    photos.closeAllConnections();
    photos.close();
  });
  beforeEach(async () => (sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] })));
  afterEach(() => sandbox.close());

  for (const exported of CASES) {
    it(exported.file, async () => {
      const project = scratch();
      const file = basename(exported.file);
      try {
        // Web addresses moved to this machine's photo server (the path kept).
        writeFileSync(project.path(file), readFileSync(join(EXPORTS, exported.file), 'latin1').replace(/https?:\/\/[^/\s"',;]+/g, photoBase), 'latin1');
        const proposed = await runCli(['mapping', file], { cwd: project.dir });
        assert.equal(proposed.code, 0, proposed.stderr);
        const mappingPath = proposed.stdout.trim();
        const mapping = JSON.parse(readFileSync(project.path(mappingPath), 'utf8')) as {
          topic_id: unknown;
          source_id: string;
          media?: Record<string, { columns: string[]; folder?: string }>;
        };
        assert.doesNotMatch(mapping.source_id, /\d{4}-\d{2}-\d{2}|Tree_survey/, 'no export date or file name in the source_id');
        // The one edit a user makes: the topic id (a placeholder 0 when no topic's labels head the columns).
        if (mapping.topic_id === 0) mapping.topic_id = 1;
        writeFileSync(project.path(mappingPath), JSON.stringify(mapping, null, 2));
        // The photos the mapping names, downloaded beside the export as the tool's media download puts them.
        for (const media of Object.values(mapping.media ?? {})) {
          for (const name of photoNames(project.path(file), media.columns))
            if (!name.startsWith('http')) project.write(join(media.folder ?? '.', name), 'jpeg bytes');
        }

        const validate = await runCli(['validate', file], { cwd: project.dir });
        assert.equal(validate.code, 0, `${validate.stdout}\n${validate.stderr}`);
        assert.match(validate.stderr, new RegExp(`^${exported.rows} rows of .+ checked: all valid\\.$`, 'm'));

        const env = sandboxEnv(sandbox.baseUrl);
        const first = await runCli(['import', file], { cwd: project.dir, env });
        assert.equal(first.code, 0, first.stderr);
        assert.equal(first.stdout.match(/ as new spot \d+/g)?.length, exported.rows, first.stdout);
        if (exported.first) {
          const spot = sandbox.spotBySourceId(exported.first.sourceId);
          assert.ok(spot, `${exported.first.sourceId} on the service (the mapping's source_id is ${mapping.source_id})`);
          assert.deepEqual([spot.attributes.latitude, spot.attributes.longitude], [exported.first.latitude, exported.first.longitude]);
        }
        const counters = { imports: sandbox.counters.imports, uploads: sandbox.counters.uploads, tokens: sandbox.counters.tokenRequests };
        const second = await runCli(['import', file], { cwd: project.dir, env });
        assert.equal(second.code, 0, second.stderr);
        assert.deepEqual(
          { imports: sandbox.counters.imports, uploads: sandbox.counters.uploads, tokens: sandbox.counters.tokenRequests },
          counters,
          'a second run sends nothing',
        );
      } finally {
        project.cleanup();
      }
    });
  }
});

/** The file names the media columns hold, read from the table by hand: ; or , or tab separated, quoted or not. */
function photoNames(table: string, columns: readonly string[]): string[] {
  const text = readFileSync(table, 'utf8').replace(/^\uFEFF/, '');
  const delimiter = text.split(/\r?\n/)[0].includes(';') ? ';' : text.split(/\r?\n/)[0].includes('\t') ? '\t' : ',';
  const header = text
    .split(/\r?\n/)[0]
    .split(delimiter)
    .map((cell) => cell.replace(/^"|"$/g, ''));
  const names = new Set<string>();
  for (const match of text.matchAll(/[\w-]+\.(?:jpe?g|png|heic)/gi)) names.add(match[0]);
  return columns.length > 0 && header.some((cell) => columns.includes(cell)) ? [...names] : [];
}
