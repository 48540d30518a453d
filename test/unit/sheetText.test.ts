// A workbook's sheet as the text Show Rows shows (src/core/rows/read/xlsx/sheetText.ts): CSV lines
// whose line N is the sheet's row N, so the reader's cell positions name a line and a field.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTable } from '../../src/core/rows/read/openTable';
import { isRowReadProblem } from '../../src/core/rows/read/types';
import { TableReadError } from '../../src/core/rows/read/tableReadError';
import { sheetText } from '../../src/core/rows/read/xlsx/sheetText';
import { writeWorkbook } from './helpers/workbook';

const inline = (reference: string, text: string) => `<c r="${reference}" t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`;
const number = (reference: string, value: number) => `<c r="${reference}"><v>${value}</v></c>`;

describe('rows read: a sheet as text (Show Rows)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-sheet-text-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('quotes commas, quotes and line breaks as RFC 4180 does, keeping one line per row; empty cells are empty fields', async () => {
    const path = join(dir, 'form.xlsx');
    await writeWorkbook(path, {
      sheets: [
        {
          name: 'Trees',
          rows: [
            `<row r="1">${inline('A1', 'id')}${inline('B1', 'note')}${inline('C1', 'height')}${inline('D1', 'species')}</row>`,
            `<row r="2">${inline('A2', 't1')}${inline('B2', 'tall, old')}${number('C2', 14.5)}${inline('D2', 'Acer "pseudoplatanus"')}</row>`,
            // B3 and C3 are empty (no cell at all); D3 has a line break of each kind.
            `<row r="3">${inline('A3', 't2')}${inline('D3', 'first\nsecond&#13;&#10;third')}</row>`,
            `<row r="4">${inline('A4', 't3')}</row>`,
          ].join(''),
        },
      ],
    });
    const shown = await sheetText(path);
    assert.equal(shown.sheet, 'Trees');
    assert.deepEqual(shown.text.split('\n'), ['id,note,height,species', 't1,"tall, old",14.5,"Acer ""pseudoplatanus"""', 't2,,,"first↵second↵third"', 't3,,,']);
    assert.equal(shown.rows, 4);
    assert.equal(shown.columns, 4);
    assert.equal(shown.unreadable, undefined);
  });

  it('keeps line N for row N when the sheet skips rows, and the reader places each cell on its row', async () => {
    const path = join(dir, 'gaps.xlsx');
    await writeWorkbook(path, {
      sheets: [
        {
          name: 'Sheet1',
          rows: [
            // A title in row 2, the header in row 4, rows 5 and 9 (a wider one), nothing in rows 1, 3, 6–8.
            `<row r="2">${inline('A2', 'Survey 2026')}</row>`,
            `<row r="4">${inline('A4', 'id')}${inline('B4', 'lat')}</row>`,
            `<row r="5">${inline('A5', 'a')}${number('B5', 47.1)}</row>`,
            // A row whose cells are all empty is a blank line too.
            '<row r="7"><c r="A7"/></row>',
            `<row r="9">${inline('A9', 'b')}${number('B9', 47.2)}${inline('D9', 'beyond')}</row>`,
          ].join(''),
        },
      ],
    });
    const shown = await sheetText(path);
    const lines = shown.text.split('\n');
    assert.deepEqual(lines, ['', 'Survey 2026,,,', '', 'id,lat,,', 'a,47.1,,', '', '', '', 'b,47.2,,beyond']);
    assert.equal(shown.rows, 4);
    assert.equal(shown.columns, 4);

    // The reader's positions for the same sheet: line = row number, column = the field's number.
    const table = await openTable(path, { header: 4 });
    for await (const row of table.rows()) {
      if (isRowReadProblem(row)) continue;
      const fields = lines[row.line - 1].split(',');
      for (const [column, at] of Object.entries(row.cells)) assert.equal(fields[at.column - 1], String(row.values[column]), `${column} of row ${row.row}`);
    }
  });

  it("shows the sheet a mapping names (by name or place), and refuses one the workbook does not have in the reader's words", async () => {
    const path = join(dir, 'two.xlsx');
    await writeWorkbook(path, {
      sheets: [
        { name: 'notes', rows: `<row r="1">${inline('A1', 'a note')}</row>` },
        { name: 'My data', rows: `<row r="1">${inline('A1', 'id')}</row><row r="2">${inline('A2', 'x')}</row>` },
      ],
    });
    assert.equal((await sheetText(path)).text, 'a note');
    assert.deepEqual(await sheetText(path, { sheet: 'My data' }).then(({ sheet, sheets, text }) => ({ sheet, sheets, text })), {
      sheet: 'My data',
      sheets: ['notes', 'My data'],
      text: 'id\nx',
    });
    assert.equal((await sheetText(path, { sheet: 2 })).sheet, 'My data');
    await assert.rejects(
      sheetText(path, { sheet: 'Trees' }),
      (error: unknown) => error instanceof TableReadError && error.reason === 'the workbook has no sheet "Trees": its sheets are "notes", "My data"',
    );
  });

  it('a row number beyond the last row a sheet can have is damage, not a billion empty lines', async () => {
    const path = join(dir, 'far.xlsx');
    await writeWorkbook(path, { sheets: [{ name: 'S', rows: `<row r="1">${inline('A1', 'id')}</row><row r="999999999">${inline('A999999999', 'y')}</row>` }] });
    const shown = await sheetText(path);
    assert.equal(shown.text, 'id');
    assert.match(shown.unreadable ?? '', /row 999999999 is not a row a sheet can have/);
  });

  it('refuses a file that is not a workbook, and stops when cancelled', async () => {
    const path = join(dir, 'not.xlsx');
    writeFileSync(path, 'id,lat\n1,47\n');
    await assert.rejects(sheetText(path), TableReadError);

    const big = join(dir, 'big.xlsx');
    const rows = Array.from({ length: 20 }, (_, index) => `<row r="${index + 1}">${number(`A${index + 1}`, index)}</row>`).join('');
    await writeWorkbook(big, { sheets: [{ name: 'Sheet1', rows }] });
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(sheetText(big, { signal: controller.signal }), (error: Error) => error.name === 'CancelledError');
  });
});
