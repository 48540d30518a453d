// How the table reader tells what a file is, from its name and first bytes (detectFormat, no I/O),
// and what it refuses. openTable adds only the check of the rest of the file's encoding
// (rowsReadCsv.test.ts).
import * as assert from 'node:assert/strict';
import { TableReadError, detectFormat } from '../../src/core/rows';
import { readAll, useTableFolder } from './helpers/tableFiles';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe('rows read: detection', () => {
  const folder = useTableFolder('spot-rows-detect-');

  it('chooses the delimiter that splits every row like the header, not one inside quoted cells', () => {
    const comma = detectFormat('obs.csv', utf8('id,"a;b;c",note\n1,"x;y;z",2\n2,"p;q",3\n'));
    assert.equal(comma.format.delimiter, ',');
    assert.ok(comma.detected.includes("delimiter ',' (detected)"));
    // Decimal commas split rows, but not the header, and not every row alike.
    const semicolon = detectFormat('obs.csv', utf8('name;lat;lon\nA;47,1;11,2\nB;47;11\nC;47,3;11,25\n'));
    assert.equal(semicolon.format.delimiter, ';');
    assert.equal(detectFormat('obs.csv', utf8('a|b|c\n1|2|3\n')).format.delimiter, '|');
    const one = detectFormat('obs.csv', utf8('name\nA\nB\n'));
    assert.equal(one.format.delimiter, ',');
    assert.ok(one.detected.includes("delimiter ',' (assumed: no delimiter splits the header, one column only)"));
  });

  it('detects a decimal comma from numeric-looking cells, and a decimal point when there are none', () => {
    const comma = detectFormat('obs.csv', utf8('Art;Breite;Länge;Anzahl\nBufo;47,2692;11,3933;1.234\n'));
    assert.equal(comma.format.decimalSeparator, ',', '"1.234" may be thousands: the plain decimal commas decide');
    assert.ok(comma.detected.includes(`decimal separator ',' (detected: "47,2692" in column "Breite")`));
    const quotedInCommaFile = detectFormat('obs.csv', utf8('name,lat\nA,"47,2692"\n'));
    assert.equal(quotedInCommaFile.format.decimalSeparator, ',');
    assert.equal(detectFormat('obs.csv', utf8('name,lat,lon\nA,47.2692,11.3933\n')).format.decimalSeparator, '.');
    // Only numbers that could be thousands: they decide when nothing else does.
    assert.equal(detectFormat('obs.csv', utf8('name;x\nA;47,269\nB;47,270\n')).format.decimalSeparator, ',');
    const none = detectFormat('obs.csv', utf8('name;count\nA;3\n'));
    assert.equal(none.format.decimalSeparator, '.');
    assert.ok(none.detected.includes("decimal separator '.' (assumed: no decimal numbers in the first rows)"));
  });

  it('says nothing was detected when everything was given', () => {
    const given = detectFormat('obs.csv', utf8('a;b\n1,5;2\n'), { encoding: 'utf-8', delimiter: ';', decimalSeparator: ',' });
    assert.deepEqual(given, { format: { format: 'csv', encoding: 'utf-8', delimiter: ';', decimalSeparator: ',', header: 1 }, detected: [] });
  });

  it('tells the format by extension, and by content when the extension does not say', () => {
    const formatOf = (path: string, text: string) => detectFormat(path, utf8(text)).format.format;
    assert.equal(formatOf('a.tab', 'x\ty\n'), 'tsv');
    assert.equal(formatOf('a.geojson', '{"type":"FeatureCollection","features":[]}'), 'geojson');
    assert.equal(formatOf('a.jsonl', '{"a":1}\n'), 'ndjson');
    assert.equal(formatOf('a.geojsonl', '{"type":"Feature","properties":{},"geometry":null}\n'), 'ndjson');
    assert.equal(formatOf('a.json', '{\n  "type": "FeatureCollection",\n  "features": []\n}\n'), 'geojson');
    assert.equal(formatOf('a.json', '{"type":"FeatureCollection","features":[]}'), 'geojson');
    assert.equal(formatOf('a.json', '{"a":1}\n{"a":2}\n'), 'ndjson');
    assert.equal(formatOf('export.txt', 'x\ty\tz\n1\t2\t3\n'), 'tsv');
    assert.equal(formatOf('export', 'x;y;z\n1;2;3\n'), 'csv');
    assert.ok(detectFormat('a.json', utf8('{"a":1}\n')).detected.includes('format ndjson (detected: one JSON object per line)'));
    assert.ok(detectFormat('export.txt', utf8('x\ty\n')).detected.includes('format tsv (detected: delimited text)'));
  });

  it('reads a .geojson of one feature per line (GeoJSONSeq, as ogr2ogr and tippecanoe write it) as such, saying so', async () => {
    const line = (n: number) => `{"type":"Feature","properties":{"n":${n}},"geometry":{"type":"Point","coordinates":[16.${n},48.${n}]}}`;
    const { table, rows, problems } = await readAll(folder.write('seq.geojson', `\u001e${line(1)}\n\u001e${line(2)}\n${line(3)}\n`));
    assert.equal(table.format.format, 'ndjson');
    assert.ok(table.detected.includes('format ndjson (detected: one GeoJSON feature per line)'), table.detected.join(' | '));
    assert.deepEqual(problems, []);
    assert.deepEqual(
      rows.map((row) => [row.values.n, row.geometry?.coordinates]),
      [
        [1, [16.1, 48.1]],
        [2, [16.2, 48.2]],
        [3, [16.3, 48.3]],
      ],
    );
    // A collection stays one, on one line or many.
    assert.equal(detectFormat('a.geojson', utf8('{"type":"FeatureCollection","features":[\n' + line(1) + '\n]}\n')).format.format, 'geojson');
  });

  it("refuses an encoding given as windows-1252 or latin1 for a file that starts with UTF-8's byte-order mark, saying what to set", () => {
    for (const encoding of ['windows-1252', 'latin1'] as const) {
      assert.throws(
        () => detectFormat('export.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('"_uuid";"lat"\n"a";"47,1"\n')]), { encoding }),
        (error: unknown) =>
          error instanceof TableReadError &&
          error.reason ===
            `it starts with UTF-8's byte-order mark, but its encoding is given as ${encoding}: set "encoding": "utf-8" in the mapping's source, or leave it out to have it detected`,
      );
    }
  });

  it('refuses what is not a table, saying what it is', () => {
    const refusal = (path: string, bytes: Uint8Array, given = {}) => {
      try {
        detectFormat(path, bytes, given);
      } catch (error) {
        assert.ok(error instanceof TableReadError);
        return error.message;
      }
      assert.fail('not refused');
    };
    // A ZIP by its first entry, as its local header names it: a workbook or an archive under a
    // text's name is read when named for what it is (they said "save it as CSV first").
    const zipStartingWith = (name: string, data = '') => {
      const header = Buffer.alloc(30);
      header.writeUInt32LE(0x04034b50, 0);
      header.writeUInt16LE(name.length, 26);
      return Buffer.concat([header, Buffer.from(name), Buffer.from(data)]);
    };
    assert.match(
      refusal('obs.csv', zipStartingWith('[Content_Types].xml')),
      /^obs\.csv: it is an Excel workbook \(\.xlsx\), not text: name it \.xlsx, or set "format": "xlsx" in the mapping's source$/,
    );
    assert.match(
      refusal('obs.csv', zipStartingWith('mimetype', 'application/vnd.oasis.opendocument.spreadsheet')),
      /^obs\.csv: it is an OpenDocument spreadsheet \(LibreOffice Calc\), a format that is not read: save it as \.xlsx or CSV \(File > Save As…\)$/,
    );
    assert.match(refusal('obs.csv', zipStartingWith('form/data.csv')), /^obs\.csv: it is a ZIP archive, not text: name it \.zip to read the table inside it$/);
    assert.match(refusal('obs.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0])), /Excel 97–2003 workbook/);
    assert.match(refusal('obs.csv', Buffer.from([0x61, 0x00, 0x62])), /not a text file/);
    assert.match(refusal('obs.json', utf8('[1, 2]')), /neither a GeoJSON FeatureCollection nor one JSON object per line/);
    assert.match(
      refusal('obs.json', utf8('[{"a":1}]')),
      /^obs\.json: it is a JSON array of records, a format that is not read: save the records as CSV, or as one JSON object per line \(\.ndjson\)$/,
    );
    assert.match(refusal('obs.json', utf8('name,lat\n')), /it is not JSON/);
    assert.match(refusal('obs.csv', utf8('a;b\n'), { header: 0 }), /^obs\.csv: the header row must be a line number from 1 on, not 0$/);
    assert.match(refusal('obs.csv', utf8('a;b\n'), { delimiter: '"' }), /the delimiter must be one character other than a quote or a line break/);
  });

  it('reads a spreadsheet\'s "Unicode text" export: UTF-16 with a byte-order mark, tab-delimited', async () => {
    const text = 'Art\tOrt\nMäusebussard\tGroßes Moor\n';
    const path = folder.write('export.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const { table, rows } = await readAll(path);
    assert.deepEqual(table.format, { format: 'tsv', encoding: 'utf-16le', delimiter: '\t', decimalSeparator: '.', header: 1 });
    assert.ok(table.detected.includes('encoding utf-16le (detected: byte-order mark)'));
    assert.deepEqual(table.columns, ['Art', 'Ort']);
    assert.deepEqual(rows[0].values, { Art: 'Mäusebussard', Ort: 'Großes Moor' });
    assert.deepEqual(rows[0].cells.Ort, { line: 2, column: 'Mäusebussard\t'.length + 1 });
  });
});
