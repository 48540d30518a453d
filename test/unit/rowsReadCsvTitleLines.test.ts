// Title lines above a CSV's header, as spreadsheets and city portals export them ("Baumkataster
// Graz, Stand 2026-05-01", a blank line, then the header; Excel's "Artenliste;;;" with the
// delimiter repeated to the header's width): the header is found below them, as a workbook's is,
// and said; a table whose first line is its header keeps it, rows short of cells (ODK Central
// leaves trailing empty cells out) included.
import * as assert from 'node:assert/strict';
import { readAll, useTableFolder } from './helpers/tableFiles';

describe('rows read: title lines above a CSV header', () => {
  const folder = useTableFolder('spot-csv-title-');

  it('finds the header below a title and a blank line, and says so', async () => {
    const text = 'Baumkataster Graz, Stand 2026-05-01\r\n\r\nid;Baumart;lat;lon\r\n1;Linde;47,07;15,43\r\n2;Eiche;47,08;15,44\r\n';
    const { table, rows, problems } = await readAll(folder.write('titel.csv', text));
    assert.deepEqual(problems, []);
    assert.equal(table.format.header, 3);
    assert.equal(table.format.delimiter, ';');
    assert.equal(table.format.decimalSeparator, ',');
    assert.deepEqual(table.columns, ['id', 'Baumart', 'lat', 'lon']);
    assert.ok(table.detected.includes('header on line 3 (detected: the lines above it are a title, not columns)'), table.detected.join('; '));
    assert.deepEqual(
      rows.map((row) => [row.line, row.values.Baumart]),
      [
        [4, 'Linde'],
        [5, 'Eiche'],
      ],
    );
  });

  it("finds it below Excel's title lines padded with delimiters", async () => {
    const text = 'Artenliste Export;;;\r\nStand 01.05.2024;;;\r\nArt;Anzahl;Breite;Länge\r\nBufo bufo;3;47,2692;11,3933\r\nRana;1;47,3;11,4\r\n';
    const { table, rows } = await readAll(folder.write('liste.csv', text));
    assert.equal(table.format.header, 3);
    assert.deepEqual(table.columns, ['Art', 'Anzahl', 'Breite', 'Länge']);
    assert.deepEqual(
      rows.map((row) => row.values.Art),
      ['Bufo bufo', 'Rana'],
    );
  });

  it('keeps the first line as the header when it is one: plain tables, rows short of cells, one column, numbers below a header', async () => {
    const odk =
      'SubmissionDate,KEY,species,point-Latitude,point-Longitude,note,photo\n2026-05-01,uuid:1,Linde,47.07,15.43\n2026-05-02,uuid:2,Eiche,47.08,15.44\n2026-05-03,uuid:3,Ahorn,47.09,15.45,,\n';
    const short = await readAll(folder.write('odk.csv', odk));
    assert.equal(short.table.format.header, 1);
    assert.equal(short.table.columns[0], 'SubmissionDate');
    assert.equal(short.rows.length, 3);
    const single = await readAll(folder.write('one.csv', 'name\nLinde\nEiche\n'));
    assert.equal(single.table.format.header, 1);
    const plain = await readAll(folder.write('plain.csv', 'id,lat,lon\n1,47.1,15.4\n2,47.2,15.5\n'));
    assert.equal(plain.table.format.header, 1);
    assert.ok(!plain.table.detected.some((note) => note.startsWith('header')), plain.table.detected.join('; '));
  });

  it('finds it below a title with a comma in it, metadata lines of two cells, and five lines of title', async () => {
    const comma = await readAll(
      folder.write('graz.csv', 'Baumkataster Graz, Stand 2026-05-01\n\nid,Name,lat,lon\n1,Linde,47.0707,15.4395\n2,Eiche,47.0710,15.4401\n'),
    );
    assert.equal(comma.table.format.header, 3);
    assert.deepEqual(comma.table.columns, ['id', 'Name', 'lat', 'lon']);
    const metadata = await readAll(
      folder.write('kv.csv', 'Export;Stadt Graz\nDatum;01.05.2026\n\nid;Name;lat;lon\n1;Linde;47,0707;15,4395\n2;Eiche;47,0710;15,4401\n'),
    );
    assert.equal(metadata.table.format.header, 4);
    assert.equal(metadata.table.format.delimiter, ';');
    // More metadata lines than rows: most lines below the first fit it, but none of the table's rows do.
    const long = await readAll(
      folder.write(
        'kv-long.csv',
        'Export;Stadt Graz\r\nDatum;01.05.2026\r\nQuelle;Abteilung Grünraum\r\nLizenz;CC BY 4.0\r\nKontakt;baum@graz.at\r\n\r\nid;Name;lat;lon\r\n1;Linde;47,0707;15,4395\r\n2;Eiche;47,0710;15,4401\r\n',
      ),
    );
    assert.equal(long.table.format.header, 7, long.table.detected.join('; '));
    assert.deepEqual(long.table.columns, ['id', 'Name', 'lat', 'lon']);
    const five = await readAll(
      folder.write(
        'five.csv',
        'Baumkataster Graz\nStand: 2026-05-01\nQuelle: Stadt Graz, Abteilung Grünraum\n\n\nid,Name,lat,lon\n1,Linde,47.0707,15.4395\n2,Eiche,47.0710,15.4401\n',
      ),
    );
    assert.equal(five.table.format.header, 6);
    assert.deepEqual(
      five.rows.map((row) => row.values.Name),
      ['Linde', 'Eiche'],
    );
  });

  it('keeps line 1 of a semicolon table with decimal commas whose rows leave out their last cell or end with delimiters', async () => {
    const short = await readAll(
      folder.write(
        'short.csv',
        'id;lat;lon;Name;Bemerkung\n1;48,2048;16,3577;Linde\n2;48,2050;16,3580;Eiche;nachpflanzen\n3;48,2051;16,3581;Buche\n4;48,2052;16,3582;Ahorn\n',
      ),
    );
    assert.equal(short.table.format.header, 1, short.table.detected.join('; '));
    assert.equal(short.table.format.delimiter, ';');
    assert.deepEqual(short.table.columns, ['id', 'lat', 'lon', 'Name', 'Bemerkung']);
    const trailing = await readAll(
      folder.write('trail.csv', 'id;Name;lat;lon\n1;Linde;48,2048;16,3577;;\n2;Eiche;48,2050;16,3580;x\n3;Buche;48,2051;16,3581; \n'),
    );
    assert.equal(trailing.table.format.header, 1, trailing.table.detected.join('; '));
    assert.deepEqual(trailing.table.columns, ['id', 'Name', 'lat', 'lon']);
    // The delimiter a mapping gives is the one the header is looked for with.
    const given = await readAll(folder.write('given.csv', 'id;lat;lon;Name;Bemerkung\n1;48,2048;16,3577;Linde\n2;48,2050;16,3580\n'), { delimiter: ';' });
    assert.equal(given.table.format.header, 1);
  });
  it('finds it below a title when the file starts with Excel\'s "sep=;" line, and says both', async () => {
    // A sheet with a title block saved as CSV, "sep=;" put first so that Excel opens it split; the
    // rows padded with ";" to the sheet's width, as Excel writes them.
    const text = 'sep=;\r\nBaumkataster Graz, Stand 2025;;;\r\n;;;\r\nid;Baumart;lat;lon\r\n1;Linde;47,0707;15,4395\r\n2;Eiche;47,071;15,4401\r\n';
    const { table, rows, problems } = await readAll(folder.write('kataster.csv', `\uFEFF${text}`));
    assert.deepEqual(problems, []);
    assert.equal(table.format.header, 4);
    assert.equal(table.format.delimiter, ';');
    assert.deepEqual(table.columns, ['id', 'Baumart', 'lat', 'lon']);
    assert.ok(table.detected.includes(`delimiter ';' (detected: the file's first line "sep=;")`), table.detected.join('; '));
    assert.ok(table.detected.includes('header on line 4 (detected: the lines above it are a title, not columns)'), table.detected.join('; '));
    assert.deepEqual(
      rows.map((row) => [row.line, row.values.Baumart, row.values.lat]),
      [
        [5, 'Linde', '47,0707'],
        [6, 'Eiche', '47,071'],
      ],
    );
  });

  it('does not take a title padded with commas to the table\'s width as the header, with or without a "sep=," line', async () => {
    const body = 'id,Baumart,lat,lon\n1,Linde,47.0707,15.4395\n2,Eiche,47.0710,15.4401\n3,Ahorn,47.0712,15.4388\n';
    for (const [name, text, header] of [
      ['padded.csv', `Baumkataster Graz, Stand 2025,,\n${body}`, 2],
      ['wider.csv', `Baumkataster Graz, Stand 2025,,,\n${body}`, 2],
      ['sep.csv', `sep=,\nBaumkataster Graz, Stand 2025,,\n${body}`, 3],
    ] as const) {
      const { table, rows, problems } = await readAll(folder.write(name, text));
      assert.deepEqual(problems, [], name);
      assert.equal(table.format.header, header, `${name}: ${table.detected.join('; ')}`);
      assert.deepEqual(table.columns, ['id', 'Baumart', 'lat', 'lon'], name);
      assert.deepEqual(
        rows.map((row) => row.values.Baumart),
        ['Linde', 'Eiche', 'Ahorn'],
        name,
      );
    }
  });

  it('keeps line 1 as the header when one row has a cell too many and no cell is a plain number (ids, WKT, places)', async () => {
    // A name's comma left unquoted ("Linde, Winterlinde") gives that row a cell more; every cell of
    // these tables is filled and none a plain number, so that row looks like a header of its own.
    for (const [name, text] of [
      [
        'wkt.csv',
        'Baum-Nr,Art,wkt\nT-001,Eiche,POINT (16.3577 48.2048)\nT-002,Linde, Winterlinde,POINT (16.3580 48.2050)\nT-003,Ahorn,POINT (16.3582 48.2052)\n',
      ],
      [
        'ort.csv',
        'Baum-Nr,Art,Standort\r\nT-001,Eiche,48.2048 16.3577\r\nT-002,Linde, Winterlinde,48.2050 16.3580\r\nT-003,Ahorn,48.2052 16.3582\r\nT-004,Esche,48.2054 16.3584\r\n',
      ],
      ['grad.csv', 'Nr;Art;Breite;Länge\nB-1;Eiche;48,2048°;16,3577°\nB-2;Linde;48,2050°;16,3580°;alt\nB-3;Ahorn;48,2052°;16,3582°\n'],
    ] as const) {
      const { table, rows, problems } = await readAll(folder.write(name, text));
      assert.equal(table.format.header, 1, `${name}: ${table.detected.join('; ')}`);
      assert.ok(!table.detected.some((note) => note.startsWith('header')), `${name}: ${table.detected.join('; ')}`);
      assert.equal(table.columns.length, name === 'grad.csv' ? 4 : 3, name);
      assert.deepEqual(
        problems.map((problem) => problem.line),
        [3],
        name,
      );
      assert.match(problems[0].problem, /^row 2 has \d cells, the header \d/, name);
      assert.deepEqual(
        rows.map((row) => row.line),
        name === 'ort.csv' ? [2, 4, 5] : [2, 4],
        name,
      );
    }
  });

  it('finds the header below a title with a comma in it over a semicolon or tab table with decimal points', async () => {
    for (const [name, text, header, delimiter] of [
      ['semi.csv', 'Baumkataster Graz, Stand 2026\n\nid;lat;lon;note\n1;48.2;16.37;a\n2;48.3;16.38;b\n', 3, ';'],
      ['tab.csv', 'Baumkataster Graz, Stand 2026-05-01\r\n\r\nid\tName\tlat\tlon\r\n1\tLinde\t47.0707\t15.4395\r\n2\tEiche\t47.0710\t15.4401\r\n', 3, '\t'],
      ['quelle.csv', 'Baumkataster Graz, Stand: 1. Mai 2026, Quelle: Stadt Graz\nid;lat;lon;note\n1;48.2;16.37;a, b\n2;48.3;16.38;b\n', 2, ';'],
    ] as const) {
      const { table, rows, problems } = await readAll(folder.write(name, text));
      assert.deepEqual(problems, [], name);
      assert.equal(table.format.header, header, `${name}: ${table.detected.join('; ')}`);
      assert.equal(table.format.delimiter, delimiter, name);
      assert.equal(table.format.decimalSeparator, '.', name);
      assert.equal(table.columns[0], 'id', name);
      assert.equal(rows.length, 2, name);
    }
  });

  it('finds the header below metadata lines when many rows end with an empty last cell, and keeps line 1 with an unnamed last column', async () => {
    // A review's fixtures: rows "T-001;47.0707;15.4395;" under a three-cell title line fitted it as short rows.
    const meta =
      'Export;Stadt Graz;Umweltamt\nDatum;2025-05-01;\n\nid;lat;lon;Bemerkung\nT-001;47.0707;15.4395;\nT-002;47.0712;15.4401;hohl\nT-003;47.0720;15.4410;\nT-004;47.0730;15.4420;Pilzbefall\nT-005;47.0740;15.4430;\nT-006;47.0750;15.4440;\n';
    const below = await readAll(folder.write('meta2.csv', meta));
    assert.equal(below.table.format.header, 4, below.table.detected.join('; '));
    assert.deepEqual(below.table.columns, ['id', 'lat', 'lon', 'Bemerkung']);
    // An unnamed last column every row fills, and no plain number anywhere: line 1 is still the header.
    const unnamed = await readAll(
      folder.write('unnamed.csv', 'id;Position;\nT-001;47.0707 15.4395;alt\nT-002;47.0712 15.4401;jung\nT-003;47.0720 15.4410;krank\n'),
    );
    assert.equal(unnamed.table.format.header, 1, unnamed.table.detected.join('; '));
    assert.deepEqual(unnamed.table.columns.slice(0, 2), ['id', 'Position']);
  });
});
