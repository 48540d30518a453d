// A categories cell as tables write it: form tools' select_multiple answers (KoBoToolbox and ODK
// write the chosen choice names in one cell, separated by spaces), lists a person typed with ";"
// or ",", and labels that hold a comma themselves. Expected keys are read off the topic below by hand.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TopicCatalog } from '../../src/core';
import { checkRows, openMappedTable, parseMapping, type CheckedRow } from '../../src/core/rows';
import { positionOf } from './helpers/tableFiles';

const catalog: TopicCatalog = new Map([
  [
    7,
    {
      topic_id: 7,
      fields: {
        fld_7_1: { label: 'Species', type: 'text' },
        fld_7_9: { label: 'Threats', type: 'categories', values: { storm: 'Storm', beetle: 'Bark beetles', drought: 'Drought' } },
        fld_7_10: { label: 'Habitat', type: 'categories', values: { a: 'Alpha', b: 'Beta', c: 'Gamma, delta', 'd e': 'Wet meadow' } },
      },
    },
  ],
]);

async function checked(csv: string, mapping: object): Promise<CheckedRow[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rows-categories-'));
  try {
    const table = path.join(dir, 'export.csv');
    await fs.writeFile(table, csv);
    const parsed = parseMapping(path.join(dir, 'export.mapping.json'), JSON.stringify(mapping));
    const mapped = await openMappedTable(table, parsed, { topics: catalog });
    assert.ok(mapped.mapping, JSON.stringify(mapped.problems.map((problem) => problem.message)));
    const rows: CheckedRow[] = [];
    for await (const row of checkRows(mapped.table, mapped.mapping, { topics: catalog })) rows.push(row);
    return rows;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function attribute(row: CheckedRow, name: string): unknown {
  return (JSON.parse(row.spot!.text) as { data: { attributes: Record<string, unknown> } }).data.attributes[name];
}

/** A KoBoToolbox CSV download: ";" between cells, every cell quoted, a select_multiple question as one cell of choice names and a 0/1 column per choice. */
const KOBO = [
  '"Species";"_point_latitude";"_point_longitude";"Threats";"Threats/storm";"Threats/beetle";"Threats/drought";"_uuid";"_submission_time";"_index"',
  '"Oak";"47.0712";"15.4395";"storm beetle";"1";"1";"0";"a81f3c2e-1111-4a2b-9c3d-000000000001";"2024-05-01T08:30:00";"1"',
  '"Larch";"47.1";"15.5";"drought";"0";"0";"1";"a81f3c2e-1111-4a2b-9c3d-000000000002";"2024-05-01T08:31:00";"2"',
  '"Beech";"47.2";"15.6";"storm  beetlez";"1";"0";"0";"a81f3c2e-1111-4a2b-9c3d-000000000003";"2024-05-01T08:32:00";"3"',
  '',
].join('\r\n');
const KOBO_MAPPING = { topic_id: 7, source_id: 'kobo-{_uuid}', latitude: '_point_latitude', longitude: '_point_longitude' };

describe('rows: categories cells', () => {
  it("takes a form tool's select_multiple cell, choice names separated by spaces, as those keys", async () => {
    const rows = await checked(KOBO, KOBO_MAPPING);
    assert.deepEqual(rows[0].findings, []);
    // "storm beetle": the keys storm and beetle, in the cell's order.
    assert.deepEqual(attribute(rows[0], 'fld_7_9'), ['storm', 'beetle']);
    assert.deepEqual(rows[1].findings, []);
    assert.deepEqual(attribute(rows[1], 'fld_7_9'), ['drought']);
    // "beetlez" is no key: the piece is refused whole, with the message an unknown value always had.
    const at = positionOf(KOBO, '"storm  beetlez"');
    assert.deepEqual(
      rows[2].findings.map((finding) => [finding.line, finding.column, finding.message]),
      [[at.line, at.column, "'storm  beetlez' is not a category of Threats (fld_7_9); allowed: storm (Storm), beetle (Bark beetles), drought (Drought)."]],
    );
  });

  it('takes a label holding a comma when the cell or a ";" piece is that label, and splits other cells on ";" and ","', async () => {
    const csv = [
      'id,lat,lon,Habitat',
      '1,47.1,15.1,"Gamma, delta"',
      '2,47.1,15.1,"alpha; gamma, delta"',
      '3,47.1,15.1,"Alpha, Beta;c"',
      '4,47.1,15.1,a b',
      '5,47.1,15.1,d e',
      '6,47.1,15.1,"Gamma, epsilon"',
      '7,47.1,15.1,"a, Alpha; a b"',
      '',
    ].join('\n');
    const rows = await checked(csv, { topic_id: 7, source_id: 'h-{id}', latitude: 'lat', longitude: 'lon' });
    // By hand: "Gamma, delta" is the label of c; "alpha" is a's label in another case; Alpha and Beta
    // are a and b; "a b" is no key or label, its words a and b are keys; "d e" is the key "d e" itself.
    assert.deepEqual(
      rows.slice(0, 5).map((row) => [row.findings, attribute(row, 'fld_7_10')]),
      [
        [[], ['c']],
        [[], ['a', 'c']],
        [[], ['a', 'b', 'c']],
        [[], ['a', 'b']],
        [[], ['d e']],
      ],
    );
    // A category named twice in a cell (by key, by label, by a word) is sent once: it is one choice.
    assert.deepEqual([rows[6].findings, attribute(rows[6], 'fld_7_10')], [[], ['a', 'b']]);
    // Neither the cell nor its pieces are categories: "Gamma" is the first piece refused, as before.
    assert.deepEqual(
      rows[5].findings.map((finding) => finding.message),
      ["'Gamma' is not a category of Habitat (fld_7_10); allowed: a (Alpha), b (Beta), c (Gamma, delta), d e (Wet meadow)."],
    );
  });
});
