// The table reader on CSV and TSV files modelled on real exports (docs: /work/shared/design's
// data-sources): a form tool's semicolon CSV with a byte-order mark and decimal commas, a German
// spreadsheet saved as windows-1252, title rows above the header, a TSV, and rows that cannot be
// read. Every expected position is found by searching the file's text in the test.
import * as assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { TableReadError, isRowReadProblem, openTable, previewTable, type RowReadProblem, type SourceRow } from '../../src/core/rows';
import { positionOf, readAll, useTableFolder } from './helpers/tableFiles';

/** Text as windows-1252 bytes: Latin-1 for ä ö ü ß and the like; the euro sign and German quotes where windows-1252 has them. */
function windows1252(text: string): Buffer {
  const beyondLatin1: Record<string, number> = { '€': 0x80, '„': 0x84, '“': 0x93 };
  return Buffer.from(
    [...text].map((char) => beyondLatin1[char] ?? (char.charCodeAt(0) < 256 ? char.charCodeAt(0) : assert.fail(`no windows-1252 byte for ${char}`))),
  );
}

function cellsAt(row: SourceRow | RowReadProblem | undefined): SourceRow {
  assert.ok(row && !isRowReadProblem(row), `a row, not ${JSON.stringify(row)}`);
  return row;
}

describe('rows read: CSV and TSV', () => {
  const folder = useTableFolder('spot-rows-csv-');

  it('reads a form-tool export: semicolons, a byte-order mark, decimal commas, a quoted cell holding the delimiter, quotes and a line break', async () => {
    // As KoBoToolbox writes it: group paths in the headers, CRLF, one answer over two lines.
    const text = [
      '_uuid;_submission_time;group_obs/species;group_obs/notes;_location_latitude;_location_longitude;group_obs/count',
      'uuid-first;2024-05-01T10:15:00+02:00;Bufo bufo;"Am Teich; nass\r\nzweite Zeile mit ""Zitat""";47,2692;11,3933;13',
      'uuid-second;2024-05-02T08:00:00+02:00;Rana temporaria;kurz;47,2701;11,4012;21',
      '',
    ].join('\r\n');
    const { table, rows, problems } = await readAll(folder.write('kobo.csv', `\uFEFF${text}`));

    assert.deepEqual(table.format, { format: 'csv', encoding: 'utf-8', delimiter: ';', decimalSeparator: ',', header: 1 });
    assert.deepEqual(table.detected, [
      'encoding utf-8 (detected: byte-order mark)',
      "delimiter ';' (detected)",
      `decimal separator ',' (detected: "47,2692" in column "_location_latitude")`,
    ]);
    assert.equal(table.columns[0], '_uuid', 'the byte-order mark is not part of the first column name');
    assert.equal(table.columns.length, 7);
    assert.deepEqual(problems, []);
    assert.equal(rows.length, 2);

    const [first, second] = rows;
    assert.deepEqual(first.values, {
      _uuid: 'uuid-first',
      _submission_time: '2024-05-01T10:15:00+02:00',
      'group_obs/species': 'Bufo bufo',
      'group_obs/notes': 'Am Teich; nass\r\nzweite Zeile mit "Zitat"',
      _location_latitude: '47,2692',
      _location_longitude: '11,3933',
      'group_obs/count': '13',
    });
    assert.equal(first.row, 1);
    assert.equal(first.line, 2);
    // Columns count as an editor shows the file: without the byte-order mark.
    assert.deepEqual(first.cells, {
      _uuid: positionOf(text, 'uuid-first'),
      _submission_time: positionOf(text, '2024-05-01T10'),
      'group_obs/species': positionOf(text, 'Bufo bufo'),
      'group_obs/notes': positionOf(text, '"Am Teich'),
      // After the quoted cell: on the next line, past its doubled quotes.
      _location_latitude: positionOf(text, '47,2692'),
      _location_longitude: positionOf(text, '11,3933'),
      'group_obs/count': positionOf(text, '13\r\n'),
    });
    assert.deepEqual(first.cells._location_latitude, { line: 3, column: 'zweite Zeile mit ""Zitat""";'.length + 1 });

    assert.equal(second.row, 2);
    assert.equal(second.line, 4, 'the first row spans lines 2 and 3');
    assert.equal(second.values['group_obs/notes'], 'kurz');
    assert.deepEqual(second.cells, {
      _uuid: positionOf(text, 'uuid-second'),
      _submission_time: positionOf(text, '2024-05-02T08'),
      'group_obs/species': positionOf(text, 'Rana temporaria'),
      'group_obs/notes': positionOf(text, 'kurz'),
      _location_latitude: positionOf(text, '47,2701'),
      _location_longitude: positionOf(text, '11,4012'),
      'group_obs/count': positionOf(text, '21'),
    });
  });

  it('reads a German spreadsheet saved as windows-1252: umlauts, ß, German quotes and the euro sign decode', async () => {
    const text = 'Art;Fundort;Beobachter;Kosten\r\nMäusebussard;Großes Moor;Jürgen Öttl;12,50 €\r\nWeißstorch;„Süd-Ufer“;Änne Übel;3,20 €\r\n';
    const path = folder.write('arten.csv', windows1252(text));
    const { table, rows, problems } = await readAll(path);

    assert.equal(table.format.encoding, 'windows-1252');
    assert.ok(table.detected.includes('encoding windows-1252 (detected: not valid UTF-8, line 2)'), table.detected.join('; '));
    assert.deepEqual(problems, []);
    assert.deepEqual(
      rows.map((row) => row.values),
      [
        { Art: 'Mäusebussard', Fundort: 'Großes Moor', Beobachter: 'Jürgen Öttl', Kosten: '12,50 €' },
        { Art: 'Weißstorch', Fundort: '„Süd-Ufer“', Beobachter: 'Änne Übel', Kosten: '3,20 €' },
      ],
    );
    assert.deepEqual(rows[1].cells, {
      Art: positionOf(text, 'Weißstorch'),
      Fundort: positionOf(text, '„Süd-Ufer“'),
      Beobachter: positionOf(text, 'Änne Übel'),
      Kosten: positionOf(text, '3,20 €'),
    });

    // ISO-8859-1 proper, when asked for: 0x80 is a control character there, not the euro sign.
    const latin1 = await readAll(path, { encoding: 'latin1' });
    assert.equal(latin1.rows[0].values.Kosten, '12,50 \u0080');
    assert.equal(latin1.rows[0].values.Beobachter, 'Jürgen Öttl');
  });

  it('finds windows-1252 when the first byte that is not UTF-8 comes long after the first 64 KiB, and says on which line', async () => {
    const lines = ['Name;Ort;Anzahl'];
    for (let i = 1; i <= 3000; i++) lines.push(`Beobachter ${i};Ort ${i};${i}`);
    lines.push('Müller;Köln;3001', 'Letzte;Zeile;3002', '');
    const text = lines.join('\n');
    assert.ok(text.indexOf('ü') > 64 * 1024);
    const path = folder.write('spaet.csv', windows1252(text));

    const { table, rows, problems } = await readAll(path);
    assert.equal(table.format.encoding, 'windows-1252');
    assert.ok(table.detected.includes(`encoding windows-1252 (detected: not valid UTF-8, line ${positionOf(text, 'Müller').line})`), table.detected.join('; '));
    assert.deepEqual(problems, []);
    assert.equal(rows.length, 3002);
    assert.deepEqual(rows[3000].values, { Name: 'Müller', Ort: 'Köln', Anzahl: '3001' });

    // Told it is UTF-8 (a mapping made before the file was saved again), the table is refused at
    // once, saying what was given, what the bytes look like, and where the first bad byte is (issue 32).
    const told = await openTable(path, { encoding: 'utf-8' }).then(
      () => assert.fail('a file that is not in the encoding given is refused'),
      (error: unknown) => error as TableReadError,
    );
    assert.ok(told instanceof TableReadError);
    const bad = positionOf(text, 'ü');
    assert.deepEqual(told.position, bad);
    assert.match(
      told.message,
      new RegExp(`given as utf-8, but the bytes at line ${bad.line}, column ${bad.column} are not utf-8: they look like windows-1252`),
    );
  });

  it('reads a UTF-8 character that the 64 KiB chunks cut in two as UTF-8', async () => {
    const head = 'name,note\nx,';
    const filler = 'y'.repeat(64 * 1024 - Buffer.byteLength(`${head}\nM`) - 1);
    // More than a chunk after it, so that the second read fills the whole buffer the first one used.
    const text = `${head}${filler}\nMüller,Süd\n${'z,w\n'.repeat(20_000)}`;
    // The ü of Müller is the last byte of the first chunk and the first of the second.
    assert.equal(Buffer.from(text).indexOf(Buffer.from('ü')), 64 * 1024 - 1);
    const { table, rows, problems } = await readAll(folder.write('cut.csv', text));
    assert.equal(table.format.encoding, 'utf-8');
    assert.deepEqual(problems, []);
    assert.deepEqual(rows[1].values, { name: 'Müller', note: 'Süd' });
    assert.deepEqual(rows[1].cells.note, positionOf(text, 'Süd'));
  });

  it('reads a TSV: tabs, a quoted cell holding a tab, another holding a line break', async () => {
    const text = 'id\tname\tnote\n1\t"tab\there"\tafter-tab\n2\tplain\t"multi\nline"\n3\tlast\tend\n';
    const { table, rows, problems } = await readAll(folder.write('obs.tsv', text));
    assert.deepEqual(table.format, { format: 'tsv', encoding: 'utf-8', delimiter: '\t', decimalSeparator: '.', header: 1 });
    assert.ok(!table.detected.some((note) => note.startsWith('delimiter')), 'a .tsv is tab-delimited by its name');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      rows.map((row) => row.values),
      [
        { id: '1', name: 'tab\there', note: 'after-tab' },
        { id: '2', name: 'plain', note: 'multi\nline' },
        { id: '3', name: 'last', note: 'end' },
      ],
    );
    assert.deepEqual(rows[0].cells.note, positionOf(text, 'after-tab'));
    assert.deepEqual(rows[1].cells.note, positionOf(text, '"multi'));
    assert.deepEqual([rows[2].line, rows[2].cells.name], [positionOf(text, '3\tlast').line, positionOf(text, 'last')]);
  });

  it('skips title rows above the header when the header line is given', async () => {
    const text = 'Artenliste Export;;;\r\nStand 01.05.2024;;;\r\nArt;Anzahl;Breite;Länge\r\nBufo bufo;3;47,2692;11,3933\r\nRana;1;47,3;11,4\r\n';
    const { table, rows, problems } = await readAll(folder.write('titel.csv', text), { header: 3 });
    assert.equal(table.format.header, 3);
    assert.deepEqual(table.columns, ['Art', 'Anzahl', 'Breite', 'Länge']);
    assert.equal(table.format.decimalSeparator, ',');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      rows.map((row) => [row.row, row.line, row.values.Art]),
      [
        [1, 4, 'Bufo bufo'],
        [2, 5, 'Rana'],
      ],
    );
    assert.deepEqual(rows[1].cells.Länge, positionOf(text, '11,4'));

    await assert.rejects(openTable(folder.write('kurz.csv', 'Titel\r\n'), { header: 3 }), /no line 3 to be the header row/);
  });

  it('reports a row with too many cells at the cell, reads a row with too few as its trailing cells empty (issue 32), and reads on', async () => {
    const text = 'id,name,lat\n1,a,47.1\n2,b,47.2,extra,more\n3,c\n4,"d\nspans",47.4\n5,e,47.5\n';
    const { items } = await readAll(folder.write('bad.csv', text));
    assert.equal(items.length, 5);
    const [one, more, fewer, four, five] = items;
    assert.equal(cellsAt(one).values.lat, '47.1');

    assert.ok(isRowReadProblem(more));
    assert.deepEqual({ line: more.line, column: more.column, row: more.row }, { ...positionOf(text, 'extra'), row: 2 });
    assert.equal(more.problem, 'row 2 has 5 cells, the header 3: the cells from here on have no column');

    // Trailing cells left out (as ODK Central and spreadsheets write rows) are empty, placed at the end of the row, where the missing cell would be.
    const end = positionOf(text, '3,c\n');
    assert.deepEqual(cellsAt(fewer).values, { id: '3', name: 'c', lat: '' });
    assert.deepEqual(cellsAt(fewer).cells.lat, { line: end.line, column: end.column + '3,c'.length });

    assert.deepEqual(cellsAt(four).values, { id: '4', name: 'd\nspans', lat: '47.4' });
    assert.deepEqual(cellsAt(four).cells.lat, positionOf(text, '47.4'));
    assert.deepEqual([cellsAt(five).row, cellsAt(five).line, cellsAt(five).cells.lat], [5, positionOf(text, '5,e').line, positionOf(text, '47.5')]);
  });

  it('a short row is no row when a quote closed too late swallowed the rows after it, or when the file ends in it without a line break (cut short)', async () => {
    const late = 'id,lat,lon,note,height\n1,47.1,11.1,"stray quote\n2,47.2,11.2,b,"5"\n3,47.3,11.3,c,6\n';
    const { items } = await readAll(folder.write('late.csv', late));
    assert.equal(items.length, 2);
    const [swallowed, three] = items;
    assert.ok(isRowReadProblem(swallowed));
    assert.equal(swallowed.problem, 'row 1 has 4 cells, the header 5: column "height" is missing (it spans 2 lines: is a quote closed too late?)');
    assert.equal(cellsAt(three).values.id, '3');

    const cut = 'id,lat,lon,note\n1,47.1,11.1,a\n2,47.2,11.2';
    const read = await readAll(folder.write('cut.csv', cut));
    assert.equal(read.rows.length, 1);
    const end = positionOf(cut, '2,47.2,11.2');
    assert.deepEqual(read.problems, [
      {
        problem: 'row 2 has 3 cells, the header 4, and the file ends in it without a line break: is the file cut short?',
        line: end.line,
        column: end.column + '2,47.2,11.2'.length,
        row: 2,
      },
    ]);
    // A whole last row without a line break is a row like any other.
    assert.equal((await readAll(folder.write('whole.csv', 'id,lat,lon,note\n1,47.1,11.1,a\n2,47.2,11.2,b'))).rows.length, 2);
  });

  it('reports a quote that is never closed at the quote, after the rows before it, and reads nothing after it', async () => {
    const text = 'id,name,lat\n1,a,47.1\n2,"never closed,47.2\n3,c,47.3\n4,d,47.4\n';
    const { items } = await readAll(folder.write('quote.csv', text));
    assert.equal(items.length, 2);
    assert.equal(cellsAt(items[0]).values.name, 'a');
    const problem = items[1];
    assert.ok(isRowReadProblem(problem));
    const quote = positionOf(text, '"never');
    assert.deepEqual({ line: problem.line, column: problem.column, row: problem.row }, { ...quote, row: 2 });
    assert.equal(
      problem.problem,
      `the quote at line ${quote.line}, column ${quote.column} is never closed: the rest of the file is one cell, so no rows from here on are read`,
    );
  });

  it('reads a relaxed quote as written, leaves out rows with no text, and counts lines ended by LF, CRLF or CR alike', async () => {
    const text = 'name;size\r\n12" pipe;1\n\n;\rBrett;"2"\r';
    const { rows, problems } = await readAll(folder.write('mixed.csv', text), { delimiter: ';' });
    assert.deepEqual(problems, []);
    assert.deepEqual(
      rows.map((row) => [row.row, row.line, row.values]),
      [
        [1, 2, { name: '12" pipe', size: '1' }],
        [2, 5, { name: 'Brett', size: '2' }],
      ],
    );
    assert.deepEqual(rows[1].cells.size, positionOf(text, '"2"'));
  });

  // Excel writes (and reads) a first line "sep=;" naming the delimiter; it was taken as the header,
  // with "sep=" as a column and no coordinates found.
  it('a first line "sep=;" (after a byte-order mark) names the delimiter, and the header is the line after it', async () => {
    const text = 'sep=;\r\nID;Species;Breite;Länge\r\n1;Eiche;47,1;15,4\r\n';
    const { table, rows, problems } = await readAll(folder.write('excel.csv', `\uFEFF${text}`));
    assert.deepEqual(problems, []);
    assert.deepEqual(table.columns, ['ID', 'Species', 'Breite', 'Länge']);
    assert.deepEqual(table.format, { format: 'csv', encoding: 'utf-8', delimiter: ';', decimalSeparator: ',', header: 2 });
    assert.ok(table.detected.includes(`delimiter ';' (detected: the file's first line "sep=;")`), table.detected.join('\n'));
    assert.deepEqual(rows[0].values, { ID: '1', Species: 'Eiche', Breite: '47,1', Länge: '15,4' });
    assert.deepEqual(rows[0].cells.Breite, positionOf(text, '47,1'));
    // A header given is the user's: the line is then whatever that says.
    const given = await readAll(folder.write('excel.csv', text), { header: 2, delimiter: ';' });
    assert.deepEqual(given.table.columns, ['ID', 'Species', 'Breite', 'Länge']);
  });

  it('names unnamed and repeated header cells, and says so; any name is a column of its own', async () => {
    const { table, rows } = await readAll(folder.write('names.csv', 'a;;a;b\n1;2;3;4\n'));
    assert.deepEqual(table.columns, ['a', 'column 2', 'a (2)', 'b']);
    assert.ok(table.detected.includes('column 2 has no name in the header: called "column 2"'));
    assert.ok(table.detected.includes('column 3 repeats the name "a": called "a (2)"'));
    assert.deepEqual(rows[0].values, { a: '1', 'column 2': '2', 'a (2)': '3', b: '4' });

    // A name given to a repeat is never one the header has itself, later or earlier: "note (2)"
    // read the third column's values into the second's name, and the third's were lost.
    const clash = await readAll(folder.write('clash.csv', 'id,note,note,note (2),,column 5\n1,A,B,C,D,E\n'));
    assert.deepEqual(clash.table.columns, ['id', 'note', 'note (3)', 'note (2)', 'column 5 (2)', 'column 5']);
    assert.deepEqual(clash.rows[0].values, { id: '1', note: 'A', 'note (3)': 'B', 'note (2)': 'C', 'column 5 (2)': 'D', 'column 5': 'E' });
    assert.ok(clash.table.detected.includes('column 3 repeats the name "note": called "note (3)"'), clash.table.detected.join('\n'));

    // A header written on a Mac may spell "Länge" decomposed (a, then U+0308): the same name as the
    // "Länge" a mapping is typed with, so it is that name (NFC), and a repeat of it is a repeat.
    const decomposed = await readAll(folder.write('nfd.csv', 'Breite;La\u0308nge;Länge\n47,1;15,4;x\n'));
    assert.deepEqual(decomposed.table.columns, ['Breite', 'Länge', 'Länge (2)']);
    assert.equal(decomposed.table.columns[1], 'L\u00e4nge');
    assert.deepEqual(decomposed.rows[0].values, { Breite: '47,1', Länge: '15,4', 'Länge (2)': 'x' });

    // Names are the file's, whatever they are: "__proto__" is a column like any other.
    const odd = await readAll(folder.write('odd.csv', '__proto__;constructor\nx;y\n'));
    assert.deepEqual(Object.keys(odd.rows[0].values), ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(odd.rows[0].values), Object.prototype);
    assert.equal(odd.rows[0].values['__proto__'], 'x');
  });

  it('gives every row plain objects whose own members are the columns, in header order, with or without a "__proto__" column', async () => {
    // Headers without "__proto__" are read by plain assignment, those with it member by member:
    // the rows must not tell the two apart (names of Object.prototype's members, numeric names).
    for (const header of ['constructor;toString;10;2;hasOwnProperty', '__proto__;constructor;toString;10;2;hasOwnProperty']) {
      const names = header.split(';');
      const text = `${header}\n${names.map((_, i) => `v${i}`).join(';')}\n`;
      const { rows } = await readAll(folder.write('members.csv', text));
      for (const record of [rows[0].values, rows[0].cells]) {
        assert.equal(Object.getPrototypeOf(record), Object.prototype, header);
        // Numeric names first and ascending, as JavaScript orders every object's keys; the rest in header order.
        const numeric = names.filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b));
        assert.deepEqual(Object.keys(record), [...numeric, ...names.filter((name) => !/^\d+$/.test(name))], header);
        for (const name of names) assert.ok(Object.hasOwn(record, name), `${header}: ${name} is an own member`);
      }
      names.forEach((name, i) => {
        assert.equal(rows[0].values[name], `v${i}`, `${header}: ${name}`);
        assert.deepEqual(rows[0].cells[name], positionOf(text, `v${i}`), `${header}: the cell of ${name}`);
      });
    }
  });

  it('reads a header wider than the 64 KiB sample, as a form tool writes one for a long survey (group paths in every name)', async () => {
    const columns = ['_uuid', '_geolocation_latitude', '_geolocation_longitude'];
    for (let index = 0; index < 1200; index++) columns.push(`B_household_demographics/B2_members_group/q${index}_number_of_members`);
    const header = columns.map((name) => `"${name}"`).join(';');
    assert.ok(header.length > 80_000);
    const row = (id: string) => columns.map((_, index) => `"${index < 3 ? [id, '47,1', '16,2'][index] : 'x'}"`).join(';');
    for (const [name, rows] of [
      ['wide.csv', 1],
      ['wider.csv', 4],
    ] as const) {
      const { table, items } = await readAll(
        folder.write(name, [header, ...Array.from({ length: rows }, (_, index) => row(`u${index + 1}`))].join('\r\n') + '\r\n'),
      );
      assert.equal(table.columns.length, columns.length, name);
      assert.equal(table.format.delimiter, ';', name);
      assert.deepEqual(
        items.map((item) => (isRowReadProblem(item) ? item.problem : [item.values._uuid, item.values._geolocation_latitude])),
        Array.from({ length: rows }, (_, index) => [`u${index + 1}`, '47,1']),
        name,
      );
    }
  });

  it('refuses an empty file and a missing one, and reads a header without rows as no rows', async () => {
    for (const content of ['', '\uFEFF', '\r\n  \n']) {
      await assert.rejects(
        openTable(folder.write('empty.csv', content)),
        (error) => error instanceof TableReadError && / the file is empty$/.test(error.message),
      );
    }
    await assert.rejects(openTable(`${folder.dir()}/missing.csv`), /missing\.csv: there is no such file$/);
    const { table, items } = await readAll(folder.write('header.csv', 'a;b;c\r\n'));
    assert.deepEqual(table.columns, ['a', 'b', 'c']);
    assert.deepEqual(items, []);
  });

  it('previews the header and the first rows', async () => {
    const path = folder.write('preview.csv', 'a,b\n1,2\n3,4\n5,6\n');
    const { table, sample, problems } = await previewTable(path, {}, 2);
    assert.deepEqual(table.columns, ['a', 'b']);
    assert.deepEqual(
      sample.map((row) => row.values),
      [
        { a: '1', b: '2' },
        { a: '3', b: '4' },
      ],
    );
    assert.deepEqual(problems, []);
  });

  it('stops with CancelledError when aborted, and closes the file when the caller stops early', async function () {
    const lines = ['a,b'];
    for (let i = 0; i < 20000; i++) lines.push(`${i},x`);
    const path = folder.write('long.csv', lines.join('\n'));
    const table = await openTable(path);

    const controller = new AbortController();
    await assert.rejects(
      (async () => {
        for await (const item of table.rows(controller.signal)) {
          assert.ok(!isRowReadProblem(item));
          controller.abort();
        }
      })(),
      { name: 'CancelledError' },
    );

    if (process.platform !== 'linux') this.skip();
    for await (const item of table.rows()) {
      assert.equal(openDescriptorsTo(path), 1, 'the file is open while rows are read');
      assert.ok(!isRowReadProblem(item));
      break;
    }
    for (let wait = 0; openDescriptorsTo(path) > 0 && wait < 100; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(openDescriptorsTo(path), 0, 'closed after the loop was left');
  });
});

/** How many of this process's file descriptors are open on the file (Linux: /proc/self/fd). */
function openDescriptorsTo(path: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) count++;
    } catch {
      // Closed while listed.
    }
  }
  return count;
}
