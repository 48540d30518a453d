// spot-import on an Excel workbook as KoBoToolbox downloads it by default (a main sheet with the
// geopoint's columns, a repeat group's sheet with `_parent_index`): mapping proposes the main
// sheet, validate names a problem by its cell (form.xlsx:Trees!D3), import sends the valid rows
// with their dates read from the sheet's date cells, and a second run sends nothing.
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { jsonLines, runCli, scratch, useCliSandbox } from './helpers/cliProcess';
import { validateJsonLine } from './helpers/cliSchemas';
import { writeWorkbook } from './helpers/workbook';

const TOPIC = {
  topic_id: 12,
  name: 'Baumkataster',
  fields: {
    fld_12_2: { label: 'Höhe (m)', type: 'number', minimum: 0, maximum: 120 },
    fld_12_6: { label: 'Gepflanzt am', type: 'date' },
  },
};

const inline = (reference: string, text: string) => `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;
const number = (reference: string, value: number, style = 0) => `<c r="${reference}"${style ? ` s="${style}"` : ''}><v>${value}</v></c>`;

// 2026-11-29 is serial 46355 in the 1900 system (45658 is 2025-01-01, then 365 + 304 + 28 days).
const TREES = [
  `<row r="1">${inline('A1', '_uuid')}${inline('B1', '_geolocation_latitude')}${inline('C1', '_geolocation_longitude')}${inline('D1', 'Höhe (m)')}${inline('E1', 'planted')}</row>`,
  `<row r="2">${inline('A2', 'uuid-1')}${number('B2', 48.2081)}${number('C2', 16.3738)}${number('D2', 14.5)}${number('E2', 46355, 1)}</row>`,
  `<row r="3">${inline('A3', 'uuid-2')}${number('B3', 48.2076)}${number('C3', 16.3723)}${number('D3', 130)}${number('E3', 46356, 1)}</row>`,
  `<row r="4">${inline('A4', 'uuid-3')}${number('B4', 48.2079)}${number('C4', 16.3701)}${number('D4', 3)}${number('E4', 46357, 1)}</row>`,
].join('');
const REPEAT = `<row r="1">${inline('A1', 'photo')}${inline('B1', '_parent_index')}</row><row r="2">${inline('A2', 'a.jpg')}${number('B2', 1)}</row>`;

describe('spot-import rows: an Excel workbook', function () {
  this.timeout(60_000);
  const service = useCliSandbox();

  it('mapping proposes the sheet with coordinates; validate names a problem by its cell; import sends the valid rows; a second run sends nothing', async () => {
    const project = scratch({ 'spot-topics/12.topic.json': JSON.stringify(TOPIC) });
    try {
      const workbook = project.path('form.xlsx');
      // The repeat group first, as a workbook may have it: the proposal must still take Trees.
      await writeWorkbook(workbook, {
        styles: [0, 14],
        sheets: [
          { name: 'photos', rows: REPEAT },
          { name: 'Trees', rows: TREES },
        ],
      });

      const proposed = await runCli(['mapping', 'form.xlsx'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      assert.match(proposed.stderr, /source\.sheet: "Trees", the sheet with coordinates; the others: "photos" \(a repeat group/);
      const mapping = JSON.parse(readFileSync(project.path('form.mapping.json'), 'utf8')) as Record<string, Record<string, unknown>>;
      assert.equal(mapping.source.format, 'xlsx');
      assert.equal(mapping.source.sheet, 'Trees');
      assert.equal(mapping.latitude, '_geolocation_latitude');
      assert.equal(mapping.longitude, '_geolocation_longitude');
      // Completed as a person would: the topic, and the two fields.
      Object.assign(mapping, { topic_id: 12, fields: { fld_12_2: 'Höhe (m)', fld_12_6: 'planted' } });
      project.write('form.mapping.json', JSON.stringify(mapping, null, 2));

      const checked = await runCli(['validate', 'form.xlsx'], { cwd: project.dir });
      assert.equal(checked.code, 1, checked.stdout + checked.stderr);
      assert.match(checked.stdout, /^form\.xlsx:Trees!D3: .*130/m);
      const json = await runCli(['validate', 'form.xlsx', '--format', 'json'], { cwd: project.dir });
      const lines = jsonLines(json.stdout);
      for (const line of lines) validateJsonLine(line);
      const problem = (lines.find((line) => line.status === 'invalid')?.problems as Array<Record<string, unknown>>)[0];
      assert.deepEqual({ line: problem.line, column: problem.column, cell: problem.cell }, { line: 3, column: 4, cell: 'Trees!D3' });

      const env = await service.start();
      const sandbox = service.sandbox();
      const first = await runCli(['import', 'form.xlsx', '--format', 'json'], { cwd: project.dir, env });
      assert.equal(first.code, 1, first.stderr);
      const spot = sandbox.spotBySourceId(String(mapping.source_id).replace('{_uuid}', 'uuid-1'));
      assert.ok(spot, first.stdout);
      assert.equal(spot.attributes.fld_12_6, '2026-11-29');
      assert.equal(spot.attributes.fld_12_2, 14.5);
      assert.equal(sandbox.counters.imports, 2, 'rows 1 and 3; row 2 is refused');
      const again = await runCli(['import', 'form.xlsx', '--format', 'json'], { cwd: project.dir, env });
      assert.equal(sandbox.counters.imports, 2, `the second run sends nothing: ${again.stdout}`);

      // convert writes the valid rows as documents, each with the date its date cell holds.
      const converted = await runCli(['convert', 'form.xlsx', '--out', 'spots'], { cwd: project.dir });
      assert.equal(converted.code, 1, 'row 2 is reported and not written');
      assert.match(converted.stdout, /^form\.xlsx:Trees!D3: /m);
      const written = readdirSync(project.path('spots')).sort();
      assert.equal(written.length, 2, written.join(', '));
      const document = JSON.parse(readFileSync(project.path(`spots/${written[0]}`), 'utf8')) as { data: { attributes: Record<string, unknown> } };
      assert.equal(document.data.attributes.fld_12_6, '2026-11-29');
    } finally {
      project.cleanup();
    }
  });

  it("mapping leaves a hidden first sheet alone (an export's list of sites, with coordinates of its own) and proposes the visible one", async () => {
    const project = scratch({});
    try {
      await writeWorkbook(project.path('survey.xlsx'), {
        sheets: [
          {
            name: 'sites',
            state: 'hidden',
            rows: `<row r="1">${inline('A1', 'site')}${inline('B1', 'latitude')}${inline('C1', 'longitude')}</row><row r="2">${inline('A2', 'Prater')}${number('B2', 48.2167)}${number('C2', 16.3958)}</row>`,
          },
          { name: 'Trees', rows: TREES },
          // Excel's second sheet nobody wrote in.
          { name: 'Tabelle2', rows: '' },
        ],
      });
      const proposed = await runCli(['mapping', 'survey.xlsx'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      const mapping = JSON.parse(readFileSync(project.path('survey.mapping.json'), 'utf8')) as Record<string, Record<string, unknown>>;
      assert.equal(mapping.source.sheet, 'Trees', proposed.stderr);
      assert.equal(mapping.latitude, '_geolocation_latitude');
      assert.match(proposed.stderr, /sites \(hidden\)/);
    } finally {
      project.cleanup();
    }
  });

  it('mapping finds the header below a title line and a blank row, and writes its row as source.header', async () => {
    const project = scratch({});
    try {
      // The KoBo sheet above under a title, as a report exports it: the title in A1, the header in row 3.
      const below = TREES.replace(/(<row r="|r="[A-E])(\d+)"/g, (_, start: string, row: string) => `${start}${Number(row) + 2}"`);
      await writeWorkbook(project.path('report.xlsx'), {
        styles: [0, 14],
        sheets: [{ name: 'Bericht', rows: `<row r="1">${inline('A1', 'Tree survey 2024')}</row>${below}` }],
      });
      const proposed = await runCli(['mapping', 'report.xlsx'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      const mapping = JSON.parse(readFileSync(project.path('report.mapping.json'), 'utf8')) as Record<string, Record<string, unknown>>;
      assert.equal(mapping.source.header, 3, proposed.stderr);
      assert.equal(mapping.latitude, '_geolocation_latitude');
      assert.match(proposed.stderr, /header row 3 \(detected/);
    } finally {
      project.cleanup();
    }
  });

  it('mapping names the column under a merged header cell ("Location (2)") and says so; validate reads its values', async () => {
    const project = scratch({ 'spot-topics/12.topic.json': JSON.stringify(TOPIC) });
    try {
      // "Location" merged over B1:C1, latitude and longitude below it; Excel writes C1 as an empty cell with the merge's style.
      await writeWorkbook(project.path('merged.xlsx'), {
        styles: [0, 14],
        sheets: [
          {
            name: 'Trees',
            rows: `<row r="1">${inline('A1', '_uuid')}${inline('B1', 'Location')}<c r="C1" s="0"/></row><row r="2">${inline('A2', 'uuid-1')}${number('B2', 48.2081)}${number('C2', 16.3738)}</row>`,
            after: '<mergeCells count="1"><mergeCell ref="B1:C1"/></mergeCells>',
          },
        ],
      });
      const proposed = await runCli(['mapping', 'merged.xlsx'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      assert.match(proposed.stderr, /column 3 is under the merged header cell "Location" \(B1:C1\): called "Location \(2\)"/);
      const mapping = JSON.parse(readFileSync(project.path('merged.mapping.json'), 'utf8')) as Record<string, unknown>;
      Object.assign(mapping, { topic_id: 12, latitude: 'Location', longitude: 'Location (2)' });
      project.write('merged.mapping.json', JSON.stringify(mapping, null, 2));
      const checked = await runCli(['validate', 'merged.xlsx'], { cwd: project.dir });
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    } finally {
      project.cleanup();
    }
  });
});
