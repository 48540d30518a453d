// A photo's GPS tags as some cameras write them: without the hemisphere references
// (GPSLatitudeRef, GPSLongitudeRef), and with seconds or minutes of 0/0 (a rational with a zero
// denominator for "none"). The row is still a place, north and east taken for a missing
// reference with a warning that says so; 0/0 counts as 0. The photos are written byte by byte
// (helpers/exifJpeg.ts) and every expected place is worked out here by hand.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRowReadProblem, openMappedTable, parseMapping, rowToSpot, type RowSpot, type SourceRow } from '../../src/core/rows';
import type { TopicCatalog } from '../../src/core/topics/topicSchema';
import { exifJpeg, type ExifPhoto } from './helpers/exifJpeg';

const TOPICS: TopicCatalog = new Map([[31, { topic_id: 31, name: 'Baumfotos', fields: { fld_31_2: { label: 'Fotos', type: 'gallery' } } }]]);

/** To 7 decimals, as the reader gives degrees. */
const round = (value: number) => Math.round(value * 1e7) / 1e7;

describe('rows read: GPS tags without hemisphere or with 0/0 parts', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-photos-gps-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Each photo's row and the spot it becomes, in name order. */
  async function spotsOf(photos: Record<string, ExifPhoto>): Promise<Array<{ row: SourceRow; spot: RowSpot }>> {
    mkdirSync(join(dir, 'photos'));
    for (const [name, photo] of Object.entries(photos)) writeFileSync(join(dir, 'photos', name), exifJpeg(photo));
    const mapping = { source: { format: 'photos' }, topic_id: 31, source_id: 'foto-{file}' };
    const mapped = await openMappedTable(join(dir, 'photos'), parseMapping(join(dir, 'photos.mapping.json'), JSON.stringify(mapping)), { topics: TOPICS });
    assert.deepEqual(mapped.problems, []);
    const result: Array<{ row: SourceRow; spot: RowSpot }> = [];
    for await (const row of mapped.table.rows()) {
      assert.ok(!isRowReadProblem(row), isRowReadProblem(row) ? row.problem : '');
      result.push({ row, spot: await rowToSpot(row, mapped.mapping!, { media: false }) });
    }
    return result;
  }

  it('seconds or minutes of 0/0 count as 0: the place is kept', async () => {
    const rows = await spotsOf({
      '1.jpg': { gps: { latitudeRef: 'N', latitude: [48, 12, [0, 0]], longitudeRef: 'E', longitude: [16, 22, [0, 0]] } },
      '2.jpg': { gps: { latitudeRef: 'S', latitude: [33, [0, 0], 36], longitudeRef: 'W', longitude: [58, [0, 0], [0, 0]] } },
    });
    assert.deepEqual(
      rows.map(({ row }) => [row.values.latitude, row.values.longitude]),
      [
        // 48° 12' = 48.2; 16° 22' = 16.3666666…
        [48.2, 16.3666667],
        // 33° 0' 36" = 33.01 south; 58° west.
        [-33.01, -58],
      ],
    );
    for (const { spot } of rows) assert.deepEqual(spot.problems, []);
  });

  it('a missing hemisphere reference is taken as north or east, with a warning at the row that says so', async () => {
    const rows = await spotsOf({
      '1-neither.jpg': { gps: { latitude: [48, 12, 30], longitude: [16, 22, 15] } },
      '2-no-latitude-ref.jpg': { gps: { latitude: [41, 17, 18], longitudeRef: 'E', longitude: [174, 46, 36] } },
      '3-no-longitude-ref.jpg': { gps: { latitudeRef: 'S', latitude: [41, 17, 18], longitude: [174, 46, 36] } },
      '4-both.jpg': { gps: { latitudeRef: 'S', latitude: [41, 17, 18], longitudeRef: 'W', longitude: [174, 46, 36] } },
    });
    // 48° 12' 30" = 48 + 0.2 + 0.0083333…; 16° 22' 15" = 16 + 0.3666666… + 0.0041666…; 41° 17' 18" = 41.2883333…; 174° 46' 36" = 174.7766666…
    assert.deepEqual(
      rows.map(({ row }) => [row.values.latitude, row.values.longitude]),
      [
        [round(48.2083333333), round(16.3708333333)],
        [round(41.2883333333), round(174.7766666667)],
        [round(-41.2883333333), round(174.7766666667)],
        [round(-41.2883333333), round(-174.7766666667)],
      ],
    );
    const warnings = rows.map(({ spot }) => {
      assert.ok(
        spot.problems.every((problem) => problem.severity === 'warning'),
        JSON.stringify(spot.problems),
      );
      return spot.problems.map((problem) => [problem.pointer, problem.message]);
    });
    assert.equal(warnings[0].length, 1);
    assert.equal(warnings[0][0][0], '/data/attributes/latitude');
    assert.match(warnings[0][0][1], /GPSLatitudeRef and GPSLongitudeRef are missing.*north and east were assumed/);
    assert.match(warnings[1][0][1], /GPSLatitudeRef is missing.*north was assumed/);
    assert.match(warnings[2][0][1], /GPSLongitudeRef is missing.*east was assumed/);
    assert.deepEqual(warnings[3], [], 'both references written: nothing to say');
    // The spot is still sent, with the place as read.
    const attributes = JSON.parse(rows[0].spot.text) as { data: { attributes: Record<string, unknown> } };
    assert.equal(attributes.data.attributes.latitude, round(48.2083333333));
  });
});
