// spot-import validate on the rows of tables (issue 21), run as the bundled command line over real
// files (helpers/rowsProject.ts): each problem at its cell as file:line:col, in every format; one
// problem per kind of mistake a row can hold, and nothing said twice; the mapping's own problems
// at the mapping file's line and column, after which the rows are not checked.
import * as assert from 'node:assert/strict';
import { ensureCliBuilt, jsonLines, runCli } from './helpers/cliProcess';
import { validateJsonLine, validateSarif } from './helpers/cliSchemas';
import { BAEUME_TEXT, GEOJSON_MAPPING, KOBO_MAPPING, KOBO_ROWS, KOBO_TEXT, positionOf, rowsProject, type Project } from './helpers/rowsProject';

/** Where a cell starts: found by its value between two delimiters (the nth such), in the text without its byte-order mark. */
function cellAt(text: string, value: string, nth = 1): { line: number; column: number } {
  const at = positionOf(text, `;${value};`, nth);
  return { line: at.line, column: at.column + 1 };
}

/** The line each row of survey.csv starts on: the header is line 1, and a row takes one line more per line break inside its quoted cells. */
function koboRowLines(): number[] {
  const lines: number[] = [];
  let line = 2;
  for (const row of KOBO_ROWS) {
    lines.push(line);
    line += 1 + (Object.values(row).join('').match(/\r\n/g)?.length ?? 0);
  }
  return lines;
}

describe('spot-import rows: validate', function () {
  let project: Project;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = rowsProject()));
  afterEach(() => project.cleanup());

  it('text: every kind of row problem at its cell, once, in file order; exit 1', async () => {
    const result = await runCli(['validate', 'survey.csv'], { cwd: project.dir });
    assert.equal(result.code, 1, result.stderr);
    const at = (position: { line: number; column: number }) => `survey.csv:${position.line}:${position.column}`;
    const rowLines = koboRowLines();
    assert.deepEqual(result.stdout.trim().split('\n'), [
      `${at(cellAt(KOBO_TEXT, 'ca. 47,27'))}: latitude: "ca. 47,27" is not a number (e.g. 47,2692).`,
      `${at(cellAt(KOBO_TEXT, '200'))}: longitude 200 is out of range (-180 to 180).`,
      // Both out of range: each at its own cell.
      `${at(cellAt(KOBO_TEXT, '95'))}: latitude 95 is out of range (-90 to 90).`,
      `${at(cellAt(KOBO_TEXT, '-200'))}: longitude -200 is out of range (-180 to 180).`,
      `${at(cellAt(KOBO_TEXT, '165'))}: latitude 165 is out of range; latitude and longitude are probably swapped.`,
      `${at(cellAt(KOBO_TEXT, 'Beeche'))}: 'Beeche' is not a category of Species (fld_7_1); did you mean 'Beech'?`,
      `${at(cellAt(KOBO_TEXT, 'verloren.jpg'))}: The photo "verloren.jpg" is not in the folder photos (${project.path('photos')}).`,
      // The empty _uuid cell: where it would start, after the _id 509 of that row.
      `${at({ line: cellAt(KOBO_TEXT, '509').line, column: cellAt(KOBO_TEXT, '509').column + '509;'.length })}: source_id is empty: the column "_uuid" of its template kobo:{_uuid} has no value in this row.`,
      // At the later row's source_id cell, naming the earlier row (row 2, which starts on the line after row 1's two).
      `${at(cellAt(KOBO_TEXT, 'uuid-2', 2))}: source_id "kobo:uuid-2" is also the source_id of survey.csv row 2 (line ${rowLines[1]}): both would update one spot, so this one is not imported.`,
      // After a quoted cell holding the delimiter and a line break: on the row's second line.
      `${at(cellAt(KOBO_TEXT, 'hoch'))}: Height (m) (fld_7_2): "hoch" is not a number (e.g. 47,2692).`,
    ]);
    assert.equal(cellAt(KOBO_TEXT, 'hoch').line, rowLines[11] + 1, 'the problem is on the second line of its row');
    assert.match(result.stderr, /^12 rows of survey\.csv checked: 9 invalid, 3 valid\.$/m);
  });

  it('local times: one that cannot be read and one in the daylight-saving gap are errors, one in the repeated hour a warning (the row stays valid)', async () => {
    const result = await runCli(['validate', 'baeume.csv'], { cwd: project.dir });
    assert.equal(result.code, 1, result.stderr);
    const at = (value: string) => {
      const position = cellAt(BAEUME_TEXT, value);
      return `baeume.csv:${position.line}:${position.column}`;
    };
    assert.deepEqual(result.stdout.trim().split('\n'), [
      `${at('25.10.2026 02:30')}: warning: Beobachtet am (fld_12_5): 2026-10-25 02:30 happened twice in Europe/Vienna (the clocks went back from 03:00 to 02:00); taken as the earlier, at +02:00.`,
      `${at('29.03.2026 02:30')}: Beobachtet am (fld_12_5): 2026-03-29 02:30 does not exist in Europe/Vienna: the clocks went from 02:00 to 03:00.`,
      `${at('gestern 14 Uhr')}: Beobachtet am (fld_12_5): "gestern 14 Uhr" is not a date and time in the expected format (dd.MM.yyyy HH:mm, e.g. 31.05.2026 14:30).`,
    ]);
    assert.match(result.stderr, /^4 rows of baeume\.csv checked: 2 invalid, 2 valid\.$/m);
    assert.match(result.stderr, /^baeume\.csv: encoding windows-1252 \(detected: not valid UTF-8, line 1\)$/m, 'what was detected is said');
  });

  it('exit 0 and nothing on stdout when every row is valid (a GeoJSON layer in EPSG:31256)', async () => {
    const result = await runCli(['validate', 'kataster.geojson'], { cwd: project.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^2 rows of kataster\.geojson checked: all valid\.$/m);
  });

  it("a topic_id the project's definitions do not define is a warning at the mapping's topic_id (the fields go unchecked); the rows are still checked", async () => {
    const mapping = JSON.stringify({ ...GEOJSON_MAPPING, topic_id: 21 }, null, 2);
    project.write('kataster.mapping.json', mapping);
    const position = positionOf(mapping, '21');
    const result = await runCli(['validate', 'kataster.geojson'], { cwd: project.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout.trim(),
      `kataster.mapping.json:${position.line}:${position.column}: warning: topic 21 has no definition among the project's topics (7, 12): the rows' fields are not checked here, only when the service receives them.`,
    );
    assert.match(result.stderr, /^2 rows of kataster\.geojson checked: all valid\.$/m);
  });

  it('json: a line per row carrying row and line, problems with their rule; every line matches docs/cli-json.md', async () => {
    const result = await runCli(['validate', 'survey.csv', '--format', 'json'], { cwd: project.dir });
    assert.equal(result.code, 1, result.stderr);
    const records = jsonLines(result.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    const rows = records.filter((record) => record.type === 'document');
    assert.deepEqual(
      rows.map((record) => [record.file, record.row, record.line, record.status]),
      koboRowLines().map((line, index) => ['survey.csv', index + 1, line, index < 3 ? 'valid' : 'invalid']),
    );
    // The reason: the first error, and how many more (as for a document).
    assert.equal(rows[5].reason, 'latitude 95 is out of range (-90 to 90). (and 1 more)');
    const swapped = rows[6];
    assert.equal(swapped.reason, 'latitude 165 is out of range; latitude and longitude are probably swapped.');
    assert.deepEqual(swapped.problems, [
      {
        ...cellAt(KOBO_TEXT, '165'),
        endLine: cellAt(KOBO_TEXT, '165').line,
        endColumn: cellAt(KOBO_TEXT, '165').column + 1,
        message: swapped.reason,
        pointer: '/data/attributes/latitude',
        severity: 'error',
        // The rule spot documents have for it: the editor offers the swap (of the mapping's columns).
        rule: 'spot.swappedCoordinates',
      },
    ]);
    assert.deepEqual(
      rows.slice(3).map((record) => (record.problems as Array<{ rule: string }>).map((problem) => problem.rule)),
      [
        ['row.coordinates'],
        ['row.coordinates'],
        ['row.coordinates', 'row.coordinates'],
        ['spot.swappedCoordinates'],
        ['row.category'],
        ['row.media'],
        ['row.sourceId'],
        ['spot.repeatedSourceId'],
        ['row.value'],
      ],
    );
    assert.deepEqual(
      { ...records.at(-1), durationMs: 0 },
      {
        type: 'summary',
        command: 'validate',
        total: 12,
        counts: { valid: 3, invalid: 9 },
        message: '12 rows of survey.csv checked: 9 invalid, 3 valid.',
        exitCode: 1,
        durationMs: 0,
      },
    );
  });

  it('sarif: a result per problem with its region; github: annotations with line and col; junit: a test case per row', async () => {
    const category = cellAt(KOBO_TEXT, 'Beeche');
    const sarif = await runCli(['validate', 'survey.csv', '--format', 'sarif'], { cwd: project.dir });
    assert.equal(sarif.code, 1, sarif.stderr);
    const log = JSON.parse(sarif.stdout);
    assert.deepEqual(validateSarif(log), []);
    const results = log.runs[0].results as Array<{
      ruleId: string;
      ruleIndex: number;
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }>;
    }>;
    assert.equal(results.length, 10);
    const result = results.find((entry) => entry.ruleId === 'row.category')!;
    assert.deepEqual(result.locations[0].physicalLocation, {
      artifactLocation: { uri: 'survey.csv', uriBaseId: '%SRCROOT%' },
      region: { startLine: category.line, startColumn: category.column, endLine: category.line, endColumn: category.column + 1 },
    });
    // A row's rule is described as what it is, not as a rule of a spot document's interface.
    const rule = log.runs[0].tool.driver.rules[result.ruleIndex];
    assert.equal(rule.id, 'row.category');
    assert.match(rule.shortDescription.text, /row of a table/);

    const github = await runCli(['validate', 'survey.csv', '--format', 'github'], { cwd: project.dir });
    assert.equal(github.code, 1);
    const lines = github.stdout.trim().split('\n');
    assert.equal(lines.length, 10);
    assert.ok(
      lines.includes(
        `::error file=survey.csv,line=${category.line},col=${category.column},endLine=${category.line},endColumn=${category.column + 1},title=row.category::'Beeche' is not a category of Species (fld_7_1); did you mean 'Beech'?`,
      ),
      github.stdout,
    );

    const junit = await runCli(['validate', 'survey.csv', '--format', 'junit'], { cwd: project.dir });
    assert.equal(junit.code, 1);
    assert.match(junit.stdout, /<testsuite name="spot-import validate" tests="12" failures="9" errors="0" skipped="0"/);
    const rowLines = koboRowLines();
    assert.match(junit.stdout, new RegExp(`<testcase classname="spot-import\\.validate" name="survey\\.csv:${rowLines[0]} \\(row 1\\)" file="survey\\.csv"/>`));
    assert.match(
      junit.stdout,
      new RegExp(
        `<testcase classname="spot-import\\.validate" name="survey\\.csv:${rowLines[7]} \\(row 8\\)" file="survey\\.csv">\\s*<failure message="'Beeche' is not a category`,
      ),
    );
  });

  it("the mapping's own problems at its lines and columns (unknown column with a suggestion, unknown field, missing media folder); then the rows are not checked", async () => {
    const mapping = JSON.stringify(
      {
        ...KOBO_MAPPING,
        latitude: '_location_latitud',
        fields: { ...KOBO_MAPPING.fields, fld_7_99: 'group_obs/height' },
        media: { fld_7_3: { columns: ['photo_1', 'photo_2'], folder: 'fotos' } },
      },
      null,
      2,
    );
    project.write('survey.mapping.json', mapping);
    const at = (needle: string) => {
      const position = positionOf(mapping, needle);
      return `survey.mapping.json:${position.line}:${position.column}`;
    };
    const result = await runCli(['validate', 'survey.csv'], { cwd: project.dir });
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      `${at('"_location_latitud"')}: survey.csv has no column "_location_latitud"; did you mean "_location_latitude"?`,
      `${at('"fld_7_99"')}: fld_7_99 is not a field of topic 7 (Trail observations); did you mean fld_7_9?`,
      `${at('"fotos"')}: The media folder fotos (${project.path('fotos')}) is not there.`,
    ]);
    assert.match(
      result.stderr,
      /^The rows of survey\.csv were not checked: survey\.mapping\.json has problems \(above\)\.$/m,
      'no row was checked, and none is said to be valid',
    );

    const json = await runCli(['validate', 'survey.csv', '--format', 'json'], { cwd: project.dir });
    const records = jsonLines(json.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    assert.deepEqual(
      records.map((record) => [record.type, record.file, record.status]),
      [
        ['mapping', 'survey.mapping.json', 'invalid'],
        ['summary', undefined, undefined],
      ],
    );
    assert.deepEqual(
      (records[0].problems as Array<{ rule: string }>).map((problem) => problem.rule),
      ['mapping.unknownColumn', 'mapping.unknownField', 'mapping.missingFolder'],
    );
  });

  it('a missing mapping is a usage error (exit 2) that says how to make one, naming the table', async () => {
    const named = await runCli(['validate', 'kataster.geojson', '--mapping', 'nowhere.mapping.json'], { cwd: project.dir });
    assert.equal(named.code, 2);
    assert.match(
      named.stderr,
      /--mapping names nowhere\.mapping\.json, which is not there: spot-import mapping kataster\.geojson --out nowhere\.mapping\.json proposes one there to complete\./,
    );
    project.write('second.csv', 'id,lat,lon\n1,47.1,15.4\n');
    const beside = await runCli(['validate', 'kataster.geojson', 'second.csv'], { cwd: project.dir });
    assert.equal(beside.code, 2);
    assert.match(
      beside.stderr,
      /second\.csv has no mapping beside it \(second\.mapping\.json\): spot-import mapping second\.csv proposes one to complete, or name one with --mapping\./,
    );
    assert.doesNotMatch(beside.stderr, /<source>/);
  });
});
