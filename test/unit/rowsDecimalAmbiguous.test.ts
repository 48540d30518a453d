// A file whose first rows show only numbers like "1,234" or "16.047" (one to three digits, the
// mark, then three) does not say its decimal separator: the mark may group thousands as well as
// start decimals. Detection took such cells as votes, so a US export's populations "1,234" and
// "12,500" became 1.234 and 12.5, and a Viennese register's "16.047" inhabitants 16.047, without a
// word. Such cells decide nothing now: the separator is the delimiter's usual one (',' after ';',
// as spreadsheets write it, else '.'), and a cell of the other kind is refused as ambiguous at its
// place, saying what to write or set (parseNumber's rule).
import * as assert from 'node:assert/strict';
import type { CheckedRow } from '../../src/core/rows';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';
import { positionOf } from './helpers/tableFiles';

async function checked(name: string, text: string, mapping: object): Promise<{ rows: CheckedRow[]; detected: string[] }> {
  const { rows, table } = await checkedTable(name, text, mapping);
  return { rows, detected: table.detected };
}

const attributes = attributesOfRow;

const US = 'id,Population,lat,lon\n1,"1,234",47,15\n2,"12,500",48,16\n';
const VIENNA = 'OBJECTID;Bezirk;Einwohner;lat;lon\n1;Innere Stadt;16.047;48;16\n2;Leopoldstadt;105.848;48;16\n';
const mappingOf = (column: string, source: object = {}) => ({
  source,
  topic_id: 1,
  source_id: 'r-{' + (column === 'Population' ? 'id' : 'OBJECTID') + '}',
  latitude: 'lat',
  longitude: 'lon',
  fields: { fld_1_2: { column, type: 'number' } },
});

describe('rows: a decimal separator the first rows do not decide', () => {
  it('"1,234" and "12,500" alone do not make a decimal comma: each is ambiguous at its cell, and detection says it could not tell', async () => {
    const { rows, detected } = await checked('us.csv', US, mappingOf('Population'));
    assert.ok(
      detected.includes(
        `decimal separator '.' (assumed from the delimiter: the first rows' numbers, e.g. "1,234" in column "Population", may group thousands or hold decimals)`,
      ),
      detected.join('\n'),
    );
    assert.deepEqual(
      rows.map((row) => row.ok),
      [false, false],
    );
    const [first] = rows[0].findings;
    assert.deepEqual([first.line, first.column], [positionOf(US, '"1,234"').line, positionOf(US, '"1,234"').column]);
    assert.match(
      first.message,
      /1,234 is ambiguous with '\.' as decimal separator: ',' may group thousands \(1234\) or be a decimal comma; write 1234 without the ','/,
    );
  });

  it('"16.047" inhabitants of a semicolon file are not 16.047 either: read with a decimal comma, they are ambiguous', async () => {
    const { rows, detected } = await checked('bezirke.csv', VIENNA, mappingOf('Einwohner'));
    assert.ok(
      detected.some((note) => note.startsWith("decimal separator ',' (assumed from the delimiter")),
      detected.join('\n'),
    );
    assert.deepEqual(
      rows.map((row) => row.findings.map((finding) => /is ambiguous/.test(finding.message))),
      [[true], [true]],
    );
  });

  it('the separator given reads them as before ("1,234" with "," is 1.234); a plainer number in the first rows decides as before', async () => {
    const given = await checked('us.csv', US, mappingOf('Population', { decimalSeparator: '.' }));
    // With '.', "1,234" is still ambiguous (as it always was); with ',' it is 1.234 as the user said.
    assert.ok(given.rows.every((row) => !row.ok));
    const comma = await checked('us.csv', US, mappingOf('Population', { decimalSeparator: ',' }));
    assert.deepEqual(
      comma.rows.map((row) => attributes(row).fld_1_2),
      [1.234, 12.5],
    );
    const plain = await checked('plain.csv', 'id,Population,lat,lon\n1,"1,234",47.25,15.5\n', mappingOf('Population'));
    assert.ok(plain.detected.includes(`decimal separator '.' (detected: "47.25" in column "lat")`), plain.detected.join('\n'));
  });
});
