// A time zone per row, as iNaturalist's export gives one: `time_observed_at` is an instant in UTC,
// and `time_zone` names the zone each observation was made in, in Ruby on Rails' names ("Buenos
// Aires", "Pacific Time (US & Canada)"). A date field's timezone { "column": "time_zone" } writes
// each row's time as its own wall clock; an unknown zone, or none, is a problem at that row's zone
// cell. Expected wall clocks worked out by hand from the zones' offsets on that day.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { jsonLines, runCli, scratch } from './helpers/cliProcess';
import { validateJsonLine } from './helpers/cliSchemas';

const TOPIC = { topic_id: 30, name: 'Beobachtungen', fields: { fld_30_1: { label: 'Beobachtet', type: 'datetime' } } };

// 2026-03-14 18:05 UTC: Argentina is UTC−3 all year; the US Pacific zone is on daylight time (UTC−7)
// since 8 March 2026; Berlin is still on UTC+1 (summer time starts 29 March); Tokyo is UTC+9.
const ROWS = [
  ['101', '2026-03-14 18:05:00 UTC', 'Buenos Aires', '2026-03-14 15:05:00'],
  ['102', '2026-03-14 18:05:00 UTC', 'Pacific Time (US & Canada)', '2026-03-14 11:05:00'],
  ['103', '2026-03-14 18:05:00 UTC', 'Berlin', '2026-03-14 19:05:00'],
  ['104', '2026-03-14 18:05:00 UTC', 'Asia/Tokyo', '2026-03-15 03:05:00'],
  ['105', '2026-03-14 18:05:00 UTC', 'Atlantis', undefined],
  ['106', '2026-03-14 18:05:00 UTC', '', undefined],
] as const;

describe('spot-import rows: a time zone per row (iNaturalist)', function () {
  this.timeout(60_000);

  it("writes each row's time in its own zone, Rails names and IANA names alike; an unknown or missing zone is a problem at the zone's cell", async () => {
    const project = scratch({ 'spot-topics/30.topic.json': JSON.stringify(TOPIC) });
    try {
      const csv = ['id,time_observed_at,time_zone,latitude,longitude', ...ROWS.map(([id, at, zone]) => `${id},${at},"${zone}",-34.6,-58.4`)].join('\n') + '\n';
      project.write('observations.csv', csv);
      project.write(
        'observations.mapping.json',
        JSON.stringify({
          topic_id: 30,
          source_id: 'inat-{id}',
          latitude: 'latitude',
          longitude: 'longitude',
          fields: { fld_30_1: { column: 'time_observed_at', timezone: { column: 'time_zone' } } },
        }),
      );
      const checked = await runCli(['validate', 'observations.csv', '--format', 'json'], { cwd: project.dir });
      assert.equal(checked.code, 1, checked.stdout + checked.stderr);
      const lines = jsonLines(checked.stdout);
      for (const line of lines) validateJsonLine(line);
      const invalid = lines.filter((line) => line.status === 'invalid');
      assert.deepEqual(
        invalid.map((line) => {
          const [problem] = line.problems as Array<Record<string, unknown>>;
          return [line.row, problem.line, problem.column, String(problem.message)];
        }),
        [
          [5, 6, 29, 'Beobachtet (fld_30_1): time_zone "Atlantis" is not a known time zone (an IANA name such as Europe/Vienna or UTC).'],
          [6, 7, 29, 'Beobachtet (fld_30_1): the time zone column "time_zone" is empty in this row.'],
        ].map(([row, line, column, message]) => [row, line, column, message]),
        JSON.stringify(invalid),
      );

      const converted = await runCli(['convert', 'observations.csv', '--out', 'spots'], { cwd: project.dir });
      assert.equal(converted.code, 1, converted.stderr);
      for (const [id, , zone, expected] of ROWS) {
        if (expected === undefined) continue;
        const document = JSON.parse(readFileSync(project.path(`spots/inat-${id}.spot.json`), 'utf8')) as { data: { attributes: Record<string, unknown> } };
        assert.equal(document.data.attributes.fld_30_1, expected, `${id} in ${zone}`);
      }
    } finally {
      project.cleanup();
    }
  });

  it('mapping proposes the zone column for a date-time field', async () => {
    const project = scratch({ 'spot-topics/30.topic.json': JSON.stringify(TOPIC) });
    try {
      project.write('beobachtungen.csv', 'id,Beobachtet,time_zone,latitude,longitude\n1,2026-03-14 18:05:00 UTC,Berlin,52.5,13.4\n');
      const proposed = await runCli(['mapping', 'beobachtungen.csv'], { cwd: project.dir });
      assert.equal(proposed.code, 0, proposed.stderr);
      assert.match(proposed.stderr, /fld_30_1 \(Beobachtet\) from the column Beobachtet, each row in the time zone its column time_zone names/);
      const mapping = JSON.parse(readFileSync(project.path('beobachtungen.mapping.json'), 'utf8')) as { fields: Record<string, unknown> };
      assert.deepEqual(mapping.fields.fld_30_1, { column: 'Beobachtet', timezone: { column: 'time_zone' } });
    } finally {
      project.cleanup();
    }
  });
});
