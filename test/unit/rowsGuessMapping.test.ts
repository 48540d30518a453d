// The mapping proposed for real exports (`spot-import mapping`, Create Mapping for this File): the
// coordinates, the stable id, the photos and the topic each tool's export has, on fixtures modelled
// on KoBoToolbox, ODK Central, Survey123, iNaturalist and Epicollect5 files
// (test/fixtures/exports/README.md), and what it proposes validating and converting with no edit
// but the topic's number. Every expected value is written here by hand from the fixtures' text.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  guessMapping,
  isRowReadProblem,
  mappingPathFor,
  mappingText,
  openMappedTable,
  parseMapping,
  previewTable,
  resolveMapping,
  rowToSpot,
  type Mapping,
  type SourceRow,
} from '../../src/core/rows';
import { columnOfLabel, labelKey, sameLabel } from '../../src/core/rows/mapping/labelKey';
import { convertDateTime } from '../../src/core/rows/values';
import type { TopicCatalog, TopicDefinition } from '../../src/core/topics/topicSchema';
import { ROOT, scratch } from './helpers/cliProcess';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';

const EXPORTS = join(ROOT, 'test', 'fixtures', 'exports');
const KOBO = join(EXPORTS, 'Tree_survey_-_all_versions_-_False_-_2026-11-30-08-15-42.csv');
const ODK = join(EXPORTS, 'tree_survey.csv');
const SURVEY123 = join(EXPORTS, 'Tree_Inventory_0.csv');
const INATURALIST = join(EXPORTS, 'observations-512345.csv');
const EPICOLLECT = join(EXPORTS, 'form-1__street-trees.csv');

/** A topic whose labels head some columns of the Survey123 and ODK exports, none of the others'. */
const STREET_TREES: TopicDefinition = {
  topic_id: 9,
  name: 'Street trees',
  fields: {
    fld_9_1: { label: 'Species', type: 'text' },
    fld_9_2: { label: 'Tree height (m)', type: 'number' },
    fld_9_3: { label: 'Photos', type: 'gallery' },
    fld_9_4: { label: 'Comments', type: 'text' },
    fld_9_5: { label: 'Observed at', type: 'datetime' },
  },
};
const TOPICS: TopicCatalog = new Map([[9, STREET_TREES]]);
/** Labels a KoBoToolbox or ODK form's questions are named by, written here as a topic's fields. */
const TRAIL: TopicDefinition = {
  topic_id: 7,
  fields: {
    fld_7_1: { label: 'Species', type: 'text' },
    fld_7_2: { label: 'Height (m)', type: 'number' },
    fld_7_4: { label: 'Notes', type: 'text' },
    spotted_at: { label: 'Observed at', type: 'datetime' },
    fld_7_6: { label: 'Count', type: 'integer' },
  },
};

async function guess(path: string, topics: TopicCatalog | undefined = TOPICS) {
  const { table, sample, problems } = await previewTable(path);
  assert.deepEqual(problems, [], 'the fixture reads without problems');
  return guessMapping(table, sample, topics);
}

const CSV_SOURCE = { format: 'csv', decimalSeparator: '.', encoding: 'utf-8' } as const;

describe('guessMapping: real exports', () => {
  it("KoBoToolbox: the geopoint's _point_latitude/_point_longitude, _uuid under the tool's prefix, the photo's file name column and not its _URL, a label at the end of a group path (group_obs/species)", async () => {
    const { mapping, notes } = await guess(KOBO);
    // Species is the topic's one label the export has, as the question species in the group group_obs.
    assert.deepEqual(mapping, {
      source: { ...CSV_SOURCE, delimiter: ';' },
      topic_id: 9,
      source_id: 'kobo-{_uuid}',
      latitude: '_point_latitude',
      longitude: '_point_longitude',
      // Observed at (fld_9_5): when the form was opened, KoBo's start.
      fields: { fld_9_1: 'group_obs/species', fld_9_5: 'start' },
      media: { fld_9_3: { columns: ['photo'] } },
    });
    assert.ok(notes.includes("topic_id: 9 (Street trees), the topic whose fields' labels match the most columns"), notes.join('\n'));
    assert.ok(notes.includes('fields: fld_9_1 (Species) from the column group_obs/species'));
    assert.ok(notes.includes("source_id: kobo-{_uuid}, from the column _uuid, the export's own id of each record"));
    assert.ok(notes.includes('source_id: other columns that look like ids: _id, _index'));
    assert.ok(notes.includes("source_id: the prefix kobo- is the tool (KoBoToolbox), not the file's name: an export of another day finds the same spots"));
    assert.ok(notes.includes('latitude, longitude: the columns _point_latitude and _point_longitude'));
    assert.ok(notes.includes('media: not the column photo_URL, whose web addresses are the photos the column photo names as files'));
    assert.ok(!notes.some((note) => note.includes('2026-11-30')), "no note proposes the file's date");
  });

  it('ODK Central: the first geopoint (site-location-Latitude, in a group) and says the second, KEY over meta-instanceID, a field whose label is the header in another case', async () => {
    const { mapping, notes } = await guess(ODK);
    assert.deepEqual(mapping, {
      source: { ...CSV_SOURCE, delimiter: ',' },
      topic_id: 9,
      source_id: 'odk-{KEY}',
      latitude: 'site-location-Latitude',
      longitude: 'site-location-Longitude',
      fields: { fld_9_1: 'species', fld_9_5: 'start' },
      media: { fld_9_3: { columns: ['photo'] } },
    });
    assert.ok(
      notes.includes(
        'latitude, longitude: the columns site-location-Latitude and site-location-Longitude, the first of several places; the others: gps_end-Latitude and gps_end-Longitude',
      ),
      notes.join('\n'),
    );
    assert.ok(notes.includes('source_id: other columns that look like ids: meta-instanceID'));
    assert.ok(notes.includes('fields: fld_9_1 (Species) from the column species'));
  });

  it("Survey123: x and y, GlobalID rather than ObjectID, labels ending in a colon, US dates' pattern", async () => {
    const { mapping, notes } = await guess(SURVEY123);
    assert.deepEqual(mapping, {
      source: { ...CSV_SOURCE, delimiter: ',' },
      topic_id: 9,
      source_id: 'survey123-{GlobalID}',
      latitude: 'y',
      longitude: 'x',
      fields: { fld_9_1: 'Species:', fld_9_2: 'Tree height (m)', fld_9_4: 'Comments', fld_9_5: { column: 'Observed at', format: 'M/d/yyyy h:mm:ss a' } },
    });
    assert.ok(notes.includes('source_id: other columns that look like ids: ObjectID'), notes.join('\n'));
    assert.ok(notes.includes('fields: fld_9_1 (Species) from the column Species:'));
  });

  it('iNaturalist: latitude/longitude rather than the empty private_ ones, id, image_url proposed as photos to fetch', async () => {
    const { mapping, notes } = await guess(INATURALIST);
    assert.deepEqual(mapping, {
      source: { ...CSV_SOURCE, delimiter: ',' },
      topic_id: 0,
      source_id: 'inat-{id}',
      latitude: 'latitude',
      longitude: 'longitude',
      media: { fld_0_1: { columns: ['image_url'] } },
    });
    assert.ok(
      notes.includes(
        'latitude, longitude: the columns latitude and longitude, the first of several places; the others: private_latitude and private_longitude (empty in the rows looked at)',
      ),
      notes.join('\n'),
    );
    assert.ok(notes.includes('source_id: inat-{id}, from the column id: check that it identifies each row for good'));
    assert.ok(
      notes.includes(
        "media: fld_0_1 from the column image_url: each photo fetched from its web address when imported (kept in .spot-import/downloads/); name the topic's gallery field",
      ),
    );
  });

  it('Epicollect5: lat_3_location/long_3_location beside the UTM columns, ec5_uuid, a photo column of web addresses proposed to fetch', async () => {
    const { mapping, notes } = await guess(EPICOLLECT);
    // Its question 1_Species is the label Species of topic 9: that topic, its field and its gallery.
    assert.deepEqual(mapping, {
      source: { ...CSV_SOURCE, delimiter: ',' },
      topic_id: 9,
      source_id: 'ec5-{ec5_uuid}',
      latitude: 'lat_3_location',
      longitude: 'long_3_location',
      fields: { fld_9_1: '1_Species', fld_9_5: 'created_at' },
      media: { fld_9_3: { columns: ['4_Photo'] } },
    });
    assert.ok(notes.includes('latitude, longitude: the columns lat_3_location and long_3_location'), notes.join('\n'));
    assert.ok(
      notes.some((note) => note.startsWith('media: fld_9_3') && note.includes('4_Photo') && note.includes('fetched from its web address')),
      notes.join('\n'),
    );
  });
});

describe('guessMapping: layers, ids, grids and topics', () => {
  let dir: ReturnType<typeof scratch>;
  beforeEach(() => (dir = scratch()));
  afterEach(() => dir.cleanup());

  /** A layer with degrees in its geometry and a copy of the latitude and a projected easting in its properties. */
  const layer = (geometries: object[]) =>
    JSON.stringify({
      type: 'FeatureCollection',
      features: geometries.map((geometry, index) => ({
        type: 'Feature',
        id: `node/${1000 + index}`,
        geometry,
        properties: { objectid: index + 1, name: `Linde ${index + 1}`, lat: 48.2 + index / 100, X: 2500 + index * 10 },
      })),
    });

  it("takes the features' Point geometry (a one-point MultiPoint too) before properties that look like coordinates", async () => {
    const path = dir.write(
      'linden.geojson',
      layer([
        { type: 'Point', coordinates: [16.37, 48.2] },
        { type: 'MultiPoint', coordinates: [[16.38, 48.21]] },
      ]),
    );
    const { mapping, notes } = await guess(path);
    assert.equal(mapping.latitude, undefined);
    assert.equal(mapping.longitude, undefined);
    assert.equal(mapping.geometry, undefined);
    assert.ok(
      notes.includes("latitude, longitude: each feature's Point geometry, not the properties lat, X, which only look like coordinates"),
      notes.join('\n'),
    );
    // The features' own ids (Overpass's node/1000) before a row number among the properties.
    assert.equal(mapping.source_id, 'linden-{$id}');
    assert.ok(notes.includes("source_id: linden-{$id}, from each feature's own id member"), notes.join('\n'));
  });

  it('proposes the centroid of features that are not points, and says so', async () => {
    const square = {
      type: 'Polygon',
      coordinates: [
        [
          [16, 48],
          [16.1, 48],
          [16.1, 48.1],
          [16, 48.1],
          [16, 48],
        ],
      ],
    };
    const { mapping, notes } = await guess(dir.write('parks.geojson', layer([{ type: 'Point', coordinates: [16.37, 48.2] }, square])));
    assert.equal(mapping.geometry, 'centroid');
    assert.equal(mapping.latitude, undefined);
    assert.ok(
      notes.some((note) => note.startsWith('geometry: centroid, as some features are Polygon, not points')),
      notes.join('\n'),
    );
  });

  it('never proposes an id column that is empty in a row looked at, and says which row', async () => {
    const path = dir.write(
      'export.csv',
      ['_id,_uuid,_submission_time,_index,lat,lon', '11,u-1,2026-11-01T10:00:00,1,47.1,15.4', '12,,2026-11-01T10:05:00,2,47.2,15.5', ''].join('\n'),
    );
    const { mapping, notes } = await guess(path);
    assert.equal(mapping.source_id, 'kobo-{_id}');
    assert.ok(notes.includes('source_id: not the column _uuid, which is empty in row 2'), notes.join('\n'));
    assert.ok(notes.some((note) => note.startsWith('source_id: kobo-{_id}, from the column _id, a row number:')));
  });

  it("names a table of no known tool after its file without the export's date and numbers", async () => {
    const path = dir.write('Baumkataster_2026-11-30_08-15-42 (2).csv', 'Nr;Breite;Länge\n1;47,1;15,4\n2;47,2;15,5\n');
    const { mapping, notes } = await guess(path);
    assert.equal(mapping.source_id, 'Baumkataster-{Nr}');
    assert.deepEqual([mapping.latitude, mapping.longitude], ['Breite', 'Länge']);
    const degrees = await guess(dir.write('bäume.csv', 'Nr;Breite (WGS84);Länge (WGS84)\n1;47,1;15,4\n'));
    assert.deepEqual([degrees.mapping.latitude, degrees.mapping.longitude], ['Breite (WGS84)', 'Länge (WGS84)']);
    const sexagesimal = await guess(dir.write('gps.csv', `Nr,Latitude (DMS),Longitude (DMS)\n1,"47°04'16.3""N","15°26'02.1""E"\n`));
    assert.deepEqual([sexagesimal.mapping.latitude, sexagesimal.mapping.longitude], ['Latitude (DMS)', 'Longitude (DMS)']);
    assert.ok(
      notes.includes("source_id: the prefix Baumkataster- is the file's name without its dates and numbers: an export of another day finds the same spots"),
      notes.join('\n'),
    );
    const stamped = await guess(dir.write('trees-20261130-081542.csv', 'id,lat,lon\n1,47.1,15.4\n'));
    assert.equal(stamped.mapping.source_id, 'trees-{id}');
  });

  it('proposes a date pattern that reads every cell it was proposed from, days, months and hours of one digit too', async () => {
    const cases: Array<[string, string[]]> = [
      ['Beobachtet', ['1.5.2026 9:05', '12.11.2026 14:30']],
      ['Beobachtet', ['1.5.2026 9:05:07', '12.11.2026 14:30:00']],
      ['Beobachtet', ['1.5.2026', '31.12.2026']],
      ['Beobachtet', ['2026/5/1', '2026/12/31']],
    ];
    for (const [column, cells] of cases) {
      const path = dir.write('beobachtungen.csv', `Nr;lat;lon;${column}\n${cells.map((cell, index) => `${index + 1};47,1;15,4;${cell}`).join('\n')}\n`);
      const topic: TopicDefinition = { topic_id: 9, name: 'T', fields: { fld_9_5: { label: column, type: 'datetime' } } } as unknown as TopicDefinition;
      const { mapping } = await guess(path, new Map([[9, topic]]));
      const field = (mapping.fields as Record<string, { column: string; format: string }>).fld_9_5;
      assert.ok(field?.format, JSON.stringify(mapping));
      for (const cell of cells) {
        const result = convertDateTime(cell, { kind: /:/.test(cell) ? 'datetime' : 'date', format: field.format });
        assert.ok(!('problem' in result), `${field.format} reads "${cell}": ${JSON.stringify(result)}`);
      }
    }
  });

  it("says a grid's coordinates need their crs, with EPSG:31256 as the example only where the values can be in it, and not for one mistyped row among degrees", async () => {
    // St. Stephen's in Vienna in MGI / Austria GK East (cs2cs: northing 341089.37, easting 3096.80).
    const grid = await guess(dir.write('kataster.csv', 'Nr;X;Y\n1;3096,8;341089,37\n2;3210;341200\n'));
    assert.deepEqual([grid.mapping.latitude, grid.mapping.longitude], ['Y', 'X']);
    assert.equal(grid.mapping.crs, undefined);
    assert.ok(grid.notes.includes('crs: the coordinates are not degrees: set crs to their system, e.g. "EPSG:31256"'), grid.notes.join('\n'));
    // Gauss-Krüger without EPSG:31256's false northing of -5,000,000 (cs2cs puts it at 87° N), and a
    // table of Web Mercator metres no known tool wrote: no system is proposed, nor named as if likely.
    for (const [name, text] of [
      ['gk.csv', 'Nr;X;Y\n1;-2471,3;5340123,9\n2;-2310;5340200\n'],
      ['merc.csv', 'id,x,y\n1,1718722.3543,5953623.7671\n2,1822723.0784,6141562.0543\n'],
    ]) {
      const far = await guess(dir.write(name, text));
      assert.equal(far.mapping.crs, undefined, name);
      const crsNotes = far.notes.filter((note) => note.startsWith('crs:'));
      assert.deepEqual(
        crsNotes,
        ['crs: the coordinates are not degrees: set crs to the system they are in, as "EPSG:<number>" (the export\'s metadata says which)'],
        name,
      );
    }
    const typo = await guess(dir.write('typo.csv', 'Nr;Breite (m);Länge (m);lat;lon\n1;2;3;47,1;15,4\n2;2;3;471;15,5\n'));
    assert.deepEqual([typo.mapping.latitude, typo.mapping.longitude], ['lat', 'lon']);
    assert.ok(!typo.notes.some((note) => note.startsWith('crs:')), typo.notes.join('\n'));
  });

  it("proposes the topic only when a field's label heads a column, and the one that heads the most", async () => {
    const path = dir.write('plain.csv', 'id; SPECIES ;Comments:;lat;lon\n1;Oak;;47.1;15.4\n');
    const other: TopicDefinition = { topic_id: 4, fields: { fld_4_1: { label: 'Species', type: 'text' } } };
    const { mapping } = await guess(
      path,
      new Map([
        [4, other],
        [9, STREET_TREES],
      ]),
    );
    assert.equal(mapping.topic_id, 9);
    assert.deepEqual(mapping.fields, { fld_9_1: ' SPECIES ', fld_9_4: 'Comments:' });
    const none = await guess(dir.write('none.csv', 'Art;lat;lon\nEiche;47.1;15.4\n'), new Map([[9, STREET_TREES]]));
    assert.equal(none.mapping.topic_id, 0);
  });

  it("matches a label to the question at the end of a form's group path, KoBoToolbox's group/question, never to two such columns", async () => {
    // A KoBoToolbox download with its questions in groups, Count asked in two of them.
    const path = dir.write(
      'Trail_-_all_versions_-_False_-_2026-11-30-08-15-42.csv',
      [
        '"start";"group_obs/Species";"group_obs/Height (m)";"group_a/Count";"group_b/Count";"Observed at";"_point_latitude";"_point_longitude";"_uuid";"_submission_time";"_index"',
        '"2024-05-01T10:20:01.123+02:00";"Oak";"12,5";"3";"2";"2024-05-01T10:22:01.123+02:00";"47,0712";"15,4395";"a81f3c2e-1111-4a2b-9c3d-000000000001";"2024-05-01T08:30:00";"1"',
        '',
      ].join('\r\n'),
    );
    const { mapping, notes } = await guess(path, new Map([[7, TRAIL]]));
    assert.equal(mapping.topic_id, 7);
    assert.deepEqual(mapping.fields, { fld_7_1: 'group_obs/Species', fld_7_2: 'group_obs/Height (m)', spotted_at: 'Observed at' });
    assert.ok(notes.includes('fields: fld_7_1 (Species) from the column group_obs/Species'), notes.join('\n'));
    assert.ok(
      notes.includes('not mapped: start, group_a/Count, group_b/Count, _submission_time, _index (add them under fields to send them)'),
      notes.join('\n'),
    );
  });

  it("matches ODK Central's group-question only in a table ODK Central wrote, and a label written whole first", async () => {
    const odk = dir.write(
      'trail.csv',
      [
        'SubmissionDate,grp-species,obs-notes,Notes,site-location-Latitude,site-location-Longitude,meta-instanceID,KEY',
        '2024-05-01T08:30:12.345Z,Oak,bark loose,checked twice,47.0712,15.4395,uuid:0b7a1f5e-aaaa-4bbb-8ccc-000000000001,uuid:0b7a1f5e-aaaa-4bbb-8ccc-000000000001',
        '',
      ].join('\n'),
    );
    const { mapping } = await guess(odk, new Map([[7, TRAIL]]));
    // Without a start column, the submission's time.
    assert.deepEqual(mapping.fields, { fld_7_1: 'grp-species', fld_7_4: 'Notes', spotted_at: 'SubmissionDate' });
    // Elsewhere a hyphen is as likely a word's: "Baum-Species" heads no field.
    const plain = await guess(dir.write('baeume.csv', 'Nr;Baum-Species;lat;lon\n1;Eiche;47.1;15.4\n'), new Map([[7, TRAIL]]));
    assert.equal(plain.mapping.topic_id, 0);
    assert.equal(plain.mapping.fields, undefined);
  });
});

describe("guessMapping: the tool's observation time", () => {
  /** A topic some column of each export names (Species, iNaturalist's description), whose date-time field none heads with its label. */
  const TIMED: TopicDefinition = {
    topic_id: 5,
    fields: {
      fld_5_1: { label: 'Species', type: 'text' },
      fld_5_3: { label: 'Description', type: 'text' },
      fld_5_2: { label: 'When', type: 'datetime' },
      fld_5_4: { label: 'Photos', type: 'gallery' },
    },
  };
  const topics: TopicCatalog = new Map([[5, TIMED]]);
  // The first row's time, worked out by hand: ODK's and KoBo's start at +01:00 and Epicollect5's
  // created_at in UTC as UTC; Survey123's CreationDate is UTC (ArcGIS stores it so); iNaturalist's
  // time_observed_at (UTC) on its time_zone's wall clock, Buenos Aires at UTC-3, which its
  // observed_on_string "2026-11-20 11:05:12 AM -03:00" says too.
  const CASES: Array<[string, string, string, unknown]> = [
    [ODK, 'tree_survey.csv', 'start', '2026-11-29 09:41:02'],
    [KOBO, 'Tree_survey_-_all_versions_-_False_-_2026-11-30-08-15-42.csv', 'start', '2026-11-28 08:12:44'],
    [SURVEY123, 'Tree_Inventory_0.csv', 'CreationDate', '2019-04-11 20:25:02'],
    [INATURALIST, 'observations-512345.csv', 'time_observed_at', '2026-11-20 11:05:12'],
    [EPICOLLECT, 'form-1__street-trees.csv', 'created_at', '2026-11-25 10:12:33'],
  ];

  let dir: ReturnType<typeof scratch>;
  beforeEach(() => (dir = scratch()));
  afterEach(() => dir.cleanup());
  const scratchCsv = (text: string) => dir.write('plain.csv', text);

  for (const [path, name, column, first] of CASES) {
    it(`${name}: the topic's date-time field from ${column}, read as the proposal says`, async () => {
      const { mapping, notes } = await guess(path, topics);
      assert.equal(mapping.topic_id, 5);
      const field = mapping.fields?.fld_5_2;
      assert.equal(typeof field === 'string' ? field : field?.column, column, notes.join('\n'));
      assert.ok(
        notes.some((note) => note.startsWith('fields: fld_5_2 (When) from the column') && note.includes(column)),
        notes.join('\n'),
      );
      const { rows } = await checkedTable(name, readFileSync(path), mapping, topics);
      assert.deepEqual(
        rows[0].findings.filter((finding) => finding.pointer === '/data/attributes/fld_5_2'),
        [],
      );
      assert.equal(attributesOfRow(rows[0]).fld_5_2, first);
    });
  }

  it('leaves a date-time field a label feeds to that column, and proposes nothing for a table of no known tool', async () => {
    const labelled = await guess(SURVEY123, new Map([[9, STREET_TREES]]));
    assert.deepEqual(labelled.mapping.fields?.fld_9_5, { column: 'Observed at', format: 'M/d/yyyy h:mm:ss a' });
    const plain = await guess(scratchCsv('id,Species,created_at,lat,lon\n1,Oak,2026-11-25T10:12:33.000Z,47.1,15.4\n'), topics);
    assert.equal(plain.mapping.fields?.fld_5_2, undefined, 'created_at is a time only in a table Epicollect5 wrote');
  });
});

describe('Epicollect5 questions', () => {
  let dir: ReturnType<typeof scratch>;
  beforeEach(() => (dir = scratch()));
  afterEach(() => dir.cleanup());

  it("matches a label to Epicollect5's numbered question (2_Species, 4_Notes: its number, its spaces written as _), only in a table Epicollect5 wrote", async () => {
    const ec5 = dir.write(
      'form-1__biodiversity.csv',
      [
        'ec5_uuid,created_at,uploaded_at,title,lat_1_location,long_1_location,accuracy_1_location,2_Species,3_Count,4_Notes',
        '7c1a2b3c-0000-4000-8000-000000000001,2024-05-01T10:20:01.000Z,2024-05-01T10:25:00.000Z,Oak 1,47.0712,15.4395,5,Oak,3,near_the_path',
        '',
      ].join('\r\n'),
    );
    const { mapping } = await guess(ec5, new Map([[7, TRAIL]]));
    assert.equal(mapping.topic_id, 7);
    assert.deepEqual(mapping.fields, { fld_7_1: '2_Species', fld_7_4: '4_Notes', fld_7_6: '3_Count', spotted_at: 'created_at' });
    // Elsewhere "2_Species" is a column name like any other.
    const plain = await guess(dir.write('plain.csv', 'id,2_Species,lat,lon\n1,Eiche,47.1,15.4\n'), new Map([[7, TRAIL]]));
    assert.equal(plain.mapping.fields, undefined);
  });
});

describe('labels heading columns', () => {
  it('matches a label written with a trailing colon, another case or other spacing', () => {
    for (const header of ['Species', 'Species:', ' species ', 'SPECIES', 'Species :']) assert.ok(sameLabel(header, 'Species'), header);
    assert.ok(sameLabel('Tree  height   (m)', 'Tree height (m)'));
    assert.ok(!sameLabel('Subspecies', 'Species'));
    assert.ok(!sameLabel('', ''));
    assert.equal(labelKey(' Höhe (m): '), 'höhe (m)');
  });

  it('feeds a topic field from the column headed with its label written another way (resolveMapping)', () => {
    const mapping: Mapping = { topic_id: 9, source_id: 'x-{GlobalID}', latitude: 'y', longitude: 'x' };
    const resolved = resolveMapping(mapping, '/tables/trees.mapping.json', { columns: ['GlobalID', 'Species:', 'COMMENTS', 'x', 'y'], topics: TOPICS });
    assert.deepEqual(
      resolved.fields.map((field) => [field.attribute, field.column, field.byLabel]),
      [
        ['fld_9_1', 'Species:', true],
        ['fld_9_4', 'COMMENTS', true],
      ],
    );
  });

  it('feeds a topic field from the one column whose form group path ends in its label, none when two do (resolveMapping)', () => {
    const mapping: Mapping = { topic_id: 7, source_id: 'kobo-{_uuid}', latitude: '_point_latitude', longitude: '_point_longitude' };
    const columns = ['group_obs/Species', 'group_a/Count', 'group_b/Count', '_point_latitude', '_point_longitude', '_uuid', '_submission_time'];
    const resolved = resolveMapping(mapping, '/tables/trail.mapping.json', { columns, topics: new Map([[7, TRAIL]]) });
    assert.deepEqual(
      resolved.fields.map((field) => [field.attribute, field.column, field.byLabel]),
      [['fld_7_1', 'group_obs/Species', true]],
    );
  });
});

describe('labels heading columns with a unit', () => {
  /** A tree register's questions as a form or a spreadsheet names them: the labels without their units. */
  const REGISTER: TopicDefinition = {
    topic_id: 12,
    name: 'Baumkataster',
    fields: {
      fld_12_1: { label: 'Baumart', type: 'text' },
      fld_12_2: { label: 'Größe', type: 'number' },
      fld_12_3: { label: 'Höhe', type: 'number' },
      fld_12_4: { label: 'Stammumfang', type: 'number' },
      fld_12_5: { label: 'Kronendurchmesser', type: 'number' },
      fld_12_6: { label: 'Diameter', type: 'number' },
    },
  };
  let dir: ReturnType<typeof scratch>;
  beforeEach(() => (dir = scratch()));
  afterEach(() => dir.cleanup());

  it('matches "Größe (cm)" and "Höhe [m]" to the labels Größe and Höhe; a column written with the label alone first; two columns with units feed neither', async () => {
    // A spreadsheet's CSV as Excel saves it in German: sep= line, ";", decimal commas, CRLF, the
    // units after the questions, the crown's diameter in two units, and "Höhe" written twice, with and without its unit.
    const path = dir.write(
      'baumkataster_2026.csv',
      [
        'sep=;',
        'Nr;Baumart;Größe (cm);Höhe;Höhe [m];Stammumfang  ( cm ) :;Kronendurchmesser (m);Kronendurchmesser [ft];Breite;Länge',
        '1;Stieleiche;1250;12,5;12,5;210;8,5;27,9;47,0712;15,4395',
        '2;Winterlinde;980;9,8;9,8;145;6;19,7;47,0709;15,4402',
        '',
      ].join('\r\n'),
    );
    const { mapping, notes } = await guess(path, new Map([[12, REGISTER]]));
    assert.equal(mapping.topic_id, 12, notes.join('\n'));
    assert.deepEqual(mapping.fields, { fld_12_1: 'Baumart', fld_12_2: 'Größe (cm)', fld_12_3: 'Höhe', fld_12_4: 'Stammumfang  ( cm ) :' });
    assert.ok(notes.includes('fields: fld_12_2 (Größe) from the column Größe (cm)'), notes.join('\n'));
    assert.ok(
      notes.some((note) => note.startsWith('not mapped:') && note.includes('Höhe [m], Kronendurchmesser (m), Kronendurchmesser [ft]')),
      notes.join('\n'),
    );
  });

  it('feeds a topic field from the one column that is its label with a unit, at the end of a group path too, none when two are (resolveMapping)', () => {
    const mapping: Mapping = { topic_id: 12, source_id: 'kobo-{_uuid}', latitude: '_point_latitude', longitude: '_point_longitude' };
    const columns = [
      'group_baum/Baumart',
      'group_baum/Stammumfang (cm)',
      'Diameter (cm)',
      'Kronendurchmesser (m)',
      'Kronendurchmesser [ft]',
      'Größe (Klasse) [cm]',
      '_point_latitude',
      '_point_longitude',
      '_uuid',
    ];
    const resolved = resolveMapping(mapping, '/tables/kataster.mapping.json', { columns, topics: new Map([[12, REGISTER]]) });
    assert.deepEqual(
      resolved.fields.map((field) => [field.attribute, field.column, field.byLabel]),
      [
        ['fld_12_1', 'group_baum/Baumart', true],
        ['fld_12_4', 'group_baum/Stammumfang (cm)', true],
        ['fld_12_6', 'Diameter (cm)', true],
      ],
    );
    // Only a unit at the end goes: "Größe (Klasse) [cm]" is not "Größe", nor "Subspecies (x)" "Species".
    assert.equal(columnOfLabel(['Subspecies (x)', 'Species total'], 'Species'), undefined);
    // A unit with a slash in it is not a group path's: "group_baum/Dichte (kg/m³)" is Dichte's, as "Dichte (kg/m³)" is.
    assert.equal(columnOfLabel(['_uuid', 'group_baum/Dichte (kg/m³)'], 'Dichte'), 'group_baum/Dichte (kg/m³)');
    assert.equal(columnOfLabel(['_uuid', 'Dichte (kg/m³)'], 'Dichte'), 'Dichte (kg/m³)');
  });
});

describe('guessMapping: what it proposes validates and converts', () => {
  /** Each fixture's coordinates as its cells write them, [latitude, longitude] a row. */
  const EXPECTED: Array<[string, Array<[number, number]>]> = [
    [
      KOBO,
      [
        [47.0707, 15.4395],
        [47.07102, 15.43871],
        [47.06985, 15.44012],
        [47.0731, 15.4402],
      ],
    ],
    [
      ODK,
      [
        [48.208176, 16.373819],
        [48.20761, 16.37233],
        [48.2099, 16.3701],
      ],
    ],
    [
      SURVEY123,
      [
        [45.523062, -122.676482],
        [45.52877, -122.67311],
        [45.5312, -122.6894],
      ],
    ],
    [
      INATURALIST,
      [
        [-34.5755, -58.414],
        [-34.6118, -58.354],
        [-34.5889, -58.3974],
      ],
    ],
    [
      EPICOLLECT,
      [
        [51.507351, -0.127758],
        [51.50853, -0.12574],
        [51.5101, -0.134],
      ],
    ],
  ];

  for (const [path, coordinates] of EXPECTED) {
    it(`${path.slice(EXPORTS.length + 1)}: only the topic's number set, the mapping has no problem and every row converts to the fixture's coordinates`, async () => {
      const { mapping } = await guess(path);
      // The topic's definition is known where the topic was proposed; elsewhere the media's gallery
      // field is a placeholder the user names with the topic (as the note says).
      const proposed = mapping.topic_id === 9;
      const parsed = parseMapping(mappingPathFor(path), mappingText({ ...mapping, topic_id: 9 }));
      const mapped = await openMappedTable(path, parsed, proposed ? { topics: TOPICS } : {});
      assert.deepEqual(
        mapped.problems.map((problem) => problem.message),
        [],
      );
      assert.ok(mapped.mapping);
      const found: Array<[number, number]> = [];
      for await (const item of mapped.table.rows()) {
        assert.ok(!isRowReadProblem(item), JSON.stringify(item));
        const spot = await rowToSpot(item as SourceRow, mapped.mapping, { media: false });
        assert.deepEqual(
          spot.problems.filter((problem) => problem.severity === 'error').map((problem) => problem.message),
          [],
        );
        const attributes = (JSON.parse(spot.text) as { data: { attributes: { latitude: number; longitude: number; source_id: string } } }).data.attributes;
        assert.match(attributes.source_id, /^(kobo|odk|survey123|inat|ec5)-[^{}]+$/);
        found.push([attributes.latitude, attributes.longitude]);
      }
      assert.deepEqual(found, coordinates);
    });
  }

  it("Survey123 with x and y in Web Mercator metres (its layer's spatial reference): EPSG:3857 proposed and said why; every row converts to the place the form recorded", async () => {
    const dir = scratch();
    try {
      // The places in degrees (Graz, Graz, none, Vienna) and in EPSG:3857 as cs2cs gives them.
      const rows = [
        ['1', '{8F0C6A1E-9B2D-4C3E-A5F6-0718293A4B5C}', 'Quercus robur', 'Stamm hohl', '4/15/2024 9:03:12 AM', '1718722.3543', '5953623.7671'],
        ['2', '{2C4E6A8B-0D1F-4A3B-9C5D-7E8F9A0B1C2D}', 'Larix decidua', '"two lines\nof notes"', '4/15/2024 1:22:44 PM', '1718784.0698', '5953703.4781'],
        ['3', '{D3C2B1A0-9F8E-4D7C-B6A5-948372615049}', 'Fagus sylvatica', '', '4/15/2024 12:05:10 PM', '', ''],
        ['4', '{E4D3C2B1-A09F-4E8D-C7B6-A59483726150}', 'Tilia cordata', 'Größe geschätzt', '4/16/2024 10:47:00 PM', '1822723.0784', '6141562.0543'],
      ];
      const text =
        '\ufeff' + [['ObjectID', 'GlobalID', 'Species', 'Notes', 'CreationDate', 'x', 'y'], ...rows].map((row) => row.join(',')).join('\r\n') + '\r\n';
      const path = dir.write('Biodiversity_Survey_0.csv', text);
      const { mapping, notes } = await guess(path);
      assert.deepEqual([mapping.latitude, mapping.longitude, mapping.crs], ['y', 'x', 'EPSG:3857']);
      assert.ok(
        notes.includes(
          "crs: EPSG:3857 (Web Mercator): x and y are metres, which Survey123 writes in its layer's spatial reference, Web Mercator unless the layer was made in another (then give that one)",
        ),
        notes.join('\n'),
      );
      assert.ok(!notes.some((note) => note.includes('31256')), notes.join('\n'));
      const mapped = await openMappedTable(path, parseMapping(mappingPathFor(path), mappingText({ ...mapping, topic_id: 9 })), { topics: TOPICS });
      assert.deepEqual(
        mapped.problems.map((problem) => problem.message),
        [],
      );
      assert.ok(mapped.mapping);
      const found: Array<[number, number] | string[]> = [];
      for await (const item of mapped.table.rows()) {
        const spot = await rowToSpot(item as SourceRow, mapped.mapping, { media: false });
        const { latitude, longitude } = (JSON.parse(spot.text) as { data: { attributes: { latitude?: number; longitude?: number } } }).data.attributes;
        found.push(latitude === undefined || longitude === undefined ? spot.problems.map((problem) => problem.pointer) : [latitude, longitude]);
      }
      assert.deepEqual(found, [
        [47.0707123, 15.4395456],
        [47.0712, 15.4401],
        ['/data/attributes/longitude', '/data/attributes/latitude'],
        [48.2082, 16.3738],
      ]);
    } finally {
      dir.cleanup();
    }
  });

  it('a GeoJSON layer of points: its geometry, converted', async () => {
    const dir = scratch();
    try {
      const path = dir.write(
        'linden.geojson',
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            { type: 'Feature', geometry: { type: 'Point', coordinates: [16.3725, 48.2083] }, properties: { fid: 1, lat: 48.2083, X: 2471.3 } },
            { type: 'Feature', geometry: { type: 'Point', coordinates: [16.3801, 48.2101] }, properties: { fid: 2, lat: 48.2101, X: 3034.9 } },
          ],
        }),
      );
      const { mapping } = await guess(path);
      const mapped = await openMappedTable(path, parseMapping(mappingPathFor(path), mappingText({ ...mapping, topic_id: 9 })));
      assert.deepEqual(
        mapped.problems.map((problem) => problem.message),
        [],
      );
      assert.ok(mapped.mapping);
      const found: Array<[number, number]> = [];
      for await (const item of mapped.table.rows()) {
        const spot = await rowToSpot(item as SourceRow, mapped.mapping);
        const { latitude, longitude } = (JSON.parse(spot.text) as { data: { attributes: { latitude: number; longitude: number } } }).data.attributes;
        found.push([latitude, longitude]);
      }
      assert.deepEqual(found, [
        [48.2083, 16.3725],
        [48.2101, 16.3801],
      ]);
    } finally {
      dir.cleanup();
    }
  });
});
