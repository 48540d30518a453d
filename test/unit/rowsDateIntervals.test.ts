// Darwin Core's eventDate (GBIF downloads, many biodiversity exports) is often an ISO 8601
// interval: "2021-05-01/2021-05-03", "2021-05-01/03" (the end written short), or with times. A
// date field takes one day: the cell was refused as "not a date in the expected format", which
// said nothing of what to do. A field's "interval": "start" or "end" takes that end; without it,
// the problem says it is an interval and how to choose. Expected values are read off the cells.
import * as assert from 'node:assert/strict';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';
import { convertDateTime } from '../../src/core/rows/values';

describe('rows values: ISO 8601 intervals in a date or datetime column', () => {
  it('without "interval" the cell is said to be an interval, with the setting to choose an end', () => {
    const result = convertDateTime('2021-05-01/2021-05-03', { kind: 'date' });
    assert.ok('problem' in result);
    assert.equal(
      result.problem,
      '"2021-05-01/2021-05-03" is a time interval (ISO 8601): set "interval": "start" or "end" in the field\'s mapping to take one end of it.',
    );
  });

  it('"start" and "end" take that end, whole or written short, dates and times', () => {
    const cases: Array<[string, 'date' | 'datetime', 'start' | 'end', string]> = [
      ['2021-05-01/2021-05-03', 'date', 'start', '2021-05-01'],
      ['2021-05-01/2021-05-03', 'date', 'end', '2021-05-03'],
      ['2021-05-01/03', 'date', 'end', '2021-05-03'],
      ['2021-05-30/06-02', 'date', 'end', '2021-06-02'],
      ['2021-05-01T08:00:00Z/2021-05-01T10:30:00Z', 'datetime', 'start', '2021-05-01 08:00:00'],
      ['2021-05-01T08:00:00Z/2021-05-01T10:30:00Z', 'datetime', 'end', '2021-05-01 10:30:00'],
      ['2021-05-01T08:00/10:30', 'datetime', 'end', '2021-05-01 10:30:00'],
      ['2021-05-01/P3D', 'date', 'start', '2021-05-01'],
      // A single day is a day whatever "interval" says.
      ['2021-05-07', 'date', 'end', '2021-05-07'],
    ];
    for (const [cell, kind, interval, expected] of cases) {
      assert.deepEqual(convertDateTime(cell, { kind, interval }), { value: expected }, `${cell} (${interval})`);
    }
  });

  it('an end given as a duration, or an interval with more than two parts, is a problem that says so', () => {
    const duration = convertDateTime('2021-05-01/P3D', { kind: 'date', interval: 'end' });
    assert.ok('problem' in duration && /"interval": "end" names a duration \(P3D\)/.test(duration.problem), JSON.stringify(duration));
    const three = convertDateTime('2021-05-01/2021-05-02/2021-05-03', { kind: 'date', interval: 'start' });
    assert.ok('problem' in three && /is not a date in the expected format/.test(three.problem), JSON.stringify(three));
  });

  it('a mapping\'s "interval" reaches the cells of a GBIF occurrence.txt', async () => {
    const mapping = {
      topic_id: 1,
      source_id: 'gbif-{occurrenceID}',
      latitude: 'decimalLatitude',
      longitude: 'decimalLongitude',
      fields: { fld_1_3: { column: 'eventDate', type: 'date', interval: 'end' } },
    };
    const text = 'occurrenceID\tdecimalLatitude\tdecimalLongitude\teventDate\no1\t47.1\t15.1\t2021-05-01/2021-05-03\no2\t47.2\t15.2\t2021-06-07\n';
    const { rows } = await checkedTable('occurrence.txt', text, mapping);
    assert.deepEqual(
      rows.map((row) => attributesOfRow(row).fld_1_3),
      ['2021-05-03', '2021-06-07'],
    );
  });
});
