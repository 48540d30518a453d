import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTable } from '../../src/core/rows/read/openTable';
import { isRowReadProblem, type RowReadProblem, type SourceRow, type SourceTable } from '../../src/core/rows/read/types';
import { cellReference } from '../../src/core/rows/read/cellReference';
import { sheetText } from '../../src/core/rows/read/xlsx/sheetText';
import { writeWorkbook } from './helpers/workbook';

async function rowsOf(table: SourceTable): Promise<Array<SourceRow | RowReadProblem>> {
  const rows: Array<SourceRow | RowReadProblem> = [];
  for await (const row of table.rows()) rows.push(row);
  return rows;
}

const valuesOf = (rows: Array<SourceRow | RowReadProblem>) => rows.map((row) => (isRowReadProblem(row) ? row.problem : row.values));

// Serials worked out by hand from two anchors Excel's documentation gives: 45658 is 1 January
// 2025 in the 1900 system, and the 1904 system counts 1462 days fewer. 2026-11-29 is 365 + 304 + 28
// days after 2025-01-01: 46355; 10:41:02 is 38462 s of 86400: 0.4451620370.
const NOV_29 = 46355;
const AT_10_41_02 = 0.445162037;

describe('rows read: an Excel workbook (.xlsx) as a table', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-xlsx-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads cells as the workbook stores them: shared, inline and rich strings, numbers, booleans, formulas, errors, dates by their format', async () => {
    const path = join(dir, 'form.xlsx');
    await writeWorkbook(path, {
      // Style 0 General, 1 the built-in date 14 (m/d/yyyy), 2 a custom date and time.
      styles: [0, 14, 164],
      numFmts: { 164: 'yyyy\\-mm\\-dd hh:mm:ss' },
      sharedStrings: [
        '_uuid',
        'species',
        'height',
        'today',
        'start',
        'checked',
        'note',
        'Acer "pseudoplatanus"',
        '<r><t>Tilia </t></r><r><rPr><b/></rPr><t>cordata</t></r><rPh><t>ふりがな</t></rPh>',
      ],
      sheets: [
        {
          name: 'Sheet1',
          rows: [
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c><c r="F1" t="s"><v>5</v></c><c r="G1" t="s"><v>6</v></c></row>',
            `<row r="2"><c r="A2" t="inlineStr"><is><t>uuid-1</t></is></c><c r="B2" t="s"><v>7</v></c><c r="C2"><v>14.5</v></c><c r="D2" s="1"><v>${NOV_29}</v></c><c r="E2" s="2"><v>${NOV_29 + AT_10_41_02}</v></c><c r="F2" t="b"><v>1</v></c><c r="G2" t="e"><v>#N/A</v></c></row>`,
            // B3 is missing (an empty cell), C3 a formula with its cached value, the row has no `r` on its cells.
            `<row r="3"><c t="inlineStr"><is><t>uuid-2</t></is></c><c r="C3"><f>C2/2</f><v>7.25</v></c><c r="F3" t="b"><v>0</v></c><c r="G3" t="str"><f>"x"&amp;"y"</f><v>xy</v></c></row>`,
            // A blank row between (all its cells empty): not a row.
            '<row r="4"><c r="A4" s="1"/></row>',
            `<row r="5"><c r="A5" t="inlineStr"><is><t>uuid-3</t></is></c><c r="B5" t="s"><v>8</v></c></row>`,
          ].join(''),
        },
      ],
    });
    const table = await openTable(path);
    assert.equal(table.format.format, 'xlsx');
    assert.deepEqual(table.columns, ['_uuid', 'species', 'height', 'today', 'start', 'checked', 'note']);
    const rows = await rowsOf(table);
    assert.deepEqual(valuesOf(rows), [
      { _uuid: 'uuid-1', species: 'Acer "pseudoplatanus"', height: '14.5', today: '2026-11-29', start: '2026-11-29T10:41:02', checked: 'TRUE', note: '#N/A' },
      { _uuid: 'uuid-2', species: '', height: '7.25', today: '', start: '', checked: 'FALSE', note: 'xy' },
      { _uuid: 'uuid-3', species: 'Tilia cordata', height: '', today: '', start: '', checked: '', note: '' },
    ]);
    const [first, , third] = rows as SourceRow[];
    assert.deepEqual([first.row, first.line, third.row, third.line], [1, 2, 3, 5], 'data rows count from 1; their line is the sheet row');
    assert.deepEqual(first.cells.start, { line: 2, column: 5 });
    assert.equal(cellReference('Sheet1', first.cells.start), 'Sheet1!E2');
    assert.equal(cellReference('My data', { line: 12, column: 27 }), "'My data'!AA12");
  });

  it('reads dates in the 1904 date system as the same days', async () => {
    const path = join(dir, 'mac.xlsx');
    await writeWorkbook(path, {
      date1904: true,
      styles: [0, 14],
      sheets: [
        {
          name: 'Data',
          rows: `<row r="1"><c r="A1" t="inlineStr"><is><t>day</t></is></c></row><row r="2"><c r="A2" s="1"><v>${NOV_29 - 1462}</v></c></row><row r="3"><c r="A3" s="1"><v>0</v></c></row>`,
        },
      ],
    });
    const table = await openTable(path);
    assert.ok(
      table.detected.some((note) => /1904/.test(note)),
      table.detected.join('; '),
    );
    assert.deepEqual(valuesOf(await rowsOf(table)), [{ day: '2026-11-29' }, { day: '1904-01-01' }]);
  });

  it('takes the sheet the mapping names (by name or place) and its header row; says which sheets there are', async () => {
    const path = join(dir, 'kobo.xlsx');
    await writeWorkbook(path, {
      sheets: [
        {
          name: 'Trees',
          rows: '<row r="1"><c r="A1" t="inlineStr"><is><t>Tree survey</t></is></c></row><row r="3"><c r="A3" t="inlineStr"><is><t>id</t></is></c><c r="B3" t="inlineStr"><is><t>lat</t></is></c></row><row r="4"><c r="A4" t="inlineStr"><is><t>t-1</t></is></c><c r="B4"><v>48.2</v></c></row>',
        },
        { name: 'photos_repeat', rows: '<row r="1"><c r="A1" t="inlineStr"><is><t>_parent_index</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row>' },
      ],
    });
    const first = await openTable(path, { header: 3 });
    assert.ok(
      first.detected.some((note) => note.includes('"Trees"') && note.includes('photos_repeat')),
      first.detected.join('; '),
    );
    assert.deepEqual(valuesOf(await rowsOf(first)), [{ id: 't-1', lat: '48.2' }]);
    assert.deepEqual(valuesOf(await rowsOf(await openTable(path, { sheet: 'photos_repeat' }))), [{ _parent_index: '1' }]);
    assert.deepEqual(valuesOf(await rowsOf(await openTable(path, { sheet: 2 }))), [{ _parent_index: '1' }]);
    await assert.rejects(openTable(path, { sheet: 'Bäume' }), /no sheet "Bäume": its sheets are "Trees", "photos_repeat"/);
    await assert.rejects(openTable(path, { sheet: 3 }), /2 sheets, so there is no sheet 3/);
  });

  it("leaves hidden sheets (a form tool's settings, Excel's lookup lists) and empty ones alone unless the mapping names them", async () => {
    const path = join(dir, 'survey.xlsx');
    const text = (reference: string, value: string) => `<c r="${reference}" t="inlineStr"><is><t>${value}</t></is></c>`;
    await writeWorkbook(path, {
      sheets: [
        // A macro's or a form tool's list of choices: veryHidden, not even offered under Unhide.
        {
          name: '_choices',
          state: 'veryHidden',
          rows: `<row r="1">${text('A1', 'list_name')}${text('B1', 'name')}</row><row r="2">${text('A2', 'species')}${text('B2', 'oak')}</row>`,
        },
        {
          name: 'settings',
          state: 'hidden',
          rows: `<row r="1">${text('A1', 'form_title')}${text('B1', 'version')}</row><row r="2">${text('A2', 'Bäume')}<c r="B2"><v>2024031501</v></c></row>`,
        },
        // What Excel leaves of a sheet nobody wrote in: a formatted cell without a value.
        { name: 'Tabelle1', rows: '<row r="1" spans="1:1"><c r="A1" s="0"/></row>' },
        { name: 'Bäume', rows: `<row r="1">${text('A1', 'id')}${text('B1', 'Art')}</row><row r="2">${text('A2', 'b-7')}${text('B2', 'Linde')}</row>` },
        { name: 'Notizen', rows: `<row r="1">${text('A1', 'Notiz')}</row><row r="2">${text('A2', 'nass')}</row>` },
      ],
    });
    const table = await openTable(path);
    assert.equal(table.format.sheet, 'Bäume');
    assert.deepEqual(valuesOf(await rowsOf(table)), [{ id: 'b-7', Art: 'Linde' }]);
    assert.ok(
      table.detected.includes('sheet "Bäume" (the first visible sheet with values of 5: _choices (hidden), settings (hidden), Tabelle1, Bäume, Notizen)'),
      table.detected.join('; '),
    );
    // Named, by name or by place (hidden sheets keep theirs), a hidden sheet is read.
    assert.deepEqual(valuesOf(await rowsOf(await openTable(path, { sheet: 'settings' }))), [{ form_title: 'Bäume', version: '2024031501' }]);
    assert.deepEqual(valuesOf(await rowsOf(await openTable(path, { sheet: 1 }))), [{ list_name: 'species', name: 'oak' }]);
    // Show Rows shows what the reader reads.
    assert.equal((await sheetText(path)).sheet, 'Bäume');
  });

  it('finds the header below a title and blank rows (the first row with two text cells), says which row it took, and takes source.header as given', async () => {
    const path = join(dir, 'report.xlsx');
    const text = (reference: string, value: string) => `<c r="${reference}" t="inlineStr"><is><t>${value}</t></is></c>`;
    await writeWorkbook(path, {
      // Style 1 is the built-in date format 14; 45366 is 15 March 2024 (45658 is 1 January 2025, 292 days later).
      styles: [0, 14],
      sheets: [
        {
          name: 'Erhebung',
          rows: [
            `<row r="1">${text('A1', 'Tree survey 2024')}</row>`,
            // A label and a date: one text cell, not a header.
            `<row r="2">${text('A2', 'Exported:')}<c r="B2" s="1"><v>45366</v></c></row>`,
            // A formatted row without values, as Excel leaves one.
            '<row r="3"><c r="A3" s="1"/><c r="B3" s="1"/></row>',
            `<row r="4">${text('A4', 'id')}${text('B4', 'species')}${text('C4', 'lat')}${text('D4', 'lon')}</row>`,
            `<row r="5"><c r="A5"><v>1</v></c>${text('B5', 'Quercus robur')}<c r="C5"><v>48.2081</v></c><c r="D5"><v>16.3738</v></c></row>`,
            `<row r="6"><c r="A6"><v>2</v></c>${text('B6', 'Tilia cordata')}<c r="C6"><v>48.2076</v></c><c r="D6"><v>16.3723</v></c></row>`,
          ].join(''),
          after: '<mergeCells count="1"><mergeCell ref="A1:D1"/></mergeCells>',
        },
      ],
    });
    const table = await openTable(path);
    assert.equal(table.format.header, 4);
    assert.deepEqual(table.columns, ['id', 'species', 'lat', 'lon']);
    assert.ok(
      table.detected.includes('header row 4 (detected: the first of the first 20 rows with two or more text cells and a row below it)'),
      table.detected.join('; '),
    );
    const rows = await rowsOf(table);
    assert.deepEqual(valuesOf(rows), [
      { id: '1', species: 'Quercus robur', lat: '48.2081', lon: '16.3738' },
      { id: '2', species: 'Tilia cordata', lat: '48.2076', lon: '16.3723' },
    ]);
    assert.deepEqual([(rows[0] as SourceRow).row, (rows[0] as SourceRow).line], [1, 5]);
    // Given, the header row is taken as it is, title and all (its merge over A1:D1 names four columns).
    assert.deepEqual((await openTable(path, { header: 1 })).columns, [
      'Tree survey 2024',
      'Tree survey 2024 (2)',
      'Tree survey 2024 (3)',
      'Tree survey 2024 (4)',
    ]);
    assert.equal(
      (await openTable(path, { header: 1 })).detected.some((note) => note.startsWith('header row')),
      false,
    );

    // One column under a blank row: no row has two text cells, so the first row with a value is the header.
    const single = join(dir, 'single.xlsx');
    await writeWorkbook(single, { sheets: [{ name: 'S', rows: `<row r="2">${text('A2', 'Notiz')}</row><row r="3">${text('A3', 'nass')}</row>` }] });
    const one = await openTable(single);
    assert.deepEqual([one.format.header, one.columns], [2, ['Notiz']]);
    assert.ok(one.detected.includes('header row 2 (detected: the first row with a value)'), one.detected.join('; '));
    assert.deepEqual(valuesOf(await rowsOf(one)), [{ Notiz: 'nass' }]);
    const empty = join(dir, 'empty.xlsx');
    await writeWorkbook(empty, { sheets: [{ name: 'Leer', rows: '<row r="1"><c r="A1" s="0"/></row>' }] });
    await assert.rejects(openTable(empty), /sheet "Leer" holds no values: name the sheet the table is on \(source\.sheet\)/);
  });

  it('a value in a column the header does not name is a problem at its cell, and the next rows are read', async () => {
    const path = join(dir, 'extra.xlsx');
    await writeWorkbook(path, {
      sheets: [
        {
          name: 'S',
          rows: '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row><row r="2"><c r="A2"><v>1</v></c><c r="C2"><v>9</v></c></row><row r="3"><c r="A3"><v>2</v></c></row>',
        },
      ],
    });
    const rows = await rowsOf(await openTable(path));
    assert.equal(rows.length, 2);
    assert.ok(isRowReadProblem(rows[0]));
    assert.deepEqual({ line: rows[0].line, column: rows[0].column }, { line: 2, column: 3 });
    assert.match(rows[0].problem, /S!C2 has a value, but its column has no name/);
    assert.deepEqual((rows[1] as SourceRow).values, { a: '2' });
  });

  it('refuses an entry whose name climbs out of the archive, and an encrypted entry, saying which', async () => {
    // Written with harmless names, then the bytes of one name changed in place (a ZIP writer refuses to write such names).
    const patched = async (name: string, patch: (bytes: Buffer) => void) => {
      const path = join(dir, name);
      await writeWorkbook(path, {
        sheets: [{ name: 'S', rows: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' }],
        sharedStrings: ['a'],
        extra: { 'zz/evil.xml': Buffer.from('<x/>') },
      });
      const bytes = readFileSync(path);
      patch(bytes);
      writeFileSync(path, bytes);
      return path;
    };
    const climbing = await patched('climbing.xlsx', (bytes) => {
      for (let at = bytes.indexOf('zz/evil.xml'); at >= 0; at = bytes.indexOf('zz/evil.xml', at + 1)) bytes.write('../evil.xml', at, 'latin1');
    });
    await assert.rejects(openTable(climbing), /climbing\.xlsx: its list of entries cannot be read \(.*\.\.\/evil\.xml/);
    // The encryption flag (bit 0 of the general purpose flags) on the shared strings, in its local header and its directory entry.
    const encrypted = await patched('encrypted.xlsx', (bytes) => {
      const name = Buffer.from('xl/sharedStrings.xml');
      for (let at = bytes.indexOf(name); at >= 0; at = bytes.indexOf(name, at + 1)) {
        if (bytes.readUInt32LE(at - 30) === 0x04034b50) bytes.writeUInt16LE(bytes.readUInt16LE(at - 24) | 1, at - 24);
        if (bytes.readUInt32LE(at - 46) === 0x02014b50) bytes.writeUInt16LE(bytes.readUInt16LE(at - 38) | 1, at - 38);
      }
    });
    await assert.rejects(openTable(encrypted), /encrypted\.xlsx: xl\/sharedStrings\.xml in the archive is encrypted, which is not supported/);
  });

  it('names every column under a merged header cell after it ("Koordinaten", "Koordinaten (2)"), as a repeated header is named, and says so', async () => {
    const path = join(dir, 'report.xlsx');
    const text = (reference: string, value: string) => `<c r="${reference}" t="inlineStr"><is><t>${value}</t></is></c>`;
    // As Excel writes merges: the value in the range's first cell, the others empty cells with its
    // style, the ranges after the rows. "Koordinaten" spans C2:D2 in the middle, "Messung" F2:H2 at
    // the end (H has no value in any row), the title A1:H1 lies above the header.
    const sheet = (after: string) => ({
      name: 'Bericht',
      rows: [
        `<row r="1">${text('A1', 'Baumkataster 2026')}<c r="B1" s="1"/><c r="H1" s="1"/></row>`,
        `<row r="2">${text('A2', 'id')}${text('B2', 'Art')}${text('C2', 'Koordinaten')}<c r="D2" s="1"/>${text('E2', 'Zustand')}${text('F2', 'Messung')}<c r="G2" s="1"/><c r="H2" s="1"/></row>`,
        `<row r="3"><c r="A3"><v>1</v></c>${text('B3', 'Linde')}<c r="C3"><v>48.2081</v></c><c r="D3"><v>16.3738</v></c>${text('E3', 'gut')}<c r="F3"><v>14.5</v></c><c r="G3"><v>2.1</v></c></row>`,
        `<row r="4"><c r="A4"><v>2</v></c>${text('B4', 'Eiche')}<c r="C4"><v>48.2076</v></c><c r="D4"><v>16.3723</v></c><c r="F4"><v>9</v></c></row>`,
      ].join(''),
      after,
    });
    await writeWorkbook(path, {
      styles: [0, 0],
      sheets: [sheet('<mergeCells count="3"><mergeCell ref="A1:H1"/><mergeCell ref="C2:D2"/><mergeCell ref="F2:H2"/></mergeCells>')],
    });
    const columns = ['id', 'Art', 'Koordinaten', 'Koordinaten (2)', 'Zustand', 'Messung', 'Messung (2)', 'Messung (3)'];
    const table = await openTable(path);
    assert.equal(table.format.header, 2);
    assert.deepEqual(table.columns, columns);
    for (const note of [
      'column 4 is under the merged header cell "Koordinaten" (C2:D2): called "Koordinaten (2)"',
      'column 7 is under the merged header cell "Messung" (F2:H2): called "Messung (2)"',
      'column 8 is under the merged header cell "Messung" (F2:H2): called "Messung (3)"',
    ])
      assert.ok(table.detected.includes(note), `${note} in ${table.detected.join('; ')}`);
    assert.deepEqual(valuesOf(await rowsOf(table)), [
      { id: '1', Art: 'Linde', Koordinaten: '48.2081', 'Koordinaten (2)': '16.3738', Zustand: 'gut', Messung: '14.5', 'Messung (2)': '2.1', 'Messung (3)': '' },
      { id: '2', Art: 'Eiche', Koordinaten: '48.2076', 'Koordinaten (2)': '16.3723', Zustand: '', Messung: '9', 'Messung (2)': '', 'Messung (3)': '' },
    ]);
    assert.deepEqual((await openTable(path, { header: 2 })).columns, columns, 'the header given');
    // The title's merge lies on the header when it is given as row 1: its columns are named after it.
    assert.deepEqual((await openTable(path, { header: 1 })).columns.slice(0, 3), ['Baumkataster 2026', 'Baumkataster 2026 (2)', 'Baumkataster 2026 (3)']);

    // Written by other tools: a namespace prefix, the ranges in another order, single quotes.
    const prefixed = join(dir, 'prefixed.xlsx');
    await writeWorkbook(prefixed, {
      styles: [0, 0],
      sheets: [
        sheet(
          `<x:mergeCells xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2"><x:mergeCell ref='F2:H2'/><x:mergeCell ref="C2:D2" /></x:mergeCells>`,
        ),
      ],
    });
    assert.deepEqual((await openTable(prefixed)).columns, columns);

    // A cell merged across the whole sheet is a title, not a group of 16,384 columns.
    const across = join(dir, 'across.xlsx');
    await writeWorkbook(across, { sheets: [sheet('<mergeCells count="2"><mergeCell ref="A1:XFD1"/><mergeCell ref="C2:D2"/></mergeCells>')] });
    assert.deepEqual((await openTable(across, { header: 1 })).columns, ['Baumkataster 2026']);
  });

  it('a sheet cut short (a damaged download) gives its complete rows, then says where reading stopped', async () => {
    const path = join(dir, 'cut.xlsx');
    await writeWorkbook(path, {
      sheets: [
        { name: 'S', rows: '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row><row r="3"><c r="A3"><v>2' },
      ],
    });
    const rows = await rowsOf(await openTable(path));
    assert.deepEqual((rows[0] as SourceRow).values, { a: '1' });
    assert.equal(rows.length, 2);
    assert.ok(isRowReadProblem(rows[1]));
    assert.match(rows[1].problem, /the sheet cannot be read after row 2 \(/);
  });

  it("finds the shared strings and styles where the workbook's relationships say, not only under Excel's names", async () => {
    for (const parts of [
      { sharedStrings: 'SharedStrings.xml', styles: 'Styles.xml' },
      { sharedStrings: '/xl/strings/shared.xml', styles: 'format/styles.xml' },
    ]) {
      const path = join(dir, 'other-names.xlsx');
      await writeWorkbook(path, {
        parts,
        sharedStrings: ['name', 'seen', 'oak'],
        styles: [0, 14],
        sheets: [
          {
            name: 'S',
            rows: `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" s="1"><v>${NOV_29}</v></c></row>`,
          },
        ],
      });
      assert.deepEqual(valuesOf(await rowsOf(await openTable(path))), [{ name: 'oak', seen: '2026-11-29' }], JSON.stringify(parts));
    }
  });

  it('a column named "__proto__" holds its values as any other column does', async () => {
    const path = join(dir, 'proto.xlsx');
    const text = (reference: string, value: string) => `<c r="${reference}" t="inlineStr"><is><t>${value}</t></is></c>`;
    await writeWorkbook(path, {
      sheets: [{ name: 'S', rows: `<row r="1">${text('A1', '__proto__')}${text('B1', 'id')}</row><row r="2">${text('A2', 'x')}${text('B2', '1')}</row>` }],
    });
    const [row] = (await rowsOf(await openTable(path))) as SourceRow[];
    assert.equal(Object.getPrototypeOf(row.values), Object.prototype);
    assert.ok(Object.hasOwn(row.values, '__proto__') && Object.hasOwn(row.cells, '__proto__'));
    assert.equal(row.values.__proto__, 'x');
    assert.deepEqual(row.cells.__proto__, { line: 2, column: 1 });
  });

  it('a shared-string cell without a value is empty (as some exporters write blank text cells), not the first shared string', async () => {
    const path = join(dir, 'blank.xlsx');
    await writeWorkbook(path, {
      sharedStrings: ['name', 'note', 'lat', 'oak'],
      sheets: [
        {
          name: 'S',
          rows: '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row><row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2" t="s"/><c r="C2"><v>47.1</v></c></row>',
        },
      ],
    });
    assert.deepEqual(valuesOf(await rowsOf(await openTable(path))), [{ name: 'oak', note: '', lat: '47.1' }]);
  });

  it('a damaged sheet (a shared string it does not have, a row or column beyond what a sheet can hold) gives the rows before it, then says what is wrong', async () => {
    const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row>';
    const cases: Array<[string, string, RegExp]> = [
      ['index.xlsx', '<row r="3"><c r="A3" t="s"><v>7</v></c></row>', /cell A3 refers to shared string 7, which the workbook does not have/],
      ['not-index.xlsx', '<row r="3"><c r="A3" t="s"><v>x</v></c></row>', /cell A3 refers to shared string x, which the workbook does not have/],
      ['far-row.xlsx', '<row r="999999999"><c r="A999999999"><v>2</v></c></row>', /row 999999999 is not a row a sheet can have \(1 to 1048576\)/],
      ['no-row.xlsx', '<row r="x"><c><v>2</v></c></row>', /row x is not a row a sheet can have/],
      ['wide.xlsx', `<row r="3">${'<c><v>2</v></c>'.repeat(16_385)}</row>`, /row 3 has a cell beyond the last column a sheet can have \(XFD\)/],
    ];
    for (const [name, damaged, said] of cases) {
      const path = join(dir, name);
      await writeWorkbook(path, { sharedStrings: ['only'], sheets: [{ name: 'S', rows: header + damaged }] });
      const rows = await rowsOf(await openTable(path));
      assert.deepEqual((rows[0] as SourceRow).values, { a: '1' }, name);
      assert.equal(rows.length, 2, name);
      assert.ok(isRowReadProblem(rows[1]), name);
      assert.match(rows[1].problem, said, name);
    }
  });

  it('refuses what is not a workbook, and an entry that would inflate far beyond its stored size, saying why', async () => {
    const text = join(dir, 'renamed.xlsx');
    writeFileSync(text, 'id,lat\n1,48\n');
    await assert.rejects(openTable(text), (error: Error) => /renamed\.xlsx: it is not a ZIP archive/.test(error.message));
    // A shared-strings part of 20 MB of one repeated byte: stored in about 20 KB.
    const inflated = join(dir, 'inflated.xlsx');
    await writeWorkbook(inflated, {
      sheets: [{ name: 'S', rows: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' }],
      extra: { 'xl/sharedStrings.xml': Buffer.alloc(20 * 1024 * 1024, 0x20) },
    });
    await assert.rejects(openTable(inflated), /inflate \d+ times its stored size: it is refused as a zip bomb/);
  });
});

// A workbook's reader (a ZIP reader and an XML parser) is loaded when a workbook is opened, and
// only then, as the shapefile reader is when a shapefile is: opening a CSV loads none of them. In a process of its own (the test's may have them already).
describe('rows read: what opening a table loads', () => {
  it('a CSV loads no ZIP reader, XML parser or shapefile reader; a workbook loads the first two only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spot-xlsx-load-'));
    try {
      writeFileSync(join(dir, 'trees.csv'), 'id,lat\n1,48\n');
      await writeWorkbook(join(dir, 'trees.xlsx'), { sheets: [{ name: 'S', rows: '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>' }] });
      const reader = join(__dirname, '..', '..', 'src', 'core', 'rows', 'read', 'openTable.js');
      const script = `
        const { openTable } = require(${JSON.stringify(reader)});
        const loaded = () => Object.keys(require.cache).filter((file) => /node_modules[\\\\/](yauzl|saxes|shapefile)[\\\\/]/.test(file)).map((file) => file.match(/(yauzl|saxes|shapefile)/)[1]);
        (async () => {
          await openTable(${JSON.stringify(join(dir, 'trees.csv'))});
          const afterCsv = [...new Set(loaded())];
          await openTable(${JSON.stringify(join(dir, 'trees.xlsx'))});
          console.log(JSON.stringify({ afterCsv, afterWorkbook: [...new Set(loaded())].sort() }));
        })();`;
      const { execFileSync } = await import('node:child_process');
      const result = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { afterCsv: string[]; afterWorkbook: string[] };
      assert.deepEqual(result, { afterCsv: [], afterWorkbook: ['saxes', 'yauzl'] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
