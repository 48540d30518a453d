// Cells as real exports write them (issue 32): R's and Stata's NA, N/A and "-" in number columns
// read as empty (source.nullValues, with a default list), and a required field left empty reported
// at its empty cell rather than at the row's start. Positions are counted from the text the test
// wrote (positionOf), never by the reader under test.
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
        fld_7_1: { label: 'Species', type: 'text', required: true },
        fld_7_2: { label: 'Height (m)', type: 'number' },
        fld_7_4: { label: 'Notes', type: 'text' },
      },
    },
  ],
]);

async function checked(csv: string, mapping: object, topics?: TopicCatalog, name = 'export.csv'): Promise<CheckedRow[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rows-values-'));
  try {
    const table = path.join(dir, name);
    await fs.writeFile(table, csv);
    const mappingPath = path.join(dir, 'export.mapping.json');
    const parsed = parseMapping(mappingPath, JSON.stringify(mapping));
    const mapped = await openMappedTable(table, parsed, { topics });
    assert.ok(mapped.mapping, JSON.stringify(mapped.problems.map((problem) => problem.message)));
    const rows: CheckedRow[] = [];
    for await (const row of checkRows(mapped.table, mapped.mapping, { topics })) rows.push(row);
    return rows;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** An R export: NA for a missing number, as write.csv writes it; Stata's "."; a spreadsheet's #N/A. */
const R_EXPORT = [
  '"id","lat","lon","height","note"',
  '"a",48.1,16.1,12.5,"NA"',
  '"b",48.2,16.2,NA,"x"',
  '"c",48.3,16.3,#N/A,"y"',
  '"d",48.4,16.4,.,"z"',
  '"e",48.5,16.5,-,"NA"',
  '',
].join('\n');
const R_MAPPING = {
  topic_id: 1,
  source_id: 'r-{id}',
  latitude: 'lat',
  longitude: 'lon',
  fields: { fld_1_1: { column: 'height', type: 'number' }, fld_1_2: 'note' },
};

function attributes(row: CheckedRow): Record<string, unknown> {
  return (JSON.parse(row.spot!.text) as { data: { attributes: Record<string, unknown> } }).data.attributes;
}

describe('rows: cells as real exports write them', () => {
  it('NA, #N/A, "." and "-" in a number column are empty by default; a text column keeps them as written', async () => {
    const rows = await checked(R_EXPORT, R_MAPPING);
    assert.deepEqual(
      rows.map((row) => row.findings),
      [[], [], [], [], []],
    );
    assert.deepEqual(
      rows.map((row) => attributes(row).fld_1_1),
      [12.5, undefined, undefined, undefined, undefined],
    );
    assert.deepEqual(
      rows.map((row) => attributes(row).fld_1_2),
      ['NA', 'x', 'y', 'z', 'NA'],
      'text is sent as written',
    );
  });

  it('source.nullValues replaces the list: [] makes NA a number problem at its cell; its own list is honoured', async () => {
    const none = await checked(R_EXPORT, { ...R_MAPPING, source: { nullValues: [] } });
    const na = positionOf(R_EXPORT, 'NA,"x"');
    assert.deepEqual(
      none[1].findings.map((finding) => [finding.line, finding.column, finding.message]),
      [[na.line, na.column, 'fld_1_1: "NA" is not a number (e.g. 47.2692).']],
    );
    const own = await checked('id,lat,lon,height\na,48.1,16.1,keine Angabe\nb,48.2,16.2,NA\n', {
      ...R_MAPPING,
      fields: { fld_1_1: { column: 'height', type: 'number' } },
      source: { nullValues: ['keine Angabe'] },
    });
    assert.deepEqual(own[0].findings, []);
    assert.equal(own[1].findings.length, 1, 'NA is not in the list the mapping gives');
  });

  it('NA as a coordinate is an empty coordinate, said as such', async () => {
    const rows = await checked('id,lat,lon\na,NA,16.1\n', { topic_id: 1, source_id: 'r-{id}', latitude: 'lat', longitude: 'lon' });
    assert.match(rows[0].findings[0].message, /latitude is empty in this row/);
  });

  it("a required field left empty is reported at its empty cell, not at the row's start", async () => {
    const text = 'id,lat,lon,Species,Notes\na,48.1,16.1,,no species given\n';
    const rows = await checked(text, { topic_id: 7, source_id: 'r-{id}', latitude: 'lat', longitude: 'lon' }, catalog);
    const required = rows[0].findings.find((finding) => finding.rule === 'topic.requiredMissing');
    assert.ok(required, JSON.stringify(rows[0].findings));
    // The empty cell starts right after "16.1,".
    const cell = positionOf(text, ',no species');
    assert.deepEqual([required.line, required.column], [cell.line, cell.column]);
  });

  it("{$id} in a source_id template is a GeoJSON feature's own id, placed at it; a feature without one is a problem of its row; a CSV has none", async () => {
    const layer = [
      '{"type":"FeatureCollection","features":[',
      '{"type":"Feature","id":"node/42","properties":{"name":"bench"},"geometry":{"type":"Point","coordinates":[16.1,48.1]}},',
      '{"type":"Feature","properties":{"name":"no id"},"geometry":{"type":"Point","coordinates":[16.2,48.2]}}',
      ']}',
      '',
    ].join('\n');
    const rows = await checked(layer, { topic_id: 1, source_id: 'osm-{$id}' }, undefined, 'export.geojson');
    assert.equal(rows[0].sourceId, 'osm-node/42');
    assert.deepEqual(rows[0].findings, []);
    assert.equal(rows[0].spot!.cells.get('/data/attributes/source_id')?.column, positionOf(layer, '"node/42"').column);
    assert.deepEqual(
      rows[1].findings.map((finding) => finding.message),
      ['source_id is empty: this feature has no id member, which its template osm-{$id} names.'],
    );

    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rows-values-'));
    try {
      await fs.writeFile(path.join(dir, 'trees.csv'), 'id,lat,lon\na,48.1,16.1\n');
      const parsed = parseMapping(
        path.join(dir, 'trees.mapping.json'),
        JSON.stringify({ topic_id: 1, source_id: 't-{$id}', latitude: 'lat', longitude: 'lon' }),
      );
      const mapped = await openMappedTable(path.join(dir, 'trees.csv'), parsed);
      assert.deepEqual(
        mapped.problems.map((problem) => problem.message),
        ["{$id} is a GeoJSON feature's own id: the rows of trees.csv are not features; name a column instead."],
      );
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
